//! The bounded cache behind one-off `isMatch(pattern, text)`: compiling the same pattern in
//! a loop costs a look-up, not a compile. Sixteen shards, each a least-recently-used list
//! behind its own lock, so threads rarely wait on each other and no lock is global.
//!
//! Bounded by bytes as well as by count: a stream of distinct large patterns must not keep
//! their automata. A matcher larger than a shard's byte budget is not kept at all.

use super::{GlobRegex, Kind, Matcher, PatternSpec, Syntax};
use crate::error::Result;
use compact_str::CompactString;
use lru::LruCache;
use std::hash::{BuildHasher, Hash};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock};

const SHARDS: usize = 16;
/// Compiled patterns kept per shard; the cache holds at most `SHARDS * PER_SHARD`.
pub const PER_SHARD: usize = 64;
/// Heap bytes (`Matcher::memory_usage`) kept per shard: 64 MiB for the whole cache.
pub const BYTES_PER_SHARD: usize = 4 << 20;

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    pattern: CompactString,
    kind: Kind,
    ci: bool,
    syntax: Syntax,
    glob: Option<GlobRegex>,
}

/// One shard: its entries, least recently used first out, and their bytes.
struct Shard {
    entries: LruCache<Key, Arc<Matcher>>,
    bytes: usize,
}

pub struct OneOffCache {
    shards: Vec<Mutex<Shard>>,
    hasher: rustc_hash::FxBuildHasher,
}

impl OneOffCache {
    fn new() -> Self {
        let cap = NonZeroUsize::new(PER_SHARD).unwrap_or(NonZeroUsize::MIN);
        let shard = || Mutex::new(Shard { entries: LruCache::new(cap), bytes: 0 });
        Self { shards: (0..SHARDS).map(|_| shard()).collect(), hasher: Default::default() }
    }

    /// The process-wide cache.
    pub fn global() -> &'static OneOffCache {
        static CACHE: OnceLock<OneOffCache> = OnceLock::new();
        CACHE.get_or_init(OneOffCache::new)
    }

    /// The compiled matcher for one pattern, compiled (outside any lock) on a miss.
    pub fn get(
        &self,
        pattern: &str,
        kind: Kind,
        ci: bool,
        syntax: Syntax,
        glob: Option<&GlobRegex>,
    ) -> Result<Arc<Matcher>> {
        let key = Key { pattern: CompactString::from(pattern), kind, ci, syntax, glob: glob.cloned() };
        let shard = &self.shards[self.hasher.hash_one(&key) as usize % SHARDS];
        if let Some(m) = shard.lock().unwrap_or_else(|e| e.into_inner()).entries.get(&key) {
            return Ok(m.clone());
        }
        let spec =
            PatternSpec { pattern: pattern.to_string(), kind, case_insensitive: ci, syntax, glob: glob.cloned() };
        let compiled = Arc::new(Matcher::new(std::slice::from_ref(&spec))?);
        let size = compiled.memory_usage();
        if size <= BYTES_PER_SHARD {
            let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, old)) = shard.entries.push(key, compiled.clone()) {
                shard.bytes -= old.memory_usage();
            }
            shard.bytes += size;
            while shard.bytes > BYTES_PER_SHARD {
                match shard.entries.pop_lru() {
                    Some((_, old)) => shard.bytes -= old.memory_usage(),
                    None => break,
                }
            }
        }
        Ok(compiled)
    }

    /// Compiled patterns held now.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).entries.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_stays_bounded_under_distinct_patterns() {
        let cache = OneOffCache::new();
        for i in 0..5000 {
            assert!(cache
                .get(&format!("p{i}"), Kind::Contains, false, Syntax::Js, None)
                .unwrap()
                .test(format!("xp{i}y").as_bytes()));
        }
        assert!(cache.len() <= SHARDS * PER_SHARD);
    }

    /// Heap bytes held now.
    fn bytes(cache: &OneOffCache) -> usize {
        cache.shards.iter().map(|s| s.lock().unwrap().bytes).sum()
    }

    #[test]
    fn the_cache_stays_bounded_by_bytes_under_large_patterns() {
        let cache = OneOffCache::new();
        for i in 0..200 {
            // About 0.6 MiB compiled each (Unicode classes): a few fit a shard, not 64.
            let m = cache.get(&format!(r"\w{{10}}{i}"), Kind::Regex, false, Syntax::Js, None).unwrap();
            assert!(m.memory_usage() > 512 << 10);
        }
        assert!(bytes(&cache) <= SHARDS * BYTES_PER_SHARD, "{}", bytes(&cache));
        assert!(cache.len() < SHARDS * PER_SHARD / 4, "{}", cache.len());
        let total: usize = cache
            .shards
            .iter()
            .flat_map(|s| s.lock().unwrap().entries.iter().map(|(_, m)| m.memory_usage()).collect::<Vec<_>>())
            .sum();
        assert_eq!(total, bytes(&cache));
    }

    #[test]
    fn a_repeated_pattern_is_compiled_once() {
        let cache = OneOffCache::new();
        let a = cache.get("b.t", Kind::Regex, true, Syntax::Js, None).unwrap();
        let b = cache.get("b.t", Kind::Regex, true, Syntax::Js, None).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }
}
