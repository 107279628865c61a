//! The patterns that need an automaton, in one multi-pattern regex (`regex-automata`'s meta
//! engine, the one behind `regex::bytes::RegexSet`), plus one compiled regex per member for
//! the methods that need positions (`first`, `findAll`).
//!
//! One budget rule, checked at construction: every member must compile alone within
//! `PATTERN_SIZE`, and the whole set within `SET_SIZE`. Members are compiled alone there and
//! then, so a pattern the set accepts is one every method can run: `test`, `first`,
//! `matches` and `findAll` always agree, or the constructor refuses.
//!
//! The set's lazy DFA cache may grow to `DFA_CACHE` per thread: with the crate's default
//! (2 MiB), a set of crawler patterns fills it over and over on varied text and runs slower
//! (measured in `bench/`), while a one-pattern matcher needs little (`SINGLE_CACHE`).

use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternSet};

/// Compiled size one pattern may reach (its NFA). Past it, refusal takes tens of ms.
pub const PATTERN_SIZE: usize = 4 << 20;
/// Compiled size the whole set may reach.
pub const SET_SIZE: usize = 32 << 20;
/// Lazy DFA cache of a set, at its most, per thread that uses it.
pub const DFA_CACHE: usize = 32 << 20;
/// Lazy DFA cache of one member's own regex, per thread that uses it.
const SINGLE_CACHE: usize = 1 << 20;

/// A compile failure: the offending pattern's index when it is one pattern's fault.
#[derive(Debug)]
pub struct CompileError {
    pub pattern: Option<u32>,
    pub message: String,
}

pub struct RegexGroup {
    /// The members together; `None` for one member, whose own regex answers for the set.
    set: Option<Regex>,
    /// Pattern index of each set member.
    patterns: Vec<u32>,
    /// Each member alone, for positions.
    singles: Vec<Regex>,
}

/// What a set's lazy DFA cache is counted as in `memory_usage`: it grows only as matching
/// visits new states, up to `DFA_CACHE` per thread that matches with the set. A capacity
/// sized to the member count instead (2 MiB for the crawler list's 23 regexes) made
/// `scanLines` over 60 MiB of varied log lines up to 1.7× slower: the cache thrashed.
const SET_CACHE_TYPICAL: usize = 2 << 20;

/// Byte-oriented syntax (a pattern may match invalid UTF-8), as `regex::bytes` reads it.
fn syntax_config() -> syntax::Config {
    syntax::Config::new().utf8(false)
}

/// One member alone; the error is already in words (`BuildError` is large to pass around).
fn single(source: &str) -> Result<Regex, String> {
    let config = Regex::config()
        .match_kind(MatchKind::LeftmostFirst)
        .utf8_empty(false)
        .nfa_size_limit(Some(PATTERN_SIZE))
        .onepass_size_limit(Some(PATTERN_SIZE))
        .hybrid_cache_capacity(SINGLE_CACHE);
    Regex::builder().configure(config).syntax(syntax_config()).build(source).map_err(|e| message(&e))
}

impl RegexGroup {
    /// Compiles `members` (source, pattern index); `Ok(None)` when there are none.
    /// Cost: each member compiled alone, then the set; refused at the first member over
    /// `PATTERN_SIZE` or when the set goes over `SET_SIZE`.
    pub fn new(members: Vec<(String, u32)>) -> Result<Option<Self>, CompileError> {
        if members.is_empty() {
            return Ok(None);
        }
        // The members alone hold at least what the set will: their sum is checked against
        // the set's budget as they compile, so a list of many large members is refused after
        // at most `SET_SIZE` of compiling, not after all of it.
        let mut singles = Vec::new();
        let mut total = 0usize;
        for (source, index) in &members {
            let re = single(source).map_err(|message| CompileError { pattern: Some(*index), message })?;
            total += re.memory_usage();
            if total > SET_SIZE {
                return Err(CompileError {
                    pattern: None,
                    message: format!("it compiles to more than the {} MiB budget", SET_SIZE >> 20),
                });
            }
            singles.push(re);
        }
        let patterns = members.iter().map(|(_, i)| *i).collect();
        if members.len() == 1 {
            return Ok(Some(Self { set: None, patterns, singles }));
        }
        let config = Regex::config()
            .match_kind(MatchKind::All)
            .utf8_empty(false)
            .which_captures(regex_automata::nfa::thompson::WhichCaptures::None)
            .nfa_size_limit(Some(SET_SIZE))
            .onepass_size_limit(Some(SET_SIZE))
            .hybrid_cache_capacity(DFA_CACHE);
        let set = Regex::builder()
            .configure(config)
            .syntax(syntax_config())
            .build_many(&members.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>())
            .map_err(|e| CompileError { pattern: None, message: message(&e) })?;
        Ok(Some(Self { set: Some(set), patterns, singles }))
    }

