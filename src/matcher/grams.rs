//! Substring literals found by four of their bytes, for sets where Aho–Corasick's
//! prefilters (which need few literals, or bytes the text seldom holds) do not help.
//!
//! An Aho–Corasick DFA walks the text one byte at a time, each step a load that depends on
//! the one before; for hundreds of literals its table outgrows the L1 cache and each step
//! waits on the L2 (`examples/profile_matcher`, 1500 random literals). Here each
//! position of the text is looked at on its own: its four bytes, hashed, pick one bit of a
//! small filter (a few KiB, in L1), and the loads of neighbouring positions overlap. Only
//! where the bit is set are the literals keyed by those four bytes compared. Each position
//! costs a few instructions, whatever the set's size, as long as the filter stays sparse;
//! `Grams::new` takes only literals that keep the work per position bounded.
//!
//! Literals of at least `KEY + s − 1` bytes let only every `s`-th position be looked at
//! (`s`, the stride, up to `MAX_STRIDE`): each literal is keyed by `s` windows in a row,
//! and wherever it occurs one of them starts at a position looked at: on random literals about
//! twice as fast as looking at every position (`examples/profile_matcher.rs`, `test`).

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
/// Widest stride: a literal of `KEY + stride − 1` bytes or more is keyed by `stride`
/// windows, and a text scanned at every `stride`-th position.
pub const MAX_STRIDE: usize = 4;

pub struct Grams {
    ci: bool,
    /// Every `stride`-th position of a text is looked at; each literal is keyed by as many
    /// windows in a row, so one of them lands on a position looked at wherever it occurs.
    stride: usize,
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
    /// Takes the `(literal, pattern)` pairs it can (length `KEY..=MAX_LEN`, keys with room
    /// among the literal's windows, in the order given), and returns itself with the
    /// others. `None` when it takes none, or the set has more than `MAX_KEYS` keys: then
    /// every literal is the caller's, uncopied.
    pub fn new(literals: &[(String, u32)], ci: bool) -> Option<(Self, Vec<(String, u32)>)> {
        // The widest stride that takes every literal of `KEY..=MAX_LEN` bytes: one left over
        // (too short for the stride, or no keys with room for its windows in a row) costs
        // the caller an Aho–Corasick pass over the text, several times the scan it saves
        // (`examples/profile_matcher.rs`). A stride of 1 takes what it can.
        let unbounded = literals.iter().filter(|(l, _)| !(KEY..=MAX_LEN).contains(&l.len())).count();
        for stride in (1..=MAX_STRIDE).rev() {
            let Some((grams, rest)) = Self::with_stride(literals, ci, stride) else { continue };
            if stride == 1 || rest.len() == unbounded {
                return Some((grams, rest.into_iter().map(|i| literals[i].clone()).collect()));
            }
        }
        None
    }

