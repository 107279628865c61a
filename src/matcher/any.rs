//! "Does any member match": the members anchored at the text's start (`\A…`) apart from the
//! others, because together the lazy DFA carries the anchored ones' states along the whole
//! text and builds states for every mix of them with the others.
//!
//! The two sides are walked together, byte by byte, when neither has a faster way of its
//! own: the first match on either side answers, where one after the other paid the whole of
//! the first side's walk before the second began. Each step is a table load that depends on
//! the last one on the same side, so the two sides' loads overlap: two walks cost about as
//! much as one. isbot's list on its own bot agents (`examples/profile_matcher`): the
//! anchored side first 195–209 ns an agent, the other side first 123–130, together 132–141;
//! browsers 290–330 either way.

use super::kept::{CachePool, KeptRegex};
use super::regex_set::{message, CompileError, DFA_CACHE};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::meta::Regex;
use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
use regex_automata::util::pool::Pool;
use regex_automata::util::prefilter::Prefilter;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Hir, Look};

/// What a set's lazy DFA cache is counted as in `memory_usage`: it grows only as matching
/// visits new states, up to `DFA_CACHE` per thread that matches with the set. A capacity
/// sized to the member count instead (2 MiB for the crawler list's 23 regexes) made
/// `scanLines` over 60 MiB of varied log lines up to 1.7× slower: the cache thrashed.
pub const SET_CACHE_TYPICAL: usize = 2 << 20;

pub enum Any {
    /// Each side searched alone, the anchored one first: when a side is empty, or when the
    /// other side has a literal prefilter (it skips to candidates, where a walk reads every
    /// byte), or when a member needs Unicode word boundaries (the lazy DFA stops at the
    /// first non-ASCII byte for those).
    Apart { start: Option<KeptRegex>, rest: Option<KeptRegex> },
    /// Both sides walked together.
    Together(Box<Together>),
}

pub struct Together {
    start: Side,
    rest: Side,
    caches: CachePool<Caches>,
}

/// One side: its lazy DFA, and a PikeVM of the same NFA should the lazy DFA ever fail (it
/// does not with these settings: it never gives up, and it has no quit bytes).
struct Side {
    dfa: DFA,
    slow: PikeVM,
}

struct Caches {
    start: Cache,
    rest: Cache,
}

/// A side's walk ended early: a match, or its state went dead.
enum Stop {
    Match,
    Dead,
}

impl Any {
    /// Compiles parsed members, the anchored ones apart from the others.
    pub fn from_hirs(hirs: Vec<Hir>) -> Result<Any, CompileError> {
        let (start, rest): (Vec<Hir>, Vec<Hir>) =
            hirs.into_iter().partition(|hir| hir.properties().look_set_prefix().contains(Look::Start));
        let unicode_words = start.iter().chain(&rest).any(|h| h.properties().look_set().contains_word_unicode());
        if !start.is_empty()
            && !rest.is_empty()
            && !unicode_words
            && Prefilter::from_hirs_prefix(MatchKind::LeftmostFirst, &rest).is_none()
        {
            // A lazy DFA that cannot be built (its cache too small for a state of a very large
            // NFA) leaves the two sides to the meta engine, which has other ways; an NFA over
            // the budget is refused at once, not compiled again.
            if let Some(together) = Together::new(&start, &rest)? {
                return Ok(Any::Together(Box::new(together)));
            }
        }
        let build = |hirs: &[Hir]| -> Result<Option<KeptRegex>, CompileError> {
            if hirs.is_empty() {
                return Ok(None);
            }
            Regex::builder()
                .configure(super::regex_set::set_config().match_kind(MatchKind::LeftmostFirst))
                .build_many_from_hir(hirs)
                .map(|re| Some(KeptRegex::new(re, DFA_CACHE)))
                .map_err(|e| CompileError { pattern: None, message: message(&e) })
        };
        Ok(Any::Apart { start: build(&start)?, rest: build(&rest)? })
    }

    /// Whether any member matches `text`.
    pub fn is_match(&self, text: &[u8]) -> bool {
        match self {
            Any::Apart { start, rest } => {
                start.as_ref().is_some_and(|re| re.is_match(&Input::new(text).anchored(Anchored::Yes)))
                    || rest.as_ref().is_some_and(|re| re.is_match(&Input::new(text)))
            }
            Any::Together(both) => both.is_match(text),
        }
    }

    pub fn memory_usage(&self) -> usize {
        match self {
            Any::Apart { start, rest } => {
                [start, rest].into_iter().flatten().map(|re| re.regex().memory_usage() + SET_CACHE_TYPICAL).sum()
            }
            Any::Together(both) => [&both.start, &both.rest]
                .into_iter()
                .map(|side| side.dfa.get_nfa().memory_usage() + side.dfa.memory_usage() + SET_CACHE_TYPICAL)
                .sum(),
        }
    }

