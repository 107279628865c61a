//! The patterns that need an automaton, in one `regex::bytes::RegexSet`.
//!
//! Limits are set on purpose. With the crate's defaults, a set of 1500 real crawler
//! patterns fills its lazy DFA cache over and over and falls back to a slower engine
//! (100–1000× slower, measured in `bench/`); `DFA_CACHE` is sized for sets of that order.
//! `SET_SIZE` bounds what a caller's patterns may compile to; when a set goes over it, the
//! pattern that alone goes over `PATTERN_SIZE` is named by its index.

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};
use std::sync::OnceLock;

/// Compiled size one pattern may reach.
pub const PATTERN_SIZE: usize = 4 << 20;
/// Compiled size the whole set may reach.
pub const SET_SIZE: usize = 64 << 20;
/// Lazy DFA cache per thread that uses the set.
pub const DFA_CACHE: usize = 32 << 20;

/// A compile failure: the offending pattern's index when it is one pattern's fault.
#[derive(Debug)]
pub struct CompileError {
    pub pattern: Option<u32>,
    pub message: String,
}

pub struct RegexGroup {
    set: RegexSet,
    /// Pattern index of each set member, and its source for `findAll`.
    members: Vec<(u32, String)>,
    singles: Vec<OnceLock<Option<Regex>>>,
}

fn single(source: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(source).size_limit(PATTERN_SIZE).dfa_size_limit(DFA_CACHE / 8).build()
}

impl RegexGroup {
    /// Compiles `members` (source, pattern index); `Ok(None)` when there are none.
    pub fn new(members: Vec<(String, u32)>) -> Result<Option<Self>, CompileError> {
        if members.is_empty() {
            return Ok(None);
        }
        // The budget grows with the members, so one hostile pattern fails at its own budget,
        // in tens of milliseconds, instead of filling the whole set's.
        let budget = SET_SIZE.min(PATTERN_SIZE.saturating_mul(members.len()));
        let built = RegexSetBuilder::new(members.iter().map(|(s, _)| s.as_str()))
            .size_limit(budget)
            .dfa_size_limit(DFA_CACHE)
            .build();
        let set = match built {
            Ok(set) => set,
            Err(e) => {
                // Name the pattern at fault when one alone fails; else the set is too big.
                for (source, index) in &members {
                    if let Err(single_error) = single(source) {
                        return Err(CompileError { pattern: Some(*index), message: single_error.to_string() });
                    }
                }
                return Err(CompileError { pattern: None, message: e.to_string() });
            }
        };
        let singles = members.iter().map(|_| OnceLock::new()).collect();
        Ok(Some(Self { set, members: members.into_iter().map(|(s, i)| (i, s)).collect(), singles }))
    }

    /// Whether any member matches. Cost: one pass, stopping at the first match.
    pub fn is_match(&self, text: &[u8]) -> bool {
        self.set.is_match(text)
    }

    /// Calls `found(pattern)` for every member that matches. Cost: one full pass.
    pub fn each_match(&self, text: &[u8], mut found: impl FnMut(u32)) {
        for i in self.set.matches(text).iter() {
            found(self.members[i].0);
        }
    }

    /// The lowest pattern index below `below` whose regex matches: a cheap `is_match` on the
    /// whole set first, then members one by one in index order, stopping at the first hit.
    pub fn first_below(&self, text: &[u8], below: u32) -> Option<u32> {
        if self.members.first().is_none_or(|m| m.0 >= below) || !self.set.is_match(text) {
            return None;
        }
        for (i, (pattern, source)) in self.members.iter().enumerate() {
            if *pattern >= below {
                break;
            }
            if self.singles[i].get_or_init(|| single(source).ok()).as_ref().is_some_and(|re| re.is_match(text)) {
                return Some(*pattern);
            }
        }
        None
    }

    /// Every non-overlapping match of every member that matches, as (pattern, start, end).
    pub fn spans(&self, text: &[u8], out: &mut Vec<(u32, usize, usize)>) {
        for i in self.set.matches(text).iter() {
            let (pattern, source) = &self.members[i];
            if let Some(re) = self.singles[i].get_or_init(|| single(source).ok()) {
                out.extend(re.find_iter(text).map(|m| (*pattern, m.start(), m.end())));
            }
        }
    }
}
