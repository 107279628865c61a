//! Handles: numbers that name native objects for JavaScript, so that a JavaScript object holds
//! a number rather than a native object each. A native function per object leaves Node-API
//! bookkeeping behind until the event loop turns (a loop that made and disposed of matchers
//! without yielding grew with every one); a handle leaves nothing.
//!
//! A handle is a slot and the slot's generation: removing an object frees its slot for the
//! next one under a new generation, so an old handle then names nothing, and never another
//! object. Handles stay within the 53 bits a JavaScript number holds exactly.

use crate::error::{Error, ErrorKind, Result};

/// Bits of a handle that name the slot; the rest, its generation.
const SLOT_BITS: u32 = 24;
/// Generations wrap here, so that a handle stays within 53 bits.
const MAX_GENERATION: u64 = 1 << (53 - SLOT_BITS);

/// Objects by handle: at most 2^24 at once.
pub struct Handles<T> {
    /// (generation, object) per slot.
    slots: Vec<(u64, Option<T>)>,
    free: Vec<usize>,
}

impl<T> Default for Handles<T> {
    fn default() -> Self {
        Handles { slots: Vec::new(), free: Vec::new() }
    }
}

impl<T> Handles<T> {
    /// Stores `object`; its handle. `RangeError` when every slot is taken.
    pub fn insert(&mut self, object: T) -> Result<u64> {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None if self.slots.len() < 1 << SLOT_BITS => {
                self.slots.push((0, None));
                self.slots.len() - 1
            }
            None => {
                return Err(Error::out_of_range(format!(
                    "Too many live matchers on this thread: at most {}; dispose of some",
                    1u64 << SLOT_BITS
                )))
            }
        };
        self.slots[slot].1 = Some(object);
        Ok(self.slots[slot].0 << SLOT_BITS | slot as u64)
    }

    /// The object `handle` names, if it still names one.
    pub fn get(&self, handle: u64) -> Option<&T> {
        match self.slots.get(slot_of(handle)) {
            Some((generation, Some(object))) if *generation == handle >> SLOT_BITS => Some(object),
            _ => None,
        }
    }

    /// The object `handle` names, to change, if it still names one.
    pub fn get_mut(&mut self, handle: u64) -> Option<&mut T> {
        match self.slots.get_mut(slot_of(handle)) {
            Some((generation, Some(object))) if *generation == handle >> SLOT_BITS => Some(object),
            _ => None,
        }
    }

    /// Takes the object `handle` names out (none if it names none); the slot is reused under
    /// the next generation.
    pub fn remove(&mut self, handle: u64) -> Option<T> {
        let slot = slot_of(handle);
        let entry = self.slots.get_mut(slot)?;
        if entry.0 != handle >> SLOT_BITS || entry.1.is_none() {
            return None;
        }
        entry.0 = (entry.0 + 1) % MAX_GENERATION;
        let taken = entry.1.take();
        self.free.push(slot);
        taken
    }
}

fn slot_of(handle: u64) -> usize {
    (handle & ((1 << SLOT_BITS) - 1)) as usize
}

/// The error a call through a handle that names nothing gets.
pub fn disposed() -> Error {
    Error::new(ErrorKind::Disposed, "This Matcher has been disposed: its patterns were freed by [Symbol.dispose]()")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_objects_handle_names_nothing_even_when_its_slot_is_reused() {
        let mut h = Handles::default();
        let a = h.insert("a").unwrap();
        let b = h.insert("b").unwrap();
        assert_eq!((h.get(a), h.get(b)), (Some(&"a"), Some(&"b")));
        assert_eq!(h.remove(a), Some("a"));
        assert_eq!(h.get(a), None);
        assert_eq!(h.remove(a), None, "removed once");
        let c = h.insert("c").unwrap();
        assert_eq!(slot_of(c), slot_of(a), "the slot is reused");
        assert_ne!(c, a, "under a new generation");
        assert_eq!((h.get(a), h.get(c)), (None, Some(&"c")));
        assert_eq!(h.get_mut(a), None, "nor to change");
        *h.get_mut(c).unwrap() = "d";
        assert_eq!(h.get(c), Some(&"d"));
        assert_eq!(h.get(u64::MAX), None);
    }

    #[test]
    fn handles_stay_within_53_bits_as_generations_wrap() {
        let mut h = Handles::default();
        let mut last = h.insert(0u8).unwrap();
        h.slots[0].0 = MAX_GENERATION - 1;
        h.remove(last);
        h.free.clear();
        h.free.push(0);
        h.slots[0].0 = MAX_GENERATION - 1;
        last = h.insert(1).unwrap();
        assert!(last < 1 << 53);
        h.remove(last);
        let wrapped = h.insert(2).unwrap();
        assert_eq!(wrapped >> SLOT_BITS, 0, "the generation wrapped to 0");
        assert_eq!(h.get(last), None);
    }
}
