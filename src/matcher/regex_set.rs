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

use super::any::Any;
use super::js_regex::Spans;
use super::regex_config::{
    message, nfa_limit, parse, set_config, syntax_config, CompileError, DFA_CACHE, PATTERN_SIZE, SET_CACHE_TYPICAL,
    SET_SIZE,
};
use super::resetting_regex::{CachePool, ResettingRegex};
use regex_automata::hybrid;
use regex_automata::meta::Regex;
use regex_automata::nfa::thompson;
use regex_automata::util::pool::Pool;
use regex_automata::{Anchored, Input, MatchKind, PatternSet};
use regex_syntax::hir::Hir;

/// One pattern for the group.
pub struct Member {
    /// Rust syntax: where it matches (with look-around rewritten, see `js_regex`).
    pub source: String,
    /// The pattern's index in the matcher.
    pub index: u32,
    /// Look-around: how to find JS's spans instead of the source's own.
    pub spans: Option<Spans>,
}

/// A look-around pattern's span finder, compiled (see `js_regex::Spans`).
///
/// Linear in the text: one reverse pass per alternative marks every position where its
/// body can start a match (a lazy DFA of the reversed body, every match kept), so a start
/// is tried only where some alternative both starts a match and has its look-behind hold;
/// the anchored search there then always succeeds, and the next search starts at its end.
pub struct LookSpans {
    branches: Vec<LookBranch>,
}

/// A lazy DFA that marks, in one pass over a text, every position where a match of its
/// pattern ends (forward) or starts (reversed NFA, walked backwards); its caches keep their
/// states between calls (one made per call built them all again on every `findAll`).
struct Marker {
    dfa: hybrid::dfa::DFA,
    caches: CachePool<hybrid::dfa::Cache>,
    reverse: bool,
    /// Passes made, for the tests.
    #[cfg(test)]
    passes: std::sync::atomic::AtomicUsize,
}

impl Marker {
    fn new(source: &str, reverse: bool) -> Result<Marker, String> {
        let dfa = hybrid::dfa::DFA::builder()
            .configure(hybrid::dfa::DFA::config().match_kind(MatchKind::All).cache_capacity(SINGLE_CACHE))
            .thompson(
                thompson::Config::new()
                    .reverse(reverse)
                    .which_captures(thompson::WhichCaptures::None)
                    .nfa_size_limit(Some(nfa_limit(PATTERN_SIZE))),
            )
            .syntax(syntax_config())
            .build(source)
            .map_err(|e| e.to_string())?;
        let caches: CachePool<hybrid::dfa::Cache> = {
            let dfa = dfa.clone();
            Pool::new(Box::new(move || dfa.create_cache()))
        };
        Ok(Marker {
            dfa,
            caches,
            reverse,
            #[cfg(test)]
            passes: Default::default(),
        })
    }

    /// Bit `i` set: a match starts (reverse) or ends (forward) at byte `i` (`0..=text.len()`);
    /// `None` if the lazy DFA gave up (it does not with these settings).
    fn mark(&self, text: &[u8]) -> Option<Vec<u64>> {
        #[cfg(test)]
        self.passes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut marks = vec![0u64; text.len() / 64 + 1];
        let set = |marks: &mut Vec<u64>, i: usize| marks[i / 64] |= 1 << (i % 64);
        let mut cache = self.caches.get();
        let input = Input::new(text);
        let dfa = &self.dfa;
        // Match states come one byte late: after the byte at `at`, a match state says a
        // match starts after `at` (reverse) or ends before it (forward).
        if self.reverse {
            let mut sid = dfa.start_state_reverse(&mut cache, &input).ok()?;
            for at in (0..text.len()).rev() {
                sid = dfa.next_state(&mut cache, sid, text[at]).ok()?;
                if sid.is_match() {
                    set(&mut marks, at + 1);
                }
            }
            if dfa.next_eoi_state(&mut cache, sid).ok()?.is_match() {
                set(&mut marks, 0);
            }
        } else {
            let mut sid = dfa.start_state_forward(&mut cache, &input).ok()?;
            for (at, &byte) in text.iter().enumerate() {
                sid = dfa.next_state(&mut cache, sid, byte).ok()?;
                if sid.is_match() {
                    set(&mut marks, at);
                }
            }
            if dfa.next_eoi_state(&mut cache, sid).ok()?.is_match() {
                set(&mut marks, text.len());
            }
        }
        Some(marks)
    }