    /// Heap bytes held by the compiled automata, plus one thread's lazy DFA caches: each
    /// member's at its most, the set's as it typically is (`SET_CACHE_TYPICAL`). What the
    /// `isMatch` cache counts and `napi_adjust_external_memory` reports to V8.
    pub fn memory_usage(&self) -> usize {
        let singles: usize = self.singles.iter().map(|r| r.memory_usage() + SINGLE_CACHE).sum();
        let set = self.set.as_ref().map_or(0, |set| set.memory_usage() + SET_CACHE_TYPICAL);
        set + singles
    }

    /// Whether any member matches. Cost: one pass, stopping at the first match.
    pub fn is_match(&self, text: &[u8]) -> bool {
        match &self.set {
            Some(set) => set.is_match(text),
            None => self.singles[0].is_match(text),
        }
    }

    /// The set members that match, by position in the set. Cost: one full pass.
    fn matching(&self, text: &[u8]) -> PatternSet {
        let mut hits = PatternSet::new(self.patterns.len());
        match &self.set {
            Some(set) => set.which_overlapping_matches(&Input::new(text), &mut hits),
            None if self.singles[0].is_match(text) => {
                hits.insert(regex_automata::PatternID::ZERO);
            }
            None => {}
        }
        hits
    }

    /// Calls `found(pattern)` for every member that matches. Cost: one full pass.
    pub fn each_match(&self, text: &[u8], mut found: impl FnMut(u32)) {
        for id in self.matching(text).iter() {
            found(self.patterns[id.as_usize()]);
        }
    }

    /// The lowest pattern index below `below` whose regex matches: a cheap `is_match` on the
    /// whole set first, then members one by one in index order, stopping at the first hit.
    pub fn first_below(&self, text: &[u8], below: u32) -> Option<u32> {
        if self.patterns.first().is_none_or(|&p| p >= below) || !self.is_match(text) {
            return None;
        }
        self.patterns
            .iter()
            .zip(&self.singles)
            .take_while(|(&p, _)| p < below)
            .find(|(_, re)| re.is_match(text))
            .map(|(&p, _)| p)
    }

    /// Non-overlapping matches of every member that matches, as (pattern, start, end), into
    /// `out`; stops once `out` holds more than `limit`, returning false.
    pub fn spans(&self, text: &[u8], out: &mut Vec<(u32, usize, usize)>, limit: usize) -> bool {
        for id in self.matching(text).iter() {
            let pattern = self.patterns[id.as_usize()];
            for m in self.singles[id.as_usize()].find_iter(text) {
                if out.len() >= limit {
                    return false;
                }
                out.push((pattern, m.start(), m.end()));
            }
        }
        true
    }
}

/// The build error in words a caller can act on.
fn message(e: &meta::BuildError) -> String {
    match e.size_limit() {
        Some(limit) => format!("it compiles to more than the {} MiB budget", limit >> 20),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(sources: &[&str]) -> Result<Option<RegexGroup>, CompileError> {
        RegexGroup::new(sources.iter().enumerate().map(|(i, s)| (s.to_string(), i as u32)).collect())
    }

    #[test]
    fn a_pattern_refused_alone_is_refused_in_a_set() {
        let big = r"\w{300}\w{300}";
        assert!(single(big).is_err());
        let err = group(&["a", "b", big, "c"]).err().unwrap();
        assert_eq!(err.pattern, Some(2));
    }

    #[test]
    fn a_set_over_its_budget_is_refused_without_a_pattern_at_fault() {
        // Each member fits alone; together they go over the set's budget.
        let member = r"\w{30}";
        assert!(single(member).is_ok());
        let many: Vec<&str> = vec![member; 400];
        let err = group(&many).err().unwrap();
        assert_eq!(err.pattern, None);
        assert!(err.message.contains("MiB budget"), "{}", err.message);
    }

    #[test]
    fn every_method_agrees_on_what_matches() {
        let g = group(&["b+", "x", "a.c"]).unwrap().unwrap();
        assert!(g.is_match(b"abb abc"));
        let mut found = Vec::new();
        g.each_match(b"abb abc", |p| found.push(p));
        assert_eq!(found, vec![0, 2]);
        assert_eq!(g.first_below(b"abb abc", u32::MAX), Some(0));
        assert_eq!(g.first_below(b"abb abc", 0), None);
        let mut out = Vec::new();
        assert!(g.spans(b"abb abc", &mut out, 10));
        assert_eq!(out, vec![(0, 1, 3), (0, 5, 6), (2, 4, 7)]);
    }

    #[test]
    fn spans_stop_at_the_limit() {
        let g = group(&["a"]).unwrap().unwrap();
        let mut out = Vec::new();
        assert!(!g.spans(&[b'a'; 1000], &mut out, 10));
        assert_eq!(out.len(), 10);
    }
}
