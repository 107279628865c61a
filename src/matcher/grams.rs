//! Many substring literals found by their first four bytes, for sets too large for
//! Aho–Corasick's prefilters (which need few literals) to help.
//!
//! An Aho–Corasick DFA walks the text one byte at a time, each step a load that depends on
//! the one before; for hundreds of literals its table outgrows the L1 cache and each step
//! waits on the L2 (1500 random 6–10-letter literals: about 7 ns a byte here). Here each
//! position of the text is looked at on its own: its four bytes, hashed, pick one bit of a
//! small filter (a few KiB, in L1), and the loads of neighbouring positions overlap. Only
//! where the bit is set are the literals keyed by those four bytes compared. Each position
//! costs a few instructions, whatever the set's size, as long as the filter stays sparse;
//! `Grams::new` takes only literals that keep the work per position bounded.

use rustc_hash::FxHashMap;

/// The bytes a literal is keyed by: `KEY` of them, its first where that key is not full.
const KEY: usize = 4;
/// Longest literal taken: comparing at one position costs at most `MAX_PER_KEY` × this.
pub const MAX_LEN: usize = 64;
/// Most literals keyed by the same (folded) four bytes. A literal whose first four bytes
/// key as many already is keyed by its next four (`Google…` on a list of 31 of them), and
/// left over when every one of its windows is full.
pub const MAX_PER_KEY: usize = 8;
/// Filter bits per key (rounded up to a power of two): at most about 1 in 32 positions
/// of a random text passes the filter for nothing.
const BITS_PER_KEY: usize = 64;
const MIN_FILTER_BITS: u32 = 12;
/// 2^20 bits (128 KiB) at most; past `MAX_KEYS` keys a set is left to Aho–Corasick.
const MAX_FILTER_BITS: u32 = 20;
pub const MAX_KEYS: usize = 1 << (MAX_FILTER_BITS - 5);
/// Case-insensitive keys and windows set bit 5 of every byte: an ASCII letter's two cases
/// then agree. Other bytes may collide with another this way, which the comparison after
/// the filter sorts out.
const FOLD: u32 = 0x2020_2020;

pub struct Grams {
    ci: bool,
    /// 32 − the filter's bits: a hash's top bits index the filter.
    shift: u32,
    filter: Box<[u64]>,
    /// Folded key → the range of `entries` keyed by it.
    keys: FxHashMap<u32, (u32, u32)>,
    /// Grouped by key: one literal each.
    entries: Vec<Entry>,
    bytes: Vec<u8>,
}

struct Entry {
    pattern: u32,
    /// Where its bytes are in `Grams::bytes`, and how many.
    offset: u32,
    len: u32,
    /// Where its key is in it.
    skip: u32,
}

#[inline(always)]
fn key_of(bytes: &[u8], fold: u32) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) | fold
}

#[inline(always)]
fn hash(key: u32, shift: u32) -> u32 {
    key.wrapping_mul(0x9E37_79B1) >> shift
}

impl Grams {
    /// Takes the `(literal, pattern)` pairs it can (length `KEY..=MAX_LEN`, a key with
    /// room among the literal's windows, in the order given), and returns itself with the
    /// others. `None` when it takes none, or the set has more than `MAX_KEYS` keys: then
    /// every literal is the caller's, uncopied.
    pub fn new(literals: &[(String, u32)], ci: bool) -> Option<(Self, Vec<(String, u32)>)> {
        let fold = if ci { FOLD } else { 0 };
        let mut by_key: FxHashMap<u32, Vec<(usize, usize)>> = FxHashMap::default();
        let mut rest = Vec::new();
        for (i, (literal, pattern)) in literals.iter().enumerate() {
            let bytes = literal.as_bytes();
            let room = if (KEY..=MAX_LEN).contains(&bytes.len()) {
                bytes
                    .windows(KEY)
                    .enumerate()
                    .find(|(_, w)| by_key.get(&key_of(w, fold)).is_none_or(|group| group.len() < MAX_PER_KEY))
            } else {
                None
            };
            match room {
                Some((skip, window)) => by_key.entry(key_of(window, fold)).or_default().push((i, skip)),
                None => rest.push((literal.clone(), *pattern)),
            }
        }
        if by_key.is_empty() || by_key.len() > MAX_KEYS {
            return None;
        }
        let bits =
            (by_key.len() * BITS_PER_KEY).next_power_of_two().trailing_zeros().clamp(MIN_FILTER_BITS, MAX_FILTER_BITS);
        let shift = 32 - bits;
        let mut filter = vec![0u64; 1 << (bits - 6)].into_boxed_slice();
        let mut keys = FxHashMap::default();
        let mut entries = Vec::new();
        let mut bytes = Vec::new();
        // In key order, so that the layout does not depend on the hash map's.
        let mut groups: Vec<(u32, Vec<(usize, usize)>)> = by_key.into_iter().collect();
        groups.sort_unstable_by_key(|(key, _)| *key);
        for (key, group) in groups {
            let h = hash(key, shift);
            filter[(h >> 6) as usize] |= 1 << (h & 63);
            let from = entries.len() as u32;
            for (i, skip) in group {
                let (literal, pattern) = &literals[i];
                let (offset, len, skip) = (bytes.len() as u32, literal.len() as u32, skip as u32);
                entries.push(Entry { pattern: *pattern, offset, len, skip });
                bytes.extend_from_slice(literal.as_bytes());
            }
            keys.insert(key, (from, entries.len() as u32));
        }
        Some((Grams { ci, shift, filter, keys, entries, bytes }, rest))
    }