    fn memory_usage(&self) -> usize {
        self.dfa.memory_usage() + SINGLE_CACHE
    }
}

fn marked(marks: &[u64], at: usize) -> bool {
    marks[at / 64] & (1 << (at % 64)) != 0
}

struct LookBranch {
    /// The look-behind: its check run at one position, its marker of every position where
    /// it holds (one pass; the check is the way should the marker ever fail), whether it is
    /// negative, and the bytes it looks back.
    behind: Option<LookBehind>,
    /// Where a match of the body can start, marked in one reverse pass.
    starts: Marker,
    /// The body, with the span as group 1.
    body: ResettingRegex,
}

struct LookBehind {
    check: ResettingRegex,
    ends: Marker,
    negative: bool,
    reach: usize,
}

impl LookBehind {
    /// Whether the look-behind holds at `at`, given the positions marked where its body ends.
    fn holds(&self, text: &[u8], at: usize, ends: Option<&[u64]>) -> bool {
        let found = match ends {
            Some(ends) => marked(ends, at),
            None => self.check.is_match(&Input::new(&text[..at]).range(at.saturating_sub(self.reach)..)),
        };
        found != self.negative
    }
}

impl LookSpans {
    pub fn new(spans: &Spans) -> Result<LookSpans, String> {
        let mut branches = Vec::new();
        for b in &spans.branches {
            let behind = match &b.behind {
                Some(behind) => Some(LookBehind {
                    check: single(&behind.check)?,
                    ends: Marker::new(&behind.ends, false)?,
                    negative: behind.negative,
                    reach: behind.reach,
                }),
                None => None,
            };
            branches.push(LookBranch { behind, starts: Marker::new(&b.body, true)?, body: single(&b.body)? });
        }
        Ok(LookSpans { branches })
    }

    pub fn memory_usage(&self) -> usize {
        self.branches
            .iter()
            .map(|b| {
                b.behind.as_ref().map_or(0, |c| c.check.regex().memory_usage() + SINGLE_CACHE + c.ends.memory_usage())
                    + b.body.regex().memory_usage()
                    + SINGLE_CACHE
                    + b.starts.memory_usage()
            })
            .sum()
    }

    /// Where each branch can start and where its look-behind holds, for `text`: one pass a
    /// branch (two with a look-behind), made once a text and read by `next_start`.
    pub fn marks(&self, text: &[u8]) -> LookMarks {
        // Where each branch's body can start (all positions, should the marker fail), and,
        // for a branch that can start somewhere, where its look-behind's body ends: a branch
        // with no start is never tried, and its look-behind needs no pass of its own.
        let starts: Vec<Option<Vec<u64>>> = self.branches.iter().map(|b| b.starts.mark(text)).collect();
        let ends: Vec<Option<Vec<u64>>> = (self.branches.iter().zip(&starts))
            .map(|(b, starts)| {
                let tried = starts.as_ref().is_none_or(|marks| marks.iter().any(|&w| w != 0));
                b.behind.as_ref().filter(|_| tried).and_then(|behind| behind.ends.mark(text))
            })
            .collect();
        LookMarks { starts, ends }
    }

    /// The first position at or after `from` where a match starts, with the branch that
    /// matches there (the first in order whose body can start there and whose look-behind
    /// holds: its anchored search then succeeds). Cost: the positions passed over.
    pub fn next_start(&self, text: &[u8], marks: &LookMarks, from: usize) -> Option<(usize, usize)> {
        // Positions without a start mark in any branch are skipped a word at a time.
        let all_marked = marks.starts.iter().all(Option::is_some);
        let mut at = from;
        while at <= text.len() {
            if all_marked {
                let word = at / 64;
                let any = marks.starts.iter().flatten().fold(0u64, |acc, m| acc | m[word]) >> (at % 64);
                if any == 0 {
                    at = (word + 1) * 64;
                    continue;
                }
                at += any.trailing_zeros() as usize;
                if at > text.len() {
                    break;
                }
            }
            // A match starts at a character, never inside one (an ASCII `\B` holds between
            // the two bytes of é). (The units view's surrogates are characters of their own.)
            if text.get(at).is_some_and(|&b| b & 0xC0 == 0x80) {
                at += 1;
                continue;
            }
            for (i, branch) in self.branches.iter().enumerate() {
                let can_start = marks.starts[i].as_deref().is_none_or(|m| marked(m, at));
                if can_start && branch.behind.as_ref().is_none_or(|b| b.holds(text, at, marks.ends[i].as_deref())) {
                    return Some((at, i));
                }
            }
            at += 1;
        }
        None
    }