    /// Itself with `stride`, and the indexes of the literals it left over.
    fn with_stride(literals: &[(String, u32)], ci: bool, stride: usize) -> Option<(Self, Vec<usize>)> {
        let fold = if ci { FOLD } else { 0 };
        let mut by_key: FxHashMap<u32, Vec<(usize, usize)>> = FxHashMap::default();
        let mut rest = Vec::new();
        // `stride` windows in a row, the first at `skip`, each key with room for them all
        // (a literal's own windows may share one).
        let fits = |by_key: &FxHashMap<u32, Vec<(usize, usize)>>, bytes: &[u8], skip: usize| {
            let keys = || (skip..skip + stride).map(|j| key_of(&bytes[j..], fold));
            keys().all(|key| {
                let own = keys().filter(|&k| k == key).count();
                by_key.get(&key).map_or(0, Vec::len) + own <= MAX_PER_KEY
            })
        };
        for (i, (literal, _)) in literals.iter().enumerate() {
            let bytes = literal.as_bytes();
            let spans = KEY + stride - 1;
            let room = if (spans..=MAX_LEN).contains(&bytes.len()) {
                (0..=bytes.len() - spans).find(|&skip| fits(&by_key, bytes, skip))
            } else {
                None
            };
            match room {
                // The last window first: where two of a literal's windows share a key, its
                // occurrences found at one position then come in order of start.
                Some(skip) => {
                    for j in (skip..skip + stride).rev() {
                        by_key.entry(key_of(&bytes[j..], fold)).or_default().push((i, j));
                    }
                }
                None => rest.push(i),
            }
            // Refused as soon as it is known: a wide stride of many literals makes several
            // times `MAX_KEYS` (100,000 8-byte literals: 400,000 keys at a stride of 4).
            if by_key.len() > MAX_KEYS {
                return None;
            }
        }
        if by_key.is_empty() {
            return None;
        }
        let bits =
            (by_key.len() * BITS_PER_KEY).next_power_of_two().trailing_zeros().clamp(MIN_FILTER_BITS, MAX_FILTER_BITS);
        let shift = 32 - bits;
        let mut filter = vec![0u64; 1 << (bits - 6)].into_boxed_slice();
        let mut keys = FxHashMap::default();
        let mut entries = Vec::new();
        let mut bytes = Vec::new();
        // Each literal's bytes once, however many windows key it: where they are, by the
        // literal's index (`NOT_YET` before they are copied).
        const NOT_YET: u32 = u32::MAX;
        let mut at = vec![NOT_YET; literals.len()];
        // In key order, so that the layout does not depend on the hash map's.
        let mut groups: Vec<(u32, Vec<(usize, usize)>)> = by_key.into_iter().collect();
        groups.sort_unstable_by_key(|(key, _)| *key);
        for (key, group) in groups {
            let h = hash(key, shift);
            filter[(h >> 6) as usize] |= 1 << (h & 63);
            let from = entries.len() as u32;
            for (i, skip) in group {
                let (literal, pattern) = &literals[i];
                if at[i] == NOT_YET {
                    at[i] = bytes.len() as u32;
                    bytes.extend_from_slice(literal.as_bytes());
                }
                let offset = at[i];
                entries.push(Entry { pattern: *pattern, offset, len: literal.len() as u32, skip: skip as u32 });
            }
            keys.insert(key, (from, entries.len() as u32));
        }
        Some((Grams { ci, stride, shift, filter, keys, entries, bytes }, rest))
    }

    /// Calls `found(pattern, start, end)` for every occurrence of every literal (each
    /// literal's in order of start), stopping (and returning false) when `found` returns false.
    pub fn try_each_occurrence(&self, text: &[u8], mut found: impl FnMut(u32, usize, usize) -> bool) -> bool {
        match self.stride {
            1 => self.scan::<1>(text, &mut found),
            2 => self.scan::<2>(text, &mut found),
            3 => self.scan::<3>(text, &mut found),
            _ => self.scan::<MAX_STRIDE>(text, &mut found),
        }
    }

