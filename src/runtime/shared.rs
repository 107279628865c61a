//! The compiled sets that matchers made from the same patterns and options share.
//!
//! Node runs a native object's finalizer only between event-loop turns, so a loop that makes
//! `new Matcher(rules)` and never yields kept every compiled set it made (the table "A loop
//! that makes matchers" in docs/matcher.md, from `npm run bench -- --only replace`). The
//! binding notes the sets last made here, by what they were made from, and a `Matcher` made
//! from the same again takes the one it finds: such a loop compiles once and holds one set,
//! however long it runs.
//!
//! The binding's reference to a set is weak: the cache keeps nothing alive, and a set nobody
//! uses is collected as before (`lib/matcher.js` holds the last few it handed out until the
//! event loop turns, so a loop that never yields finds its set again). At most `max` sets are
//! noted, the least recently used leaving first, so a lookup stays a short scan.
//!
//! Generic over the key (the patterns as read) and the value (the binding's reference), so
//! `cargo test` checks the policy with no JavaScript.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Most sets noted at once.
pub const MAX_SHARED: usize = 64;

struct Entry<K, V> {
    hash: u64,
    key: K,
    handle: u64,
    value: V,
    used: u64,
}

/// Sets by what they were made from: a handle (`crate::runtime::handles`) and a value each.
pub struct Shared<K, V> {
    entries: Vec<Entry<K, V>>,
    clock: u64,
    max: usize,
}

/// `key`'s hash, to compare a key with a kept one only when the hashes agree.
fn hash_of<K: Hash>(key: &K) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl<K: Hash + Eq, V: Copy> Shared<K, V> {
    pub fn new(max: usize) -> Self {
        Shared { entries: Vec::new(), clock: 0, max }
    }

    /// The handle and value of the set made from `key`, marked as the most recently used.
    pub fn get(&mut self, key: &K) -> Option<(u64, V)> {
        let hash = hash_of(key);
        self.clock += 1;
        let clock = self.clock;
        let e = self.entries.iter_mut().find(|e| e.hash == hash && e.key == *key)?;
        e.used = clock;
        Some((e.handle, e.value))
    }

    /// Notes the set made from `key`; the values of the sets that leave to make room, which
    /// the caller lets go (with no room at all, `value` itself).
    pub fn insert(&mut self, key: K, handle: u64, value: V) -> Vec<V> {
        if self.max == 0 {
            return vec![value];
        }
        let mut gone = Vec::new();
        while self.entries.len() >= self.max {
            let oldest = (0..self.entries.len()).min_by_key(|&i| self.entries[i].used).unwrap_or(0);
            gone.push(self.entries.swap_remove(oldest).value);
        }
        self.clock += 1;
        self.entries.push(Entry { hash: hash_of(&key), key, handle, value, used: self.clock });
        gone
    }

    /// Takes the set `handle` names out (its value), when it is kept.
    pub fn remove(&mut self, handle: u64) -> Option<V> {
        let i = self.entries.iter().position(|e| e.handle == handle)?;
        Some(self.entries.swap_remove(i).value)
    }

    /// How many sets are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no set is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every set without handing their values back (their environment is gone, and
    /// its references with it).
    pub fn forget(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn finds_what_was_made_from_the_same_key() {
        let mut c = Shared::new(4);
        assert!(c.insert(key("a"), 1, 'a').is_empty());
        assert!(c.insert(key("b"), 2, 'b').is_empty());
        assert_eq!(c.get(&key("a")), Some((1, 'a')));
        assert_eq!(c.get(&key("b")), Some((2, 'b')));
        assert_eq!(c.get(&key("c")), None);
        assert_eq!(c.get(&vec!["a".to_string(), "b".to_string()]), None);
    }

    #[test]
    fn the_least_recently_used_leaves_first() {
        let mut c = Shared::new(2);
        c.insert(key("a"), 1, 'a');
        c.insert(key("b"), 2, 'b');
        c.get(&key("a"));
        assert_eq!(c.insert(key("c"), 3, 'c'), vec!['b']);
        assert_eq!(c.get(&key("b")), None);
        assert_eq!(c.get(&key("a")), Some((1, 'a')));
        assert_eq!(c.len(), 2);
        assert_eq!(c.insert(key("d"), 4, 'd'), vec!['c']);
    }

    #[test]
    fn remove_takes_a_set_out_by_handle() {
        let mut c = Shared::new(1);
        c.insert(key("a"), 1, 'a');
        assert_eq!(c.remove(1), Some('a'));
        assert_eq!(c.remove(1), None);
        assert!(c.is_empty());
        assert!(c.insert(key("b"), 2, 'b').is_empty(), "its room is free again");
        c.forget();
        assert!(c.is_empty());
        assert_eq!(c.get(&key("b")), None);
    }

    #[test]
    fn with_no_room_nothing_is_noted() {
        let mut c: Shared<Vec<String>, char> = Shared::new(0);
        assert_eq!(c.insert(key("a"), 1, 'a'), vec!['a']);
        assert_eq!(c.get(&key("a")), None);
    }
}