    /// The span JS reports for `branch` matching at `at` (its group 1).
    pub fn span_at(&self, text: &[u8], at: usize, branch: usize) -> Option<(usize, usize)> {
        let body = &self.branches[branch].body;
        let mut caps = body.regex().create_captures();
        body.search_captures(&Input::new(text).range(at..).anchored(Anchored::Yes), &mut caps);
        caps.get_group(1).map(|span| (span.start, span.end))
    }

    /// Non-overlapping matches as JS's `matchAll` finds them, into `out` as (pattern,
    /// start, end); false once `out` would hold more than `limit`.
    fn spans(&self, text: &[u8], pattern: u32, out: &mut Vec<(u32, usize, usize)>, limit: usize) -> bool {
        let marks = self.marks(text);
        let next_char =
            |at: usize| at + text[at..].iter().skip(1).position(|&b| (b & 0xC0) != 0x80).map_or(1, |k| k + 1);
        let mut from = 0;
        while let Some((at, branch)) = self.next_start(text, &marks, from) {
            let Some((start, end)) = self.span_at(text, at, branch) else {
                from = at + 1;
                continue;
            };
            if out.len() >= limit {
                return false;
            }
            out.push((pattern, start, end));
            // As `matchAll` goes on: from the match's end, one character on past an empty one.
            from = if end > start { end } else { next_char(end) };
        }
        true
    }
}

/// Per text, where a look-around pattern's branches can start and where their look-behinds
/// hold (`None`: the marker gave up; every position is then tried).
pub struct LookMarks {
    starts: Vec<Option<Vec<u64>>>,
    ends: Vec<Option<Vec<u64>>>,
}

/// Lazy DFA cache of one member's own regex, per thread that uses it.
const SINGLE_CACHE: usize = 1 << 20;

pub struct RegexGroup {
    /// The members together; `None` for one member, whose own regex answers for the set.
    set: Option<ResettingRegex>,
    /// The members together again, leftmost-first, for "does any match": an `All` automaton
    /// (`set`) keeps every member's threads alive past a match, a leftmost-first one drops
    /// the threads a match outranks: faster on the crawler list's browser agents and random
    /// strings (`profile_matcher`, `WARM=1`), unchanged on isbot's.
    any: Option<Any>,
    /// Pattern index of each set member.
    patterns: Vec<u32>,
    /// Each member alone, for positions.
    singles: Vec<ResettingRegex>,
    /// For each member, its look-around span finder when it has one.
    looks: Vec<Option<LookSpans>>,
    /// For each member, whether it may match the empty string inside a character (`split`).
    splits: Vec<bool>,
}

/// Whether the member `source` may match the empty string inside a character: it can match
/// the empty string, and holds an assertion that a position between two bytes of é meets
/// (`\B`: both bytes are non-word; a half word boundary). A string has no such position: for
/// such a member, an empty match there is no match (see `splits_char`), and the automata
/// that cannot tell (`Any`, the set) are asked only what the member alone confirms.
fn may_split(source: &str) -> bool {
    use regex_syntax::hir::Look;
    if !source.contains("\\B") && !source.contains("\\b{") {
        return false;
    }
    // (Parsed as the member compiles; should it not parse, it is taken to split.)
    let Some(hir) = super::regex_config::parse(&[source]).ok().and_then(|mut h| h.pop()) else {
        return true;
    };
    let looks = hir.properties().look_set();
    hir.properties().minimum_len() == Some(0)
        && [
            Look::WordAsciiNegate,
            Look::WordUnicodeNegate,
            Look::WordStartHalfAscii,
            Look::WordEndHalfAscii,
            Look::WordStartHalfUnicode,
            Look::WordEndHalfUnicode,
        ]
        .into_iter()
        .any(|look| looks.contains(look))
}

