//! A meta regex searched with caches of our own, so that one hostile text cannot slow every
//! later search.
//!
//! The meta engine's lazy DFA gives up on a cache that has been cleared three times and
//! searched fewer than 10 bytes for each state it built since: the search goes on in the
//! PikeVM. But the cache stays as it is, full, its clear count kept. Every later search that
//! needs one new state (a start state, say) gives up at once, and runs the PikeVM from its
//! first byte: with no bytes searched, the cache can never earn its next clear. A one-regex
//! `Matcher` of `/[^x][01]*1[01]{12}y/` on 256 random bits became tens of times slower, for
//! good, after one `test` of 4 MB of random bits (`regex::bytes::Regex` does the same; the
//! test `the_meta_engine_alone_keeps_a_cache_it_gave_up_on` below shows the cause).
//!
//! A cache is full only when a search has filled it, and it gives up only when full. So
//! after each search, a cache holding more than half its lazy DFAs' capacity (beyond what
//! the other engines' parts hold at their largest) is reset: emptied, its clear count
//! zeroed. The search that gave up has already answered; the next one starts afresh.
//! Cost: one look at the cache's size a search, and at construction one cache made and reset
//! to learn its base size (a small part of the set's own build).

use regex_automata::meta::{Cache, Regex};
use regex_automata::util::pool::Pool;
use regex_automata::{Input, Match, PatternSet};
use std::panic::{RefUnwindSafe, UnwindSafe};

/// What the bounded backtracker's visited set may grow to (the meta engine's default): the
/// one part of a cache, besides the lazy DFAs, that grows with the texts searched.
const BACKTRACK_VISITED: usize = 256 << 10;
/// A lazy DFA that gave up is full: past half its capacity even with the backtracker's set
/// at its largest, when the capacity is at least this.
pub const MIN_CAPACITY: usize = 4 * BACKTRACK_VISITED;

/// A pool of caches for one automaton, each made on first use by a thread and kept: the
/// caches of `ResettingRegex`, of the walk of `test`'s two automata, and of the look-around markers.
pub type CachePool<T> = Pool<T, Box<dyn Fn() -> T + Send + Sync + UnwindSafe + RefUnwindSafe>>;

pub struct ResettingRegex {
    re: Regex,
    caches: CachePool<Cache>,
    /// A cache past this many bytes is reset after its search.
    reset_above: usize,
    #[cfg(test)]
    resets: std::sync::atomic::AtomicUsize,
}

impl ResettingRegex {
    /// `capacity`: the lazy DFA cache capacity `re` was built with (each of its forward and
    /// reverse lazy DFAs may grow to it), at least `MIN_CAPACITY`.
    pub fn new(re: Regex, capacity: usize) -> ResettingRegex {
        debug_assert!(capacity >= MIN_CAPACITY);
        // A cache allocates as it is used; reset, it holds what every search needs (the
        // PikeVM's sets, sized to the NFA; the lazy DFAs' sentinel states).
        let mut base = re.create_cache();
        base.reset(&re);
        let fresh = base.memory_usage() + BACKTRACK_VISITED;
        let caches: CachePool<Cache> = {
            let re = re.clone();
            Pool::new(Box::new(move || re.create_cache()))
        };
        ResettingRegex {
            re,
            caches,
            reset_above: fresh + capacity / 2,
            #[cfg(test)]
            resets: Default::default(),
        }
    }

    /// `f` with one of the caches, reset afterwards if it has grown past half its capacity.
    fn with_cache<T>(&self, f: impl FnOnce(&Regex, &mut Cache) -> T) -> T {
        let mut cache = self.caches.get();
        let answer = f(&self.re, &mut cache);
        if cache.memory_usage() > self.reset_above {
            cache.reset(&self.re);
            #[cfg(test)]
            self.resets.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        answer
    }

    pub fn is_match(&self, input: &Input<'_>) -> bool {
        self.with_cache(|re, cache| re.is_match_with(cache, input))
    }

    pub fn which_overlapping_matches(&self, input: &Input<'_>, patset: &mut PatternSet) {
        self.with_cache(|re, cache| re.which_overlapping_matches_with(cache, input, patset))
    }

    /// Each non-overlapping match in `text`, in order, until `found` returns false.
    pub fn each_match(&self, text: &[u8], mut found: impl FnMut(Match) -> bool) {
        self.with_cache(|re, cache| {
            let mut matches = regex_automata::util::iter::Searcher::new(Input::new(text));
            while let Some(m) = matches.advance(|input| Ok(re.search_with(cache, input))) {
                if !found(m) {
                    break;
                }
            }
        })
    }

    pub fn search(&self, input: &Input<'_>) -> Option<Match> {
        self.with_cache(|re, cache| re.search_with(cache, input))
    }

    pub fn search_captures(&self, input: &Input<'_>, caps: &mut regex_automata::util::captures::Captures) {
        self.with_cache(|re, cache| re.search_captures_with(cache, input, caps))
    }

    /// The regex itself, for what needs no cache.
    pub fn regex(&self) -> &Regex {
        &self.re
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::MatchKind;

    const CAPACITY: usize = MIN_CAPACITY;

    fn build(source: &str) -> Regex {
        Regex::builder()
            .configure(Regex::config().match_kind(MatchKind::LeftmostFirst).hybrid_cache_capacity(CAPACITY))
            .build(source)
            .unwrap()
    }

    fn bits(seed: &mut u32, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                b'0' + (*seed >> 16) as u8 % 2
            })
            .collect()
    }

