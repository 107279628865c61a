//! The bounded cache behind one-off `isMatch(pattern, text)`: compiling the same pattern in
//! a loop costs a look-up, not a compile. Sixteen shards, each a least-recently-used list
//! behind its own lock, so threads rarely wait on each other and no lock is global.

use super::{Kind, Matcher, PatternSpec};
use crate::error::Result;
use compact_str::CompactString;
use lru::LruCache;
use std::hash::{BuildHasher, Hash};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock};

const SHARDS: usize = 16;
/// Compiled patterns kept per shard; the cache holds at most `SHARDS * PER_SHARD`.
pub const PER_SHARD: usize = 64;

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    pattern: CompactString,
    kind: Kind,
    ci: bool,
}

pub struct OneOffCache {
    shards: Vec<Mutex<LruCache<Key, Arc<Matcher>>>>,
    hasher: rustc_hash::FxBuildHasher,
}

impl OneOffCache {
    fn new() -> Self {
        let cap = NonZeroUsize::new(PER_SHARD).unwrap_or(NonZeroUsize::MIN);
        Self { shards: (0..SHARDS).map(|_| Mutex::new(LruCache::new(cap))).collect(), hasher: Default::default() }
    }

    /// The process-wide cache.
    pub fn global() -> &'static OneOffCache {
        static CACHE: OnceLock<OneOffCache> = OnceLock::new();
        CACHE.get_or_init(OneOffCache::new)
    }

    /// The compiled matcher for one pattern, compiled (outside any lock) on a miss.
    pub fn get(&self, pattern: &str, kind: Kind, ci: bool) -> Result<Arc<Matcher>> {
        let key = Key { pattern: CompactString::from(pattern), kind, ci };
        let shard = &self.shards[self.hasher.hash_one(&key) as usize % SHARDS];
        if let Some(m) = shard.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(m.clone());
        }
        let spec = PatternSpec { pattern: pattern.to_string(), kind, case_insensitive: ci };
        let compiled = Arc::new(Matcher::new(std::slice::from_ref(&spec))?);
        shard.lock().unwrap_or_else(|e| e.into_inner()).put(key, compiled.clone());
        Ok(compiled)
    }

    /// Compiled patterns held now.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len()).sum()
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
            assert!(cache.get(&format!("p{i}"), Kind::Contains, false).unwrap().test(format!("xp{i}y").as_bytes()));
        }
        assert!(cache.len() <= SHARDS * PER_SHARD);
    }

    #[test]
    fn a_repeated_pattern_is_compiled_once() {
        let cache = OneOffCache::new();
        let a = cache.get("b.t", Kind::Regex, true).unwrap();
        let b = cache.get("b.t", Kind::Regex, true).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
    }
}