/// Whether `at` is strictly inside a character of `text`: after the first byte of a whole
/// UTF-8 sequence, before its end. (A stray continuation byte is no character: the positions
/// around it are real ones, as for the `regex` crate.)
pub fn splits_char(text: &[u8], at: usize) -> bool {
    if text.get(at).is_none_or(|&b| b & 0xC0 != 0x80) {
        return false;
    }
    for back in 1..=3.min(at) {
        let lead = text[at - back];
        if lead & 0xC0 == 0x80 {
            continue;
        }
        let len = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return false,
        };
        // The sequence's bytes all there (a surrogate of the units view, ED A0–BF xx,
        // counts as the character it stands for).
        return len > back
            && text.get(at - back + 1..at - back + len).is_some_and(|rest| rest.iter().all(|&b| b & 0xC0 == 0x80));
    }
    false
}

/// Whether `re` matches `text` with no empty match inside a character counted.
fn is_match_in_chars(re: &ResettingRegex, text: &[u8]) -> bool {
    let mut from = 0;
    while from <= text.len() {
        match re.search(&Input::new(text).range(from..)) {
            Some(m) if m.is_empty() && splits_char(text, m.start()) => from = m.start() + 1,
            found => return found.is_some(),
        }
    }
    false
}

/// One member alone; the error is already in words (`BuildError` is large to pass around).
/// With `utf8_empty`, no empty match inside a character (an ASCII `\B` between the two
/// bytes of é); without, an empty match anywhere, as the `regex` crate's bytes API has it,
/// so that a Buffer that is not UTF-8 (`scanLines`) matches where `test` says it does.
fn single_with(source: &str, utf8_empty: bool) -> Result<ResettingRegex, String> {
    let config = Regex::config()
        .match_kind(MatchKind::LeftmostFirst)
        .utf8_empty(utf8_empty)
        .nfa_size_limit(Some(nfa_limit(PATTERN_SIZE)))
        .onepass_size_limit(Some(PATTERN_SIZE))
        .hybrid_cache_capacity(SINGLE_CACHE);
    let re = Regex::builder().configure(config).syntax(syntax_config()).build(source).map_err(|e| message(&e))?;
    Ok(ResettingRegex::new(re, SINGLE_CACHE))
}

/// A look-around branch's body or look-behind check: only ever run on JavaScript strings.
fn single(source: &str) -> Result<ResettingRegex, String> {
    single_with(source, true)
}

impl RegexGroup {
    /// Compiles `members`; `Ok(None)` when there are none. With `keep`, each member's parsed
    /// source is also pushed there, in order (for `Matcher`'s joined `Any`: parsed once).
    /// Cost: each member compiled alone, then the set; refused at the first member over
    /// `PATTERN_SIZE` or when the set goes over `SET_SIZE`.
    pub fn new(members: Vec<Member>, keep: Option<&mut Vec<Hir>>) -> Result<Option<Self>, CompileError> {
        if members.is_empty() {
            return Ok(None);
        }
        // The members alone hold at least what the set will: their sum is checked against
        // the set's budget as they compile, so a list of many large members is refused after
        // at most `SET_SIZE` of compiling, not after all of it.
        let mut singles = Vec::new();
        let mut looks = Vec::new();
        let splits: Vec<bool> = members.iter().map(|m| may_split(&m.source)).collect();
        let mut total = 0usize;
        for Member { source, index, spans } in &members {
            let at_fault = |message| CompileError { pattern: Some(*index), message };
            let re = single_with(source, false).map_err(at_fault)?;
            let look = spans.as_ref().map(LookSpans::new).transpose().map_err(at_fault)?;
            total += re.regex().memory_usage() + look.as_ref().map_or(0, |l| l.memory_usage());
            looks.push(look);
            if total > SET_SIZE {
                return Err(CompileError {
                    pattern: None,
                    message: format!("it compiles to more than the {} MiB budget", SET_SIZE >> 20),
                });
            }
            singles.push(re);
        }
        let patterns = members.iter().map(|m| m.index).collect();
        if members.len() == 1 && keep.is_none() {
            return Ok(Some(Self { set: None, any: None, patterns, singles, looks, splits }));
        }
        // Parsed once, for the set, its `Any` and `keep`.
        let hirs = parse(&members.iter().map(|m| m.source.as_str()).collect::<Vec<_>>())?;
        if let Some(keep) = keep {
            keep.extend(hirs.iter().cloned());
        }
        if members.len() == 1 {
            return Ok(Some(Self { set: None, any: None, patterns, singles, looks, splits }));
        }
        let set = Regex::builder()
            .configure(set_config())
            .build_many_from_hir(&hirs)
            .map(|set| ResettingRegex::new(set, DFA_CACHE))
            .map_err(|e| CompileError { pattern: None, message: message(&e) })?;
        let any = Any::from_hirs(hirs)?;
        Ok(Some(Self { set: Some(set), any: Some(any), patterns, singles, looks, splits }))
    }

