//! "Does any member match": the members anchored at the text's start (`\A…`) apart from the
//! others, because together the lazy DFA carries the anchored ones' states along the whole
//! text and builds states for every mix of them with the others.
//!
//! The two sides are walked together, byte by byte, when neither has a faster way of its
//! own: the first match on either side answers, where one after the other paid the whole of
//! the first side's walk before the second began. Each step is a table load that depends on
//! the last one on the same side, so the two sides' loads overlap: two walks cost about as
//! much as one (isbot's list on its own agents, `examples/profile_matcher`: together is as
//! fast as the better order, and neither order has to be guessed). On a text of `SPLIT_FROM` bytes or more, the unanchored side
//! is walked in two halves at once (`Together::walk_split`): three chains of loads.

use super::regex_config::{
    budget_mib, message, nfa_limit, set_config, CompileError, DFA_CACHE, SET_CACHE_TYPICAL, SET_SIZE,
};
use super::resetting_regex::{CachePool, ResettingRegex};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::meta::Regex;
use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
use regex_automata::util::pool::Pool;
use regex_automata::util::prefilter::Prefilter;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Hir, Look};
use std::ops::ControlFlow;

pub enum Any {
    /// Each side searched alone, the anchored one first: when a side is empty, or when the
    /// other side has a literal prefilter (it skips to candidates, where a walk reads every
    /// byte), or when a member needs Unicode word boundaries (the lazy DFA stops at the
    /// first non-ASCII byte for those).
    Apart { start: Option<ResettingRegex>, rest: Option<ResettingRegex> },
    /// Both sides walked together.
    Together(Box<Together>),
}

pub struct Together {
    start: Side,
    rest: Side,
    caches: CachePool<Caches>,
    /// Texts from this length on are walked in halves on the unanchored side (`SPLIT_FROM`;
    /// tests lower it).
    split_from: usize,
}

/// Texts of this many bytes or more have their unanchored side walked in two halves at once
/// (`Together::walk_split`).
const SPLIT_FROM: usize = 32;
/// How far past the middle the walk from the start looks for the other walk's state: it
/// meets it 1–2 bytes in on isbot's agents. Past this, it goes on to the end.
const MEET: usize = 32;

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
        let build = |hirs: &[Hir]| -> Result<Option<ResettingRegex>, CompileError> {
            if hirs.is_empty() {
                return Ok(None);
            }
            Regex::builder()
                .configure(set_config().match_kind(MatchKind::LeftmostFirst))
                .build_many_from_hir(hirs)
                .map(|re| Some(ResettingRegex::new(re, DFA_CACHE)))
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
    fn new(hirs: &[Hir], cache_capacity: usize) -> Result<Option<Side>, CompileError> {
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .which_captures(thompson::WhichCaptures::None)
                    .nfa_size_limit(Some(nfa_limit(SET_SIZE))),
            )
            .build_many_from_hir(hirs)
            .map_err(|e| CompileError { pattern: None, message: nfa_message(&e) })?;
        let dfa = DFA::builder()
            .configure(DFA::config().match_kind(MatchKind::LeftmostFirst).cache_capacity(cache_capacity))
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
        Some(limit) => format!("it compiles to more than the {} MiB budget", budget_mib(limit)),
        None => e.to_string(),
    }
}

impl Together {
    fn new(start: &[Hir], rest: &[Hir]) -> Result<Option<Together>, CompileError> {
        Together::with_cache(start, rest, DFA_CACHE)
    }

    /// `new`, with each lazy DFA's cache at most `cache_capacity` bytes (tests make it small).
    fn with_cache(start: &[Hir], rest: &[Hir], cache_capacity: usize) -> Result<Option<Together>, CompileError> {
        let (Some(start), Some(rest)) = (Side::new(start, cache_capacity)?, Side::new(rest, cache_capacity)?) else {
            return Ok(None);
        };
        let (a, b) = (start.dfa.clone(), rest.dfa.clone());
        let caches: CachePool<Caches> =
            Pool::new(Box::new(move || Caches { start: a.create_cache(), rest: b.create_cache() }));
        Ok(Some(Together { start, rest, caches, split_from: SPLIT_FROM }))
    }