    /// Looks at every `S`-th position (`S` the stride).
    #[inline(always)]
    fn scan<const S: usize>(&self, text: &[u8], found: &mut impl FnMut(u32, usize, usize) -> bool) -> bool {
        let fold = if self.ci { FOLD } else { 0 };
        let hit = |key: u32| {
            let h = hash(key, self.shift);
            self.filter[(h >> 6) as usize] & (1 << (h & 63)) != 0
        };
        // Eight bytes loaded at once hold the windows at five positions: positions 0, S, 2S…
        // below 5 of them are looked at, and the next load starts S past the last.
        let step = 5usize.div_ceil(S) * S;
        let mut at = 0;
        while let Some(eight) = text.get(at..at + 8) {
            let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            let mut k = 0;
            while k < 5 {
                let key = (x >> (8 * k)) as u32 | fold;
                if hit(key) && !self.verify(text, at + k, key, found) {
                    return false;
                }
                k += S;
            }
            at += step;
        }
        while let Some(window) = text.get(at..at + KEY) {
            let key = key_of(window, fold);
            if hit(key) && !self.verify(text, at, key, found) {
                return false;
            }
            at += S;
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

    #[test]
    fn a_stride_finds_literals_at_every_alignment() {
        // Seven bytes and longer: every fourth position is looked at, and each literal is
        // keyed by four windows. `aaaaaaa` keys its four under one, and occurs at several
        // starts that one position finds.
        let lits = numbered(&["abcdefg", "0123456789", "aaaaaaa", "xyzxyzxyz"]);
        let (grams, rest) = Grams::new(&lits, false).unwrap();
        assert_eq!((grams.stride, grams.entries.len(), rest.len()), (MAX_STRIDE, 4 * MAX_STRIDE, 0));
        for pad in 0..9 {
            for tail in ["", "!", "!!!"] {
                let filler = "-".repeat(pad);
                for lit in ["abcdefg", "0123456789", "xyzxyzxyzxyz", "aaaaaaaaaaaa", "ABCDEFG"] {
                    for ci in [false, true] {
                        let text = format!("{filler}{lit}{tail}");
                        let (got, expected) = both(&lits, ci, text.as_bytes());
                        assert_eq!(got, expected, "{text:?} ci {ci}");
                        assert_eq!(got.is_empty(), lit == "ABCDEFG" && !ci, "{text:?} ci {ci}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_set_past_the_keys_is_refused_whole() {
        let four = |n: usize| -> Vec<(String, u32)> { (0..n).map(|i| (format!("{i:04x}"), i as u32)).collect() };
        let (grams, rest) = Grams::new(&four(MAX_KEYS), false).unwrap();
        assert_eq!((grams.stride, grams.keys.len(), rest.len()), (1, MAX_KEYS, 0));
        assert!(Grams::new(&four(MAX_KEYS + 1), false).is_none());
    }

    #[test]
    fn the_stride_is_the_widest_that_leaves_nothing_over() {
        // Hexadecimal digits of scattered numbers: windows that seldom share a key.
        let hex = |i: u32, width: usize| format!("{:0width$x}", i.wrapping_mul(0x9E37_79B1) >> 4)[..width].to_string();
        let long: Vec<String> = (0..100).map(|i| hex(i, 8)).collect();
        let stride_with = |short: usize| {
            let mut lits = long.clone();
            lits.extend((0..short as u32).map(|i| hex(1000 + i, 5)));
            let lits: Vec<(String, u32)> = lits.into_iter().enumerate().map(|(i, l)| (l, i as u32)).collect();
            let (grams, rest) = Grams::new(&lits, false).unwrap();
            (grams.stride, rest.len())
        };
        // Five bytes take a stride of 2 at most; the long ones (8 bytes) one of 4.
        assert_eq!(stride_with(0), (MAX_STRIDE, 0));
        assert_eq!(stride_with(1), (2, 0));
        assert_eq!(stride_with(30), (2, 0));
    }

    /// `literals` numbered in order: both ways find the same occurrences in `text`.
    fn agree(literals: Vec<String>, ci: bool, text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let literals: Vec<(String, u32)> = literals.into_iter().zip(0..).collect();
        let (got, expected) = both(&literals, ci, text.as_bytes());
        proptest::prop_assert_eq!(got, expected);
        Ok(())
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_aho_corasick(
            lits in proptest::collection::vec("[abAB@`]{0,7}", 1..40),
            text in "[abAB@`c]{0,80}",
            ci in proptest::bool::ANY,
        ) {
            agree(lits, ci, &text)?;
        }

        /// Few distinct windows: keys fill, literals are keyed by later windows or left over.
        #[test]
        fn agrees_with_aho_corasick_when_keys_fill(
            lits in proptest::collection::vec("[aAb]{3,9}", 1..60),
            text in "[aAbc]{0,80}",
            ci in proptest::bool::ANY,
        ) {
            agree(lits, ci, &text)?;
        }

        /// Longer literals over few letters: strides up to the widest, windows that repeat.
        #[test]
        fn agrees_with_aho_corasick_at_every_stride(
            lits in proptest::collection::vec("[abA]{4,12}", 1..60),
            text in "[abAc]{0,100}",
            ci in proptest::bool::ANY,
        ) {
            agree(lits, ci, &text)?;
        }
    }
}