    /// Calls `found(pattern, start, end)` for every occurrence of every literal (each
    /// literal's in order of start), stopping (and returning false) when `found` returns false.
    pub fn try_each_occurrence(&self, text: &[u8], mut found: impl FnMut(u32, usize, usize) -> bool) -> bool {
        let fold = if self.ci { FOLD } else { 0 };
        let hit = |key: u32| {
            let h = hash(key, self.shift);
            self.filter[(h >> 6) as usize] & (1 << (h & 63)) != 0
        };
        // Eight bytes loaded at once hold the windows at five positions.
        let mut at = 0;
        while let Some(eight) = text.get(at..at + 8) {
            let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            for k in 0..5 {
                let key = (x >> (8 * k)) as u32 | fold;
                if hit(key) && !self.verify(text, at + k, key, &mut found) {
                    return false;
                }
            }
            at += 5;
        }
        while let Some(window) = text.get(at..at + KEY) {
            let key = key_of(window, fold);
            if hit(key) && !self.verify(text, at, key, &mut found) {
                return false;
            }
            at += 1;
        }
        true
    }

    /// Compares the literals keyed by `key` at `at`, out of the scan's loop.
    #[inline(never)]
    fn verify(&self, text: &[u8], at: usize, key: u32, found: &mut impl FnMut(u32, usize, usize) -> bool) -> bool {
        let Some(&(from, to)) = self.keys.get(&key) else { return true };
        for e in &self.entries[from as usize..to as usize] {
            let literal = &self.bytes[e.offset as usize..(e.offset + e.len) as usize];
            let Some(start) = at.checked_sub(e.skip as usize) else { continue };
            let Some(candidate) = text.get(start..start + literal.len()) else { continue };
            let same = if self.ci { candidate.eq_ignore_ascii_case(literal) } else { candidate == literal };
            if same && !found(e.pattern, start, start + literal.len()) {
                return false;
            }
        }
        true
    }

    /// Whether any literal occurs: the scan above, stopped at the first.
    pub fn is_match(&self, text: &[u8]) -> bool {
        !self.try_each_occurrence(text, |_, _, _| false)
    }

    /// Heap bytes held.
    pub fn memory_usage(&self) -> usize {
        self.filter.len() * 8
            + self.keys.capacity() * (std::mem::size_of::<(u32, (u32, u32))>() + 1)
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.bytes.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, MatchKind};

    fn numbered(literals: &[&str]) -> Vec<(String, u32)> {
        literals.iter().enumerate().map(|(i, l)| (l.to_string(), i as u32)).collect()
    }

    /// Every (pattern, start, end), sorted, from Grams and what it left over (by
    /// Aho–Corasick), against Aho–Corasick over all the literals.
    type Found = Vec<(u32, usize, usize)>;

    fn both(literals: &[(String, u32)], ci: bool, text: &[u8]) -> (Found, Found) {
        let all = |set: &[(String, u32)], out: &mut Found| {
            if set.is_empty() {
                return;
            }
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .ascii_case_insensitive(ci)
                .build(set.iter().map(|(l, _)| l.as_bytes()))
                .unwrap();
            for m in ac.find_overlapping_iter(text) {
                out.push((set[m.pattern().as_usize()].1, m.start(), m.end()));
            }
        };
        let mut expected = Vec::new();
        all(literals, &mut expected);
        // Aho–Corasick reports an empty literal twice at some positions: compare sets.
        expected.sort_unstable();
        expected.dedup();
        let (grams, rest) = match Grams::new(literals, ci) {
            Some((grams, rest)) => (Some(grams), rest),
            None => (None, literals.to_vec()),
        };
        let mut got = Vec::new();
        if let Some(g) = &grams {
            let mut last: FxHashMap<u32, usize> = FxHashMap::default();
            g.try_each_occurrence(text, |p, s, e| {
                let before = last.insert(p, s);
                assert!(before.is_none_or(|b| b < s), "each literal's occurrences in order of start");
                got.push((p, s, e));
                true
            });
            assert_eq!(g.is_match(text), !got.is_empty());
        }
        all(&rest, &mut got);
        got.sort_unstable();
        got.dedup();
        (got, expected)
    }