    fn is_match(&self, text: &[u8]) -> bool {
        let mut caches = self.caches.get();
        let Caches { start, rest } = &mut *caches;
        let walked = match text.len() >= self.split_from {
            true => match self.walk_split(start, rest, text) {
                Ok(Some(answer)) => Ok(answer),
                // The unanchored side's cache was cleared: walk again, whole.
                Ok(None) => self.walk(start, rest, text),
                Err(()) => Err(()),
            },
            false => self.walk(start, rest, text),
        };
        walked.unwrap_or_else(|()| {
            self.start.slow_match(Input::new(text).anchored(Anchored::Yes)) || self.rest.slow_match(Input::new(text))
        })
    }

    /// `walk`, with the unanchored side in two halves at once: one walk from the start and
    /// one from the middle, beside the anchored side's, so each step makes three table loads
    /// that wait on nothing but their own walk's last one. The walk from the start goes on
    /// past the middle until its state is the one the other walk had after the same byte:
    /// from there on it would find only what that walk finds (a state is the set of the
    /// automaton's threads, and the same set has the same future; the threads of matches
    /// that began before the middle are gone by then).
    ///
    /// `Ok(None)` when the unanchored side's cache was cleared on the way (state IDs held
    /// from before a clear mean nothing after it, and two walks share that cache), or when
    /// an unanchored walk died (it does not short of a match).
    fn walk_split(&self, ca: &mut Cache, cb: &mut Cache, text: &[u8]) -> Result<Option<bool>, ()> {
        let (a, b) = (&self.start.dfa, &self.rest.dfa);
        let mid = text.len() / 2;
        let (head, tail) = text.split_at(mid);
        let mut sa = a.start_state_forward(ca, &Input::new(text).anchored(Anchored::Yes)).map_err(drop)?;
        let mut sr = b.start_state_forward(cb, &Input::new(text)).map_err(drop)?;
        let clears = cb.clear_count();
        // From the middle, with the byte before it as context (`\b`, `^`).
        let mut sb = b.start_state_forward(cb, &Input::new(text).range(mid..)).map_err(drop)?;
        if cb.clear_count() != clears {
            return Ok(None);
        }
        // The walk from the middle's first states, one a byte.
        let mut seen = [sb; MEET];
        let mut a_on = true;
        // The walk from the middle over the second half, and the others over the first.
        for (i, &y) in tail.iter().enumerate() {
            sb = match shared(advance(b, cb, sb, y, Some(clears))?) {
                ControlFlow::Continue(s) => s,
                ControlFlow::Break(answer) => return Ok(answer),
            };
            if let Some(slot) = seen.get_mut(i) {
                *slot = sb;
            }
            if let Some(&x) = head.get(i) {
                if let ControlFlow::Break(answer) =
                    self.step_from_start(ca, cb, &mut sa, &mut a_on, &mut sr, x, clears)?
                {
                    return Ok(answer);
                }
            }
        }
        if b.next_eoi_state(cb, sb).map_err(drop)?.is_match() {
            return Ok(Some(true));
        }
        if cb.clear_count() != clears {
            return Ok(None);
        }
        // The walk from the start, past the middle, until it meets the other's state.
        for (j, &x) in tail.iter().enumerate().take(MEET) {
            if let ControlFlow::Break(answer) = self.step_from_start(ca, cb, &mut sa, &mut a_on, &mut sr, x, clears)? {
                return Ok(answer);
            }
            if sr == seen[j] {
                return Ok(Some(a_on && alone(a, ca, sa, &tail[j + 1..])?));
            }
        }
        // They did not meet: on to the end, as `walk` goes.
        let left = &tail[tail.len().min(MEET)..];
        Ok(Some(if a_on { self.walk_from(ca, cb, sa, sr, left)? } else { alone(b, cb, sr, left)? }))
    }

