//! Sets of characters as a JavaScript `RegExp` sees them, and their Rust `regex` spelling.
//!
//! Without the `u` flag a JavaScript pattern reads UTF-16 code units: `.` or `[^a]` matches
//! one half of a surrogate pair. Such a pattern runs on the "units" view of the text (every
//! astral character as two 3-byte surrogate sequences, see `units.rs`), so a set here may hold
//! surrogates (U+D800–U+DFFF), written as those byte sequences. With `u` the set is of code
//! points and a surrogate can never match well-formed text.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
use std::fmt::Write;
use std::sync::OnceLock;

/// Which characters a pattern reads, and how it folds case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseFlags {
    /// The `u` flag: code points, simple case folding.
    pub unicode: bool,
    /// The `i` flag.
    pub ignore_case: bool,
}

impl CaseFlags {
    /// The largest character the pattern can read as one.
    pub fn max(self) -> u32 {
        if self.unicode {
            0x10FFFF
        } else {
            0xFFFF
        }
    }
}

const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

/// A set of characters: sorted, disjoint, non-adjacent inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    pub fn empty() -> CharSet {
        CharSet::default()
    }

    pub fn one(c: u32) -> CharSet {
        CharSet { ranges: vec![(c, c)] }
    }

    pub fn from_ranges(ranges: impl IntoIterator<Item = (u32, u32)>) -> CharSet {
        let mut ranges: Vec<(u32, u32)> = ranges.into_iter().collect();
        ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        CharSet { ranges: out }
    }

    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn contains(&self, c: u32) -> bool {
        self.ranges
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    pub fn union(&self, other: &CharSet) -> CharSet {
        CharSet::from_ranges(self.ranges.iter().chain(&other.ranges).copied())
    }

    /// Everything up to `max` that is not in the set.
    pub fn complement(&self, max: u32) -> CharSet {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > max {
                break;
            }
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
        }
        if next <= max {
            out.push((next, max));
        }
        CharSet { ranges: out }
    }

    pub fn intersect(&self, other: &CharSet) -> CharSet {
        let max = 0x10FFFF;
        self.complement(max).union(&other.complement(max)).complement(max)
    }

    pub fn minus(&self, other: &CharSet) -> CharSet {
        self.intersect(&other.complement(0x10FFFF))
    }

    pub fn has_surrogates(&self) -> bool {
        !self.intersect(&CharSet::from_ranges([SURROGATES])).is_empty()
    }

    /// The set and every character JavaScript's `i` flag takes as the same: with `u`, simple
    /// case folding; without, `toUpperCase` unless it maps a non-ASCII character to ASCII.
    pub fn case_closure(&self, mode: CaseFlags) -> CharSet {
        if mode.unicode {
            let mut class = ClassUnicode::new(self.chars().map(|(lo, hi)| ClassUnicodeRange::new(lo, hi)));
            class.case_fold_simple();
            self.union(&CharSet::from_ranges(class.ranges().iter().map(|r| (r.start() as u32, r.end() as u32))))
        } else {
            let mut extra = Vec::new();
            for fibre in non_unicode_fibres() {
                if fibre.iter().any(|&c| self.contains(c as u32)) {
                    extra.extend(fibre.iter().map(|&c| (c as u32, c as u32)));
                }
            }
            self.union(&CharSet::from_ranges(extra))
        }
    }

    /// The ranges that are characters (surrogates left out), as `char`s.
    fn chars(&self) -> impl Iterator<Item = (char, char)> + '_ {
        self.ranges.iter().flat_map(|&(lo, hi)| {
            let below = (lo < SURROGATES.0).then(|| (lo, hi.min(SURROGATES.0 - 1)));
            let above = (hi > SURROGATES.1).then(|| (lo.max(SURROGATES.1 + 1), hi));
            below.into_iter().chain(above).filter_map(|(a, b)| Some((char::from_u32(a)?, char::from_u32(b)?)))
        })
    }

    /// The set in Rust `regex` syntax (bytes mode, so surrogates can be spelled). `units`:
    /// surrogates are written as the units view spells them; otherwise they are left out
    /// (no well-formed text holds one).
    pub fn to_regex(&self, units: bool) -> String {
        let mut class = String::new();
        for (lo, hi) in self.chars() {
            if lo == hi {
                write!(class, "\\x{{{:X}}}", lo as u32).unwrap();
            } else {
                write!(class, "\\x{{{:X}}}-\\x{{{:X}}}", lo as u32, hi as u32).unwrap();
            }
        }
        let mut alternatives = Vec::new();
        if !class.is_empty() {
            alternatives.push(format!("[{class}]"));
        }
        if units {
            let s = self.intersect(&CharSet::from_ranges([SURROGATES]));
            for &(lo, hi) in s.ranges() {
                surrogate_bytes(lo, hi, &mut alternatives);
            }
        }
        match alternatives.len() {
            // An empty class: it never matches.
            0 => r"[^\x00-\x{10FFFF}]".to_string(),
            1 => alternatives.pop().unwrap_or_default(),
            _ => format!("(?:{})", alternatives.join("|")),
        }
    }
}