    /// Whether the two sides are walked together (for tests).
    pub fn is_together(&self) -> bool {
        matches!(self, Any::Together(_))
    }
}

impl Side {
    /// `Ok(None)` when the NFA fits the budget but its lazy DFA cannot be built.
    fn new(hirs: &[Hir]) -> Result<Option<Side>, CompileError> {
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .which_captures(thompson::WhichCaptures::None)
                    .nfa_size_limit(Some(super::regex_set::SET_SIZE)),
            )
            .build_many_from_hir(hirs)
            .map_err(|e| CompileError { pattern: None, message: nfa_message(&e) })?;
        let dfa = DFA::builder()
            .configure(DFA::config().match_kind(MatchKind::LeftmostFirst).cache_capacity(DFA_CACHE))
            .build_from_nfa(nfa.clone());
        let slow = PikeVM::new_from_nfa(nfa);
        Ok(dfa.ok().zip(slow.ok()).map(|(dfa, slow)| Side { dfa, slow }))
    }

    /// The slow way, for either side.
    fn slow_match(&self, input: Input<'_>) -> bool {
        self.slow.is_match(&mut self.slow.create_cache(), input)
    }
}

fn nfa_message(e: &thompson::BuildError) -> String {
    match e.size_limit() {
        Some(limit) => format!("it compiles to more than the {} MiB budget", limit >> 20),
        None => e.to_string(),
    }
}

impl Together {
    fn new(start: &[Hir], rest: &[Hir]) -> Result<Option<Together>, CompileError> {
        let (Some(start), Some(rest)) = (Side::new(start)?, Side::new(rest)?) else { return Ok(None) };
        let (a, b) = (start.dfa.clone(), rest.dfa.clone());
        let caches: CachePool<Caches> =
            Pool::new(Box::new(move || Caches { start: a.create_cache(), rest: b.create_cache() }));
        Ok(Some(Together { start, rest, caches }))
    }

    fn is_match(&self, text: &[u8]) -> bool {
        let mut caches = self.caches.get();
        let Caches { start, rest } = &mut *caches;
        self.walk(start, rest, text).unwrap_or_else(|()| {
            self.start.slow_match(Input::new(text).anchored(Anchored::Yes)) || self.rest.slow_match(Input::new(text))
        })
    }

    /// Both lazy DFAs over `text`, one byte at a time each, until either matches or both
    /// are dead. Match states come one byte late, and the end of the text is one more step.
    fn walk(&self, ca: &mut Cache, cb: &mut Cache, text: &[u8]) -> Result<bool, ()> {
        let (a, b) = (&self.start.dfa, &self.rest.dfa);
        let mut sa = a.start_state_forward(ca, &Input::new(text).anchored(Anchored::Yes)).map_err(drop)?;
        let mut sb = b.start_state_forward(cb, &Input::new(text)).map_err(drop)?;
        for (at, &byte) in text.iter().enumerate() {
            // Both states are untagged here: a start state is not (start states are not
            // specialised), and every tagged one ends the walk or is replaced.
            let (na, nb) = (a.next_state_untagged(ca, sa, byte), b.next_state_untagged(cb, sb, byte));
            if !(na.is_tagged() || nb.is_tagged()) {
                (sa, sb) = (na, nb);
                continue;
            }
            (sa, sb) = (known(a, ca, sa, na, byte)?, known(b, cb, sb, nb, byte)?);
            match (stop(sa)?, stop(sb)?) {
                (Some(Stop::Match), _) | (_, Some(Stop::Match)) => return Ok(true),
                (Some(Stop::Dead), Some(Stop::Dead)) => return Ok(false),
                (Some(Stop::Dead), None) => return alone(b, cb, sb, &text[at + 1..]),
                (None, Some(Stop::Dead)) => return alone(a, ca, sa, &text[at + 1..]),
                (None, None) => {}
            }
        }
        Ok(a.next_eoi_state(ca, sa).map_err(drop)?.is_match() || b.next_eoi_state(cb, sb).map_err(drop)?.is_match())
    }
}

/// The state after `from` on `byte`, given the cached transition `next`: computed when it is
/// not known yet.
fn known(dfa: &DFA, cache: &mut Cache, from: LazyStateID, next: LazyStateID, byte: u8) -> Result<LazyStateID, ()> {
    if next.is_unknown() {
        dfa.next_state(cache, from, byte).map_err(drop)
    } else {
        Ok(next)
    }
}