    /// One byte of `walk_split`'s walk from the start (`sr`, on the shared cache) and, while
    /// it goes, of the anchored walk (`sa`): `Break` with the answer when either ends it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn step_from_start(
        &self,
        ca: &mut Cache,
        cb: &mut Cache,
        sa: &mut LazyStateID,
        a_on: &mut bool,
        sr: &mut LazyStateID,
        byte: u8,
        clears: usize,
    ) -> Result<ControlFlow<Option<bool>>, ()> {
        *sr = match shared(advance(&self.rest.dfa, cb, *sr, byte, Some(clears))?) {
            ControlFlow::Continue(s) => s,
            ControlFlow::Break(answer) => return Ok(ControlFlow::Break(answer)),
        };
        if *a_on {
            match advance(&self.start.dfa, ca, *sa, byte, None)? {
                Next::To(s) => *sa = s,
                Next::Match => return Ok(ControlFlow::Break(Some(true))),
                _ => *a_on = false,
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Both lazy DFAs over `text`, one byte at a time each, until either matches or both
    /// are dead. Match states come one byte late, and the end of the text is one more step.
    fn walk(&self, ca: &mut Cache, cb: &mut Cache, text: &[u8]) -> Result<bool, ()> {
        let (a, b) = (&self.start.dfa, &self.rest.dfa);
        let sa = a.start_state_forward(ca, &Input::new(text).anchored(Anchored::Yes)).map_err(drop)?;
        let sb = b.start_state_forward(cb, &Input::new(text)).map_err(drop)?;
        self.walk_from(ca, cb, sa, sb, text)
    }

    /// `walk` from states `sa` and `sb` (untagged), over what is left of the text.
    fn walk_from(
        &self,
        ca: &mut Cache,
        cb: &mut Cache,
        mut sa: LazyStateID,
        mut sb: LazyStateID,
        text: &[u8],
    ) -> Result<bool, ()> {
        let (a, b) = (&self.start.dfa, &self.rest.dfa);
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

/// Where one step of a walk led.
enum Next {
    To(LazyStateID),
    Match,
    Dead,
    /// The cache was cleared (only asked of a cache two walks share).
    Cleared,
}

/// One step from untagged state `s` on `byte`. `clears`: the cache's clear count when the
/// walk began, for a cache two walks share.
#[inline(always)]
fn advance(dfa: &DFA, cache: &mut Cache, s: LazyStateID, byte: u8, clears: Option<usize>) -> Result<Next, ()> {
    let next = dfa.next_state_untagged(cache, s, byte);
    if next.is_tagged() {
        advance_tagged(dfa, cache, s, next, byte, clears)
    } else {
        Ok(Next::To(next))
    }
}

/// `advance` where the cached transition is tagged: at most once a walk in steady state (a
/// match ends it), so kept out of the loop.
#[cold]
#[inline(never)]
fn advance_tagged(
    dfa: &DFA,
    cache: &mut Cache,
    s: LazyStateID,
    next: LazyStateID,
    byte: u8,
    clears: Option<usize>,
) -> Result<Next, ()> {
    let s = known(dfa, cache, s, next, byte)?;
    if clears.is_some_and(|c| c != cache.clear_count()) {
        return Ok(Next::Cleared);
    }
    Ok(match stop(s)? {
        Some(Stop::Match) => Next::Match,
        Some(Stop::Dead) => Next::Dead,
        None => Next::To(s),
    })
}

/// A step of a walk on a cache two walks share: its new state, or `walk_split`'s answer
/// (`None`: walk again, whole).
#[inline(always)]
fn shared(next: Next) -> ControlFlow<Option<bool>, LazyStateID> {
    match next {
        Next::To(s) => ControlFlow::Continue(s),
        Next::Match => ControlFlow::Break(Some(true)),
        Next::Dead | Next::Cleared => ControlFlow::Break(None),
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
    use crate::matcher::regex_config::parse;

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

    #[test]
    fn the_walk_from_the_start_meets_the_other_after_the_same_byte_only() {
        // The proptest below found this text against a comparison one byte off: the walk
        // from the start, after a byte of the second half, has the state the walk from the
        // middle had one byte later, with a match still ahead of it.
        let sources = [r"(?:\A|[^b])aa", "^ba", "[^ ]ab"];
        let mut a = any(&sources);
        let Any::Together(both) = &mut a else { panic!("apart") };
        let text = b"aba aba ba aba\naa abba abba ab";
        for end in 0..=text.len() {
            let t = &text[..end];
            for split_from in [0, SPLIT_FROM, usize::MAX] {
                both.split_from = split_from;
                assert_eq!(
                    both.is_match(t),
                    reference(&sources, t),
                    "{:?}, split from {split_from}",
                    String::from_utf8_lossy(t)
                );
            }
        }
    }

    #[test]
    fn a_cache_cleared_between_the_two_halves_walks_again() {
        // A state for every mix of the last 9 bits: random bits build new states all along,
        // and a cache of 64 KiB fills and is cleared again and again, at any point of either
        // half's walk; the held state IDs then mean nothing, and the text is walked again.
        let sources = ["^ba", "[^ ][01]*1[01]{8}y"];
        let parsed = parse(&sources).unwrap();
        let (start, rest): (Vec<Hir>, Vec<Hir>) =
            parsed.into_iter().partition(|h| h.properties().look_set_prefix().contains(Look::Start));
        let both = Together::with_cache(&start, &rest, 64 << 10).unwrap().expect("a lazy DFA in 64 KiB");
        let mut seed = 7u32;
        let mut bit = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            b'0' + (seed >> 16) as u8 % 2
        };
        for n in 0..400 {
            let mut t: Vec<u8> = (0..40 + n % 200).map(|_| bit()).collect();
            if n % 3 == 0 {
                let at = t.len() / 2 + n % 7 - 3;
                t[at] = b'y';
            }
            assert_eq!(both.is_match(&t), reference(&sources, &t), "{:?}", String::from_utf8_lossy(&t));
        }
        assert!(both.caches.get().rest.clear_count() > 10, "the cache was cleared");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        #[test]
        fn together_agrees_with_each_member_alone(
            members in proptest::collection::vec((0..8usize, "[ab]{1,3}"), 1..8),
            texts in proptest::collection::vec(proptest::collection::vec(
                proptest::sample::select(b"ab \n\xC3\xA9\xFF".to_vec()), 0..40), 1..10),
        ) {
            let shapes = ["^{}", "^{}$", "^[^ ]{2,}", "[^a]{}", r"(?-u:\b){}(?-u:\b)", "{}$", r"(?:\A|[^b]){}", "^(?:{})+ "];
            let mut sources: Vec<String> = members.iter().map(|(s, body)| shapes[*s].replace("{}", body)).collect();
            // Both sides, and no literal prefilter on the unanchored one.
            sources.push("^ba".into());
            sources.push("[^ ]ab".into());
            let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
            let mut a = any(&sources);
            let Any::Together(both) = &mut a else { return Err(proptest::test_runner::TestCaseError::fail("apart")) };
            for t in &texts {
                let expected = reference(&sources, t);
                // Whole, and in halves from every length on (the walk from the middle starts
                // at every offset, and the walks meet, or not, anywhere).
                for split_from in [usize::MAX, SPLIT_FROM, 0, 1, 2, 3] {
                    both.split_from = split_from;
                    proptest::prop_assert_eq!(both.is_match(t), expected, "{:?} on {:?}, split from {}", sources, t, split_from);
                }
                // The way taken should a lazy DFA ever fail.
                let slow = both.start.slow_match(Input::new(t).anchored(Anchored::Yes)) || both.rest.slow_match(Input::new(t));
                proptest::prop_assert_eq!(slow, expected);
            }
        }
    }
}