    #[test]
    fn finds_every_occurrence_overlapping_and_repeated() {
        let lits = numbered(&["abcd", "abcdef", "bcde", "cdefgh", "abcd", "xyz", "a"]);
        let (got, expected) = both(&lits, false, b"zabcdefghabcd");
        assert_eq!(got, expected);
        assert!(got.contains(&(4, 1, 5)), "a literal given twice is found for both patterns");
        let (_, rest) = Grams::new(&lits, false).unwrap();
        assert_eq!(rest, vec![("xyz".to_string(), 5), ("a".to_string(), 6)]);
    }

    #[test]
    fn case_insensitive_folds_ascii_letters_only() {
        let lits = numbered(&["GoogleBot", "@@@@x", "ÉTÉS"]);
        // '@' | 0x20 is '`': the filter lets "````x" through, the comparison does not.
        for text in ["a googlebot b", "GOOGLEBOT", "````x @@@@X", "étés ÉTÉS", "ÉtÉs"] {
            let (got, expected) = both(&lits, true, text.as_bytes());
            assert_eq!(got, expected, "{text:?}");
        }
        let (got, _) = both(&lits, true, b"````x");
        assert!(got.is_empty());
    }

    #[test]
    fn literals_it_cannot_bound_are_left_over() {
        let long = "q".repeat(MAX_LEN + 1);
        let mut lits: Vec<String> = vec!["abc".into(), long.clone(), "".into()];
        // Four bytes, one window: 8 keyed, 3 left over.
        lits.extend((0..MAX_PER_KEY + 3).map(|_| "wxyz".to_string()));
        // All beginning "pref": 8 keyed by it, 3 by their next window ("ref8", "ref9", "ref1").
        lits.extend((0..MAX_PER_KEY + 3).map(|i| format!("pref{i}")));
        let lits: Vec<(String, u32)> = lits.into_iter().enumerate().map(|(i, l)| (l, i as u32)).collect();
        let (grams, rest) = Grams::new(&lits, false).unwrap();
        let rest: Vec<u32> = rest.iter().map(|(_, p)| *p).collect();
        assert_eq!(rest, vec![0, 1, 2, 3 + 8, 3 + 9, 3 + 10]);
        assert_eq!(grams.entries.len(), 2 * MAX_PER_KEY + 3);
        assert_eq!(grams.entries.iter().filter(|e| e.skip == 1).count(), 3);
        let text = format!("{long}pref9 pref0 pref10abc wxyzwxyz");
        let (got, expected) = both(&lits, false, text.as_bytes());
        assert_eq!(got, expected);
        assert!(got.iter().any(|&(p, _, _)| p == 14 + 10), "pref10, keyed by its second window, is found");
        assert!(Grams::new(&numbered(&["ab", "xyz"]), false).is_none());
    }

    #[test]
    fn texts_at_and_around_the_key_length() {
        let lits = numbered(&["abcd", "abcde", "bcd\u{e9}"]);
        for text in ["", "a", "abc", "abcd", "abcde", "xabcd", "bcd\u{e9}", "bcd\u{c3}"] {
            let (got, expected) = both(&lits, false, text.as_bytes());
            assert_eq!(got, expected, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_aho_corasick(
            lits in proptest::collection::vec("[abAB@`]{0,7}", 1..40),
            text in "[abAB@`c]{0,80}",
            ci in proptest::bool::ANY,
        ) {
            let lits: Vec<(String, u32)> = lits.into_iter().enumerate().map(|(i, l)| (l, i as u32)).collect();
            let (got, expected) = both(&lits, ci, text.as_bytes());
            proptest::prop_assert_eq!(got, expected);
        }

        /// Few distinct windows: keys fill, literals are keyed by later windows or left over.
        #[test]
        fn agrees_with_aho_corasick_when_keys_fill(
            lits in proptest::collection::vec("[aAb]{3,9}", 1..60),
            text in "[aAbc]{0,80}",
            ci in proptest::bool::ANY,
        ) {
            let lits: Vec<(String, u32)> = lits.into_iter().enumerate().map(|(i, l)| (l, i as u32)).collect();
            let (got, expected) = both(&lits, ci, text.as_bytes());
            proptest::prop_assert_eq!(got, expected);
        }
    }
}