/// Why a walk stops at state `s`, if it does; `Err` for a state the walk cannot go on from
/// (a quit state: none with these settings).
fn stop(s: LazyStateID) -> Result<Option<Stop>, ()> {
    if s.is_match() {
        Ok(Some(Stop::Match))
    } else if s.is_dead() {
        Ok(Some(Stop::Dead))
    } else if s.is_quit() {
        Err(())
    } else {
        Ok(None)
    }
}

/// One side's walk over the rest of the text, from state `s` (untagged).
fn alone(dfa: &DFA, cache: &mut Cache, mut s: LazyStateID, rest: &[u8]) -> Result<bool, ()> {
    for &byte in rest {
        let next = dfa.next_state_untagged(cache, s, byte);
        if !next.is_tagged() {
            s = next;
            continue;
        }
        s = known(dfa, cache, s, next, byte)?;
        match stop(s)? {
            Some(Stop::Match) => return Ok(true),
            Some(Stop::Dead) => return Ok(false),
            None => {}
        }
    }
    Ok(dfa.next_eoi_state(cache, s).map_err(drop)?.is_match())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::regex_set::parse;

    fn any(sources: &[&str]) -> Any {
        Any::from_hirs(parse(sources).unwrap()).unwrap()
    }

    /// Each member alone, by the `regex` crate (as `regex::bytes` reads them, like `parse`):
    /// the reference.
    fn reference(sources: &[&str], text: &[u8]) -> bool {
        sources.iter().any(|s| regex::bytes::Regex::new(s).unwrap().is_match(text))
    }

    #[test]
    fn the_sides_are_walked_together_only_where_neither_has_a_faster_way() {
        assert!(any(&["^ab", "[^c]d"]).is_together());
        // One side only; a literal prefilter on the unanchored side; Unicode word boundaries.
        assert!(!any(&["^ab", "^cd"]).is_together());
        assert!(!any(&["[^c]d", "e+"]).is_together());
        assert!(!any(&["^ab", "xyz"]).is_together());
        assert!(!any(&["^ab", r"(?u:\b)[^c]d"]).is_together());
    }

    #[test]
    fn either_side_answers_wherever_its_match_ends() {
        let sources = [r"^[^ ]{5,}$", r"^ab\d", r"[^l]bot(?-u:\b)", r"(?:\A|[^g])news", r"[^y]x\z"];
        let a = any(&sources);
        assert!(a.is_together());
        for (text, expected) in [
            (&b"ab1"[..], true),    // the anchored side, early
            (b"abcdefgh", true),    // the anchored side, at the end of the text
            (b"a Googlebot", true), // the other side, mid-text
            (b"news", true),        // the other side, `\A` inside a member
            (b"gnews ", false),
            (b"a lbot", false),
            (b"a botz", false), // `\b` fails (ASCII `\b`, as JavaScript patterns become)
            (b"ab x", true),    // `\z`
            (b"", false),
            (b"ab \xFF bot", true), // invalid UTF-8 is bytes like any other
        ] {
            assert_eq!(a.is_match(text), expected, "{:?}", String::from_utf8_lossy(text));
            assert_eq!(reference(&sources, text), expected);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        #[test]
        fn together_agrees_with_each_member_alone(
            members in proptest::collection::vec((0..8usize, "[ab]{1,3}"), 1..8),
            texts in proptest::collection::vec(proptest::collection::vec(
                proptest::sample::select(b"ab \n\xC3\xA9\xFF".to_vec()), 0..12), 1..10),
        ) {
            let shapes = ["^{}", "^{}$", "^[^ ]{2,}", "[^a]{}", r"(?-u:\b){}(?-u:\b)", "{}$", r"(?:\A|[^b]){}", "^(?:{})+ "];
            let mut sources: Vec<String> = members.iter().map(|(s, body)| shapes[*s].replace("{}", body)).collect();
            // Both sides, and no literal prefilter on the unanchored one.
            sources.push("^ba".into());
            sources.push("[^ ]ab".into());
            let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
            let a = any(&sources);
            let Any::Together(both) = &a else { return Err(proptest::test_runner::TestCaseError::fail("apart")) };
            for t in &texts {
                let expected = reference(&sources, t);
                proptest::prop_assert_eq!(a.is_match(t), expected, "{:?} on {:?}", sources, t);
                // The way taken should a lazy DFA ever fail.
                let slow = both.start.slow_match(Input::new(t).anchored(Anchored::Yes)) || both.rest.slow_match(Input::new(t));
                proptest::prop_assert_eq!(slow, expected);
            }
        }
    }
}