    /// Heap bytes held by the compiled automata, plus one thread's lazy DFA caches: each
    /// member's at its most, the set's as it typically is (`SET_CACHE_TYPICAL`). What the
    /// `isMatch` cache counts and `napi_adjust_external_memory` reports to V8.
    pub fn memory_usage(&self) -> usize {
        let singles: usize = self.singles.iter().map(|r| r.regex().memory_usage() + SINGLE_CACHE).sum::<usize>()
            + self.looks.iter().flatten().map(|l| l.memory_usage()).sum::<usize>();
        let set = self.set.as_ref().map_or(0, |set| set.regex().memory_usage() + SET_CACHE_TYPICAL);
        let any = self.any.as_ref().map_or(0, Any::memory_usage);
        set + any + singles
    }

    /// Whether any member matches. Cost: one pass, stopping at the first match; with a
    /// member that may match inside a character (`splits`), a yes is then confirmed member
    /// by member.
    pub fn is_match(&self, text: &[u8]) -> bool {
        let any = match &self.any {
            Some(any) => any.is_match(text),
            None => self.singles[0].is_match(&Input::new(text)),
        };
        any && (!self.may_split() || (0..self.singles.len()).any(|i| self.member_matches(i, text)))
    }

    /// Whether some member may match the empty string inside a character: the joined
    /// automata (this group's and `Matcher`'s quick one) then only propose.
    pub fn may_split(&self) -> bool {
        self.splits.iter().any(|&s| s)
    }

    /// Whether member `i` alone matches.
    fn member_matches(&self, i: usize, text: &[u8]) -> bool {
        match self.splits[i] {
            true => is_match_in_chars(&self.singles[i], text),
            false => self.singles[i].is_match(&Input::new(text)),
        }
    }