    /// `[01]{12}` after a `1` anywhere: a lazy DFA state for every mix of the last 13 bits,
    /// more than a small cache holds; random bits build a state at nearly every byte.
    const THRASHES: &str = r"[^x][01]*1[01]{12}y";
    /// Enough random bits for the lazy DFA to give up at `CAPACITY`.
    const THRASH_BITS: usize = 3 << 20;

    #[test]
    fn the_meta_engine_alone_keeps_a_cache_it_gave_up_on() {
        // What this module is for: without the reset, a full cache stays full (no search
        // clears it again), so every later search runs the PikeVM.
        let re = build(THRASHES);
        let mut cache = re.create_cache();
        let fresh = cache.memory_usage();
        let mut seed = 1;
        assert!(!re.is_match_with(&mut cache, &Input::new(&bits(&mut seed, THRASH_BITS))));
        let full = cache.memory_usage();
        assert!(full > fresh + CAPACITY / 2 + BACKTRACK_VISITED, "{full} {fresh}");
        let calm = bits(&mut seed, 256);
        for _ in 0..1000 {
            assert!(!re.is_match_with(&mut cache, &Input::new(&calm)));
        }
        assert_eq!(cache.memory_usage(), full, "the cache was cleared: it had not given up");
    }

    #[test]
    fn a_cache_past_half_its_capacity_is_reset_after_the_search() {
        let kept = ResettingRegex::new(build(THRASHES), CAPACITY);
        let mut seed = 1;
        let mut thrash = bits(&mut seed, THRASH_BITS);
        assert!(!kept.is_match(&Input::new(&thrash)));
        thrash.extend_from_slice(b"1000000000000y");
        assert!(kept.is_match(&Input::new(&thrash)));
        let mut seen = Vec::new();
        kept.each_match(&thrash, |m| {
            seen.push(m.range());
            true
        });
        assert_eq!(seen.len(), 1);
        assert!(kept.resets.load(std::sync::atomic::Ordering::Relaxed) >= 1);
        // Every search, whatever it did, leaves a cache within the bound.
        let cache = kept.caches.get();
        assert!(cache.memory_usage() <= kept.reset_above);
        drop(cache);
        // And answers are unchanged: the same as the regex's own.
        let calm = bits(&mut seed, 256);
        for text in [&calm[..], b"01y", b"x1000000000000y", b"a1000000000000y"] {
            assert_eq!(kept.is_match(&Input::new(text)), kept.regex().is_match(text));
        }
    }

    #[test]
    fn searches_that_build_few_states_never_reset_the_cache() {
        // What grows with the text in the other engines' caches (the backtracker's visited
        // set, capped at 256 KiB; the PikeVM's, sized to the NFA) must not look like a full
        // lazy DFA: a reset on every search would rebuild the states each time.
        let mut seed = 5;
        let letters: Vec<u8> = bits(&mut seed, 1 << 20).iter().map(|b| b'a' + (b - b'0') * 7).collect();
        for source in [r"foo\d+bar", r"(\w+)@(\w+)\.com", r"[a-h]{3}x"] {
            let kept = ResettingRegex::new(build(source), CAPACITY);
            for len in [10, 4096, 65_536, 1 << 20] {
                for _ in 0..3 {
                    kept.is_match(&Input::new(&letters[..len]));
                    kept.each_match(&letters[..len], |_| true);
                }
            }
            assert_eq!(kept.resets.load(std::sync::atomic::Ordering::Relaxed), 0, "{source}");
        }
    }
}
