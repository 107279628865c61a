//! How much memory the addon's own Rust code holds: a counting wrapper around the global
//! allocator. `stats().nativeBytes` reports it, so a leak test (or a server's metrics) can
//! watch our heap rather than the process's RSS, which the JS runtime moves on its own.
//!
//! One relaxed atomic add per allocation and per free; our hot paths allocate a handful of
//! times per call. Measured side by side in one process against the same code on the system
//! allocator alone (generateSync, Matcher.test, Matcher.findAll, a burst of 2,000 async
//! generate, two runs): every ratio within 0.88–1.06 with no consistent sign, i.e. noise.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The global allocator's count.
pub static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Wraps an allocator and counts the bytes live in it, in `.1`.
pub struct Counting<A: 'static>(pub A, pub &'static AtomicUsize);

// SAFETY: every method forwards to the wrapped allocator with the caller's arguments
// unchanged; the counter is bookkeeping beside it.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            self.1.fetch_add(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            self.1.fetch_add(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.dealloc(ptr, layout) };
        self.1.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            let old = layout.size();
            if new_size >= old {
                self.1.fetch_add(new_size - old, Relaxed);
            } else {
                self.1.fetch_sub(old - new_size, Relaxed);
            }
        }
        p
    }
}

/// Bytes allocated through the global allocator and not yet freed, on every thread.
pub fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_is_live() {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let a = Counting(std::alloc::System, &COUNT);
        let small = Layout::from_size_align(100, 8).unwrap();
        // SAFETY: non-zero layouts; each block is freed with the layout it has.
        unsafe {
            let p = a.alloc(small);
            let z = a.alloc_zeroed(small);
            assert_eq!(COUNT.load(Relaxed), 200);
            let p = a.realloc(p, small, 1000);
            assert_eq!(COUNT.load(Relaxed), 1100);
            let p = a.realloc(p, Layout::from_size_align(1000, 8).unwrap(), 10);
            assert_eq!(COUNT.load(Relaxed), 110);
            a.dealloc(p, Layout::from_size_align(10, 8).unwrap());
            a.dealloc(z, small);
        }
        assert_eq!(COUNT.load(Relaxed), 0);
    }
}