    /// The set members that match, by position in the set. Cost: one pass to the first
    /// match, then, if there is one, one full pass.
    fn matching(&self, text: &[u8]) -> PatternSet {
        let mut hits = PatternSet::new(self.patterns.len());
        match &self.set {
            Some(set) if self.is_match(text) => {
                set.which_overlapping_matches(&Input::new(text), &mut hits);
                if self.may_split() {
                    let proposed: Vec<_> = hits.iter().collect();
                    hits.clear();
                    for id in proposed.into_iter().filter(|id| self.member_matches(id.as_usize(), text)) {
                        hits.insert(id);
                    }
                }
            }
            Some(_) => {}
            None if self.member_matches(0, text) => {
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
            .enumerate()
            .take_while(|(_, &p)| p < below)
            .find(|&(i, _)| self.member_matches(i, text))
            .map(|(_, &p)| p)
    }

    /// Non-overlapping matches of every member that matches, as (pattern, start, end), into
    /// `out`; stops once `out` holds more than `limit`, returning false.
    pub fn spans(&self, text: &[u8], out: &mut Vec<(u32, usize, usize)>, limit: usize) -> bool {
        for id in self.matching(text).iter() {
            let pattern = self.patterns[id.as_usize()];
            if let Some(look) = &self.looks[id.as_usize()] {
                if !look.spans(text, pattern, out, limit) {
                    return false;
                }
                continue;
            }
            let mut within = true;
            self.singles[id.as_usize()].each_match(text, |m| {
                // An empty match inside a character is none (for a string: an ASCII `\B`
                // between the two bytes of é); the search goes on a byte later.
                if m.is_empty() && splits_char(text, m.start()) {
                    return true;
                }
                within = out.len() < limit;
                if within {
                    out.push((pattern, m.start(), m.end()));
                }
                within
            });
            if !within {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_positions_inside_a_valid_character_split_it() {
        let text = "aé€😀".as_bytes();
        let inside: Vec<usize> = (0..=text.len()).filter(|&at| splits_char(text, at)).collect();
        assert_eq!(inside, [2, 4, 5, 7, 8, 9]);
        // Stray and truncated sequences are no characters.
        assert!(!splits_char(b"\xa9", 0) && !splits_char(b"a\xa9\xa9", 2) && !splits_char(b"\xe2\x82", 1));
        // The units view's surrogates are characters.
        assert!(splits_char(b"\xed\xa0\xbd", 1) && splits_char(b"\xed\xa0\xbd", 2));
    }

    fn group(sources: &[&str]) -> Result<Option<RegexGroup>, CompileError> {
        RegexGroup::new(
            sources
                .iter()
                .enumerate()
                .map(|(i, s)| Member { source: s.to_string(), index: i as u32, spans: None })
                .collect(),
            None,
        )
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// The look-behind marked in one pass holds exactly where its check, run at each
        /// position (the way taken should the marker fail), says it does.
        #[test]
        fn a_marked_look_behind_agrees_with_its_check_at_every_position(
            which in 0..5usize,
            negative in proptest::bool::ANY,
            text in proptest::collection::vec(proptest::sample::select(b"abk s1\xC3\xA9".to_vec()), 0..40),
        ) {
            let bodies = ["a", "b|ab", "[ks]{1,2}", r"\d|\xC3\xA9", "(?:a|b)k?"];
            let spans = Spans {
                branches: vec![crate::matcher::js_regex::Branch {
                    behind: Some(crate::matcher::js_regex::Behind {
                        check: format!(r"(?:{})\z", bodies[which]),
                        ends: format!("(?:{})", bodies[which]),
                        negative,
                        reach: 8,
                    }),
                    body: "(.)".into(),
                }],
            };
            let look = LookSpans::new(&spans).unwrap();
            let behind = look.branches[0].behind.as_ref().unwrap();
            let ends = behind.ends.mark(&text).expect("the marker does not give up");
            for at in 0..=text.len() {
                proptest::prop_assert_eq!(behind.holds(&text, at, Some(&ends)), behind.holds(&text, at, None), "at {}", at);
            }
        }
    }

    #[test]
    fn a_look_behind_is_marked_only_for_a_branch_that_can_start() {
        use crate::matcher::js_regex::{Behind, Branch};
        let branch = |behind: &str, body: &str| Branch {
            behind: Some(Behind {
                check: format!(r"(?:{behind})\z"),
                ends: format!("(?:{behind})"),
                negative: false,
                reach: 1,
            }),
            body: format!("({body})"),
        };
        // `(?<=a)x|(?<=b)y`: only `x` occurs, so only the first branch's look-behind is marked.
        let look = LookSpans::new(&Spans { branches: vec![branch("a", "x"), branch("b", "y")] }).unwrap();
        let mut out = Vec::new();
        assert!(look.spans(b"ax bx ax", 7, &mut out, 100));
        assert_eq!(out, [(7, 1, 2), (7, 7, 8)]);
        let passes =
            |i: usize| look.branches[i].behind.as_ref().unwrap().ends.passes.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!((passes(0), passes(1)), (1, 0));
    }

    #[test]
    fn spans_stop_at_the_limit() {
        let g = group(&["a"]).unwrap().unwrap();
        let mut out = Vec::new();
        assert!(!g.spans(&[b'a'; 1000], &mut out, 10));
        assert_eq!(out.len(), 10);
    }
}