/// Surrogates `lo..=hi` as the byte sequences of the units view (`ED A0–BF 80–BF`): whole
/// blocks of 64 (one second byte) as one byte range.
fn surrogate_bytes(lo: u32, hi: u32, out: &mut Vec<String>) {
    let second = |u: u32| 0x80 | ((u >> 6) & 0x3F);
    let third = |u: u32| 0x80 | (u & 0x3F);
    let mut u = lo;
    while u <= hi {
        if u & 0x3F == 0 && hi - u >= 0x3F {
            let last_full = ((hi + 1) & !0x3F) - 1;
            out.push(format!(r"(?-u:\xED[\x{:02X}-\x{:02X}][\x80-\xBF])", second(u), second(last_full)));
            u = last_full + 1;
            continue;
        }
        let block_end = (u | 0x3F).min(hi);
        out.push(format!(r"(?-u:\xED\x{:02X}[\x{:02X}-\x{:02X}])", second(u), third(u), third(block_end)));
        u = block_end + 1;
    }
}

/// The sets of BMP characters that JavaScript's `i` flag without `u` takes as one (those of
/// two or more): characters whose `Canonicalize` is the same.
fn non_unicode_fibres() -> &'static [Vec<u16>] {
    static FIBRES: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    FIBRES.get_or_init(|| {
        let mut by_canon: rustc_hash::FxHashMap<u32, Vec<u16>> = rustc_hash::FxHashMap::default();
        for u in 0..=0xFFFFu32 {
            if let Some(c) = char::from_u32(u) {
                by_canon.entry(canonicalize(c)).or_default().push(u as u16);
            }
        }
        let mut fibres: Vec<Vec<u16>> = by_canon.into_values().filter(|m| m.len() > 1).collect();
        fibres.sort_unstable();
        fibres
    })
}

/// ECMAScript's `Canonicalize` without `u`: the upper case when it is one code unit, and not
/// a non-ASCII character turned ASCII.
fn canonicalize(c: char) -> u32 {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) if (u as u32) <= 0xFFFF && !((c as u32) >= 128 && (u as u32) < 128) => u as u32,
        _ => c as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NON_U: CaseFlags = CaseFlags { unicode: false, ignore_case: true };
    const U: CaseFlags = CaseFlags { unicode: true, ignore_case: true };

    #[test]
    fn sets_union_and_complement() {
        let a = CharSet::from_ranges([(5, 9), (1, 3), (4, 4)]);
        assert_eq!(a.ranges(), &[(1, 9)]);
        assert_eq!(a.complement(20).ranges(), &[(0, 0), (10, 20)]);
        assert_eq!(a.intersect(&CharSet::from_ranges([(8, 12)])).ranges(), &[(8, 9)]);
        assert!(a.contains(9) && !a.contains(10));
    }

    #[test]
    fn without_u_the_long_s_and_kelvin_sign_stay_apart_from_ascii() {
        let s = CharSet::one('s' as u32).case_closure(NON_U);
        assert_eq!(s.ranges(), &[('S' as u32, 'S' as u32), ('s' as u32, 's' as u32)]);
        let k = CharSet::one('k' as u32).case_closure(NON_U);
        assert!(!k.contains(0x212A));
        let sigma = CharSet::one('σ' as u32).case_closure(NON_U);
        assert!(sigma.contains('Σ' as u32) && sigma.contains('ς' as u32));
    }

    #[test]
    fn with_u_simple_case_folding_joins_them() {
        let k = CharSet::one('k' as u32).case_closure(U);
        assert!(k.contains(0x212A) && k.contains('K' as u32));
    }

    #[test]
    fn surrogates_are_spelled_as_units_or_left_out() {
        let s = CharSet::from_ranges([(0xD83D, 0xD83D)]);
        assert_eq!(s.to_regex(true), r"(?-u:\xED\xA0[\xBD-\xBD])");
        assert_eq!(s.to_regex(false), r"[^\x00-\x{10FFFF}]");
        let both = CharSet::from_ranges([(0x61, 0x61), (0xDC00, 0xDC40)]);
        assert_eq!(both.to_regex(true), r"(?:[\x{61}]|(?-u:\xED[\xB0-\xB0][\x80-\xBF])|(?-u:\xED\xB1[\x80-\x80]))");
        let all = CharSet::from_ranges([(0xD800, 0xDFFF)]);
        assert_eq!(all.to_regex(true), r"(?-u:\xED[\xA0-\xBF][\x80-\xBF])");
    }
}
