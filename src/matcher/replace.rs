//! The matches `Matcher::replace` replaces: what `text.replace(u, …)` finds for `u`, the
//! union `RegExp` of the patterns in order with the `g` flag. From the last match's end, the
//! leftmost position where any pattern matches; there, the lowest-numbered pattern that does;
//! its match as that pattern alone would make it there; past an empty match, one code unit
//! on (one code point for a pattern with `u`, as V8 advances a `u` regex).
//!
//! All patterns but those with look-around go into one multi-pattern regex, leftmost-first
//! (the order of an alternation), searched once per match. A look-around pattern keeps its
//! own span finder (`LookSpans`), marked once per text; the next match is the earliest of the
//! regex's and theirs, the lower pattern first at one position.
//!
//! A text with astral characters needs more: a pattern without `u` reads code units, so it
//! may match, or match empty, between the two halves of one. Such patterns run on the units
//! view (`js_regex::units`), compiled for it; patterns that read code points (`u`, Rust
//! syntax, wildcards) on the text itself; positions are compared in the units view's bytes.
//! Built on first use (a matcher that never replaces pays nothing), and the astral engines on
//! the first text that needs them.

use super::js_regex::{self, parse::Flags, units, Spans};
use super::literal;
use super::offsets::UnitWalk;
use super::pattern::{self, literal_regex, Kind, Place, Plan, Syntax};
use super::regex_config::{message, nfa_limit, syntax_config, PATTERN_SIZE, SET_SIZE};
use super::regex_set::{LookMarks, LookSpans};
use super::resetting_regex::ResettingRegex;
use super::PatternSpec;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind};
use regex_automata::meta::Regex;
use regex_automata::{Input, MatchKind};
use std::sync::OnceLock;

/// Lazy DFA cache of the union, per thread that replaces with it.
const UNION_CACHE: usize = 8 << 20;

/// One pattern, as the union runs it on one view of the text.
struct Member {
    index: u32,
    /// Rust syntax; for a look-around pattern, the form that `spans` refines.
    source: String,
    spans: Option<Spans>,
    /// A substring literal (not empty), and whether ASCII case is ignored: Aho–Corasick's.
    literal: Option<(String, bool)>,
}

/// Which view of the text a member reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Text,
    Units,
}

/// The members that read one view, compiled: each searcher finds, from a position, the
/// leftmost match among its members (the lowest-numbered at one start), and a walk takes the
/// earliest of theirs.
struct Engine {
    searchers: Vec<Searcher>,
}

enum Searcher {
    /// The regex members, leftmost-first; pattern ids index the list.
    Regex(ResettingRegex, Vec<u32>),
    /// Substring literals of one case mode, leftmost-first: Aho–Corasick alone finds what the
    /// regex would, without the regex's prefilter confirming each candidate.
    Literals(AhoCorasick, Vec<u32>),
    Look(u32, LookSpans),
}

impl Engine {
    fn new(members: Vec<Member>) -> Result<Engine, String> {
        let mut searchers = Vec::new();
        let mut regexes = Vec::new();
        let mut literals: [Vec<(String, u32)>; 2] = [Vec::new(), Vec::new()];
        for m in members {
            match (&m.spans, &m.literal) {
                (Some(spans), _) => searchers.push(Searcher::Look(m.index, LookSpans::new(spans)?)),
                (None, Some((text, ci))) => literals[*ci as usize].push((text.clone(), m.index)),
                (None, None) => regexes.push(m),
            }
        }
        for (ci, list) in literals.into_iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            // A DFA within the literal sets' budgets (`literal::Automata`: the builder takes a
            // slower NFA past 100 patterns; the replace bench's 1000-literal row measures it).
            let fits = literal::dfa_estimate(&list, ci == 1) <= literal::DFA_BUDGET
                && literal::dfa_build_estimate(&list) <= literal::DFA_BUILD_BUDGET;
            let build = |kind: Option<AhoCorasickKind>| {
                AhoCorasickBuilder::new()
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .ascii_case_insensitive(ci == 1)
                    .kind(kind)
                    .build(list.iter().map(|(t, _)| t))
            };
            let ac = build(fits.then_some(AhoCorasickKind::DFA)).or_else(|_| build(None)).map_err(|e| e.to_string())?;
            searchers.push(Searcher::Literals(ac, list.iter().map(|(_, i)| *i).collect()));
        }
        if !regexes.is_empty() {
            let config = Regex::config()
                .match_kind(MatchKind::LeftmostFirst)
                // No empty match inside a character (an ASCII `\B` between two bytes of é).
                .utf8_empty(true)
                // Each match's bounds, and no more: `None` would leave only whether one matched.
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::Implicit)
                .nfa_size_limit(Some(nfa_limit(SET_SIZE)))
                .onepass_size_limit(Some(PATTERN_SIZE))
                .hybrid_cache_capacity(UNION_CACHE);
            let sources: Vec<&str> = regexes.iter().map(|m| m.source.as_str()).collect();
            let re = Regex::builder()
                .configure(config)
                .syntax(syntax_config())
                .build_many(&sources)
                .map_err(|e| message(&e))?;
            searchers
                .push(Searcher::Regex(ResettingRegex::new(re, UNION_CACHE), regexes.iter().map(|m| m.index).collect()));
        }
        Ok(Engine { searchers })
    }

    fn memory_usage(&self) -> usize {
        self.searchers
            .iter()
            .map(|s| match s {
                Searcher::Regex(re, _) => re.regex().memory_usage() + UNION_CACHE,
                Searcher::Literals(ac, _) => ac.memory_usage(),
                Searcher::Look(_, l) => l.memory_usage(),
            })
            .sum()
    }
}

/// The union of a matcher's patterns, for `replace`.
pub struct Union {
    /// Every pattern on the text as it is: the text has no astral character.
    plain: Engine,
    /// For a text with astral characters: the members that read code units, on the units
    /// view, and those that read code points, on the text.
    astral: OnceLock<Result<(Engine, Engine), String>>,
    specs: Vec<PatternSpec>,
    /// Per pattern: an empty match moves one code point on, not one code unit.
    by_code_point: Vec<bool>,
    /// Whether any pattern has a capturing group (a replacement's `$1` would name one).
    groups: bool,
}

/// One pattern's plan for `replace`: its Rust source (and look-around spans) on the text,
/// whether it reads code points, and its capturing groups.
fn plan_of(spec: &PatternSpec) -> Result<(Member, bool, u32), String> {
    let plan = pattern::classify(&spec.pattern, spec.kind, spec.case_insensitive, spec.syntax, spec.glob.as_ref())?;
    let member = |plan: Plan, index| match plan {
        Plan::Literal { place, text, ci } => Member {
            index,
            source: literal_regex(place, &text, if ci { "(?i-u)" } else { "" }),
            spans: None,
            literal: (place == Place::Contains && !text.is_empty()).then_some((text, ci)),
        },
        Plan::Regex(r) => Member { index, source: r.source, spans: r.spans, literal: None },
    };
    let (code_points, groups) = match (spec.kind, spec.syntax) {
        (Kind::Regex, Syntax::Js) => {
            let (source, flags) = pattern::regex_literal(&spec.pattern).unwrap_or((&spec.pattern, ""));
            (Flags::parse(flags)?.unicode, js_regex::parse::capture_groups(source))
        }
        (Kind::Regex, Syntax::Rust) => {
            let hir = regex_syntax::parse(&spec.pattern).map_err(|e| e.to_string())?;
            (true, hir.properties().explicit_captures_len() as u32)
        }
        (Kind::Wildcard, _) => (true, 0),
        _ => (false, 0),
    };
    Ok((member(plan, 0), code_points, groups))
}

/// One pattern's member for a text with astral characters, and the view it reads.
fn astral_member(spec: &PatternSpec, index: u32, code_points: bool) -> Result<(Member, View), String> {
    // Without `u`, a regex reads code units: compiled for the units view whatever it holds.
    if (spec.kind, spec.syntax, code_points) == (Kind::Regex, Syntax::Js, false) {
        let (source, flags) = pattern::regex_literal(&spec.pattern).unwrap_or((&spec.pattern, ""));
        let mut flags = Flags::parse(flags)?;
        flags.ignore_case |= spec.case_insensitive;
        let t = js_regex::translate_units(source, flags)?;
        return Ok((Member { index, source: t.exists, spans: t.spans, literal: None }, View::Units));
    }
    let plan = pattern::classify(&spec.pattern, spec.kind, spec.case_insensitive, spec.syntax, spec.glob.as_ref())?;
    let units = matches!(&plan, Plan::Regex(r) if r.units);
    // A literal reads code units too; without an astral character of its own, its source is
    // the same on the units view (where an empty one matches between two halves).
    let literal = matches!(spec.kind, Kind::Exact | Kind::Prefix | Kind::Suffix | Kind::Contains)
        && !spec.pattern.chars().any(|c| c as u32 > 0xFFFF);
    let view = if units || literal { View::Units } else { View::Text };
    Ok((Member { index, ..plan_of(spec)?.0 }, view))
}

impl Union {
    /// Compiles the union of `specs` (already accepted by `Matcher::new`); errors in words.
    pub fn new(specs: &[PatternSpec]) -> Result<Union, String> {
        let mut members = Vec::new();
        let mut by_code_point = Vec::new();
        let mut groups = false;
        for (i, spec) in specs.iter().enumerate() {
            let (member, code_points, g) = plan_of(spec)?;
            members.push(Member { index: i as u32, ..member });
            by_code_point.push(code_points);
            groups |= g > 0;
        }
        Ok(Union {
            plain: Engine::new(members)?,
            astral: OnceLock::new(),
            specs: specs.to_vec(),
            by_code_point,
            groups,
        })
    }

    pub fn has_groups(&self) -> bool {
        self.groups
    }

    /// Heap bytes held, with one thread's caches at their most.
    pub fn memory_usage(&self) -> usize {
        let astral = match self.astral.get() {
            Some(Ok((a, b))) => a.memory_usage() + b.memory_usage(),
            _ => 0,
        };
        self.plain.memory_usage() + astral
    }

    fn astral(&self) -> Result<&(Engine, Engine), String> {
        self.astral
            .get_or_init(|| {
                let (mut on_units, mut on_text) = (Vec::new(), Vec::new());
                for (i, spec) in self.specs.iter().enumerate() {
                    let (member, view) = astral_member(spec, i as u32, self.by_code_point[i])?;
                    match view {
                        View::Units => on_units.push(member),
                        View::Text => on_text.push(member),
                    }
                }
                Ok((Engine::new(on_units)?, Engine::new(on_text)?))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The matches in `text` (UTF-8), as (pattern, start, end) in UTF-16 code units, in
    /// order; `Err(None)` past `limit` of them, `Err(Some(message))` when the astral engines
    /// cannot be built.
    pub fn find(&self, text: &[u8], limit: usize) -> Result<Vec<(u32, usize, usize)>, Option<String>> {
        // Substring literals alone: Aho–Corasick's own leftmost-first iteration is the union's
        // answer (none is empty), one pass without a search started per match. On a text
        // with astral characters too: a literal (no lone surrogate, ASCII case folding only)
        // matches whole characters, so its matches in the UTF-8 are V8's in the units, and
        // no empty match can fall between two halves of one.
        if let [Searcher::Literals(ac, ids)] = self.plain.searchers.as_slice() {
            let mut found = Vec::new();
            for m in ac.find_iter(text) {
                if found.len() >= limit {
                    return Err(None);
                }
                found.push((ids[m.pattern().as_usize()], m.start(), m.end()));
            }
            to_code_units(text, &mut found);
            return Ok(found);
        }
        if !units::has_astral(text) {
            let mut found = walk(&mut [Side::new(&self.plain, text, None)], text, &self.by_code_point, limit)?;
            to_code_units(text, &mut found);
            return Ok(found);
        }
        let (on_units, on_text) = self.astral().map_err(Some)?;
        let view = units::to_units(text);
        let map = AstralMap::new(text);
        let mut sides = [Side::new(on_units, &view, None), Side::new(on_text, text, Some(&map))];
        let mut found = walk(&mut sides, &view, &self.by_code_point, limit)?;
        to_code_units(&view, &mut found);
        Ok(found)
    }
}

/// Positions of a text with astral characters in its units view: each astral character's
/// 4 bytes there are 6.
struct AstralMap {
    /// Offsets in the text of its astral characters, ascending.
    at: Vec<usize>,
}

impl AstralMap {
    fn new(text: &[u8]) -> AstralMap {
        let mut at = Vec::new();
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            let astral = b >= 0xF0 && text.get(i..i + 4).and_then(|s| std::str::from_utf8(s).ok()).is_some();
            if astral {
                at.push(i);
                i += 4;
            } else {
                i += 1;
            }
        }
        AstralMap { at }
    }

    /// The units view's offset of text offset `i` (a character boundary).
    fn to_units(&self, i: usize) -> usize {
        i + 2 * self.at.partition_point(|&a| a < i)
    }

    /// The text offset of units view offset `u`, or of the next character boundary when `u`
    /// falls inside an astral character.
    fn to_text(&self, u: usize) -> usize {
        // The k-th astral character starts at `at[k] + 2k` in the units view, ascending in k:
        // `k` is how many start before `u`.
        let (mut lo, mut hi) = (0, self.at.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.at[mid] + 2 * mid < u {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        match lo.checked_sub(1) {
            Some(last) if u < self.at[last] + 2 * last + 6 => self.at[last] + 4,
            _ => u - 2 * lo,
        }
    }
}

/// One engine on its view of the text, with its searchers' cursors for one walk.
struct Side<'a> {
    engine: &'a Engine,
    view: &'a [u8],
    /// Set when `view` is the text and positions are compared in the units view.
    map: Option<&'a AstralMap>,
    cursors: Vec<Cursor>,
}

/// A searcher's next match in a walk: `None` until searched, then the match (pattern, start
/// and end in walk positions, and for a look-around pattern its view start and branch), or
/// none from there on. Valid while the walk's position has not passed its start.
#[derive(Default)]
struct Cursor {
    next: Option<Option<Next>>,
    /// A look-around pattern's marks for this text.
    marks: Option<LookMarks>,
}

#[derive(Clone, Copy)]
struct Next {
    pattern: u32,
    start: usize,
    /// For a look-around match, found when it wins (`span_at`).
    end: Option<usize>,
    view_start: usize,
    branch: usize,
}

impl<'a> Side<'a> {
    fn new(engine: &'a Engine, view: &'a [u8], map: Option<&'a AstralMap>) -> Side<'a> {
        let cursors = (engine.searchers.iter())
            .map(|s| Cursor {
                next: None,
                marks: match s {
                    Searcher::Look(_, look) => Some(look.marks(view)),
                    _ => None,
                },
            })
            .collect();
        Side { engine, view, map, cursors }
    }

    fn to_walk(&self, i: usize) -> usize {
        self.map.map_or(i, |m| m.to_units(i))
    }

    fn to_view(&self, i: usize) -> usize {
        self.map.map_or(i, |m| m.to_text(i))
    }

    /// Searcher `k`'s next match from walk position `at`, searched anew when stale.
    fn next(&mut self, k: usize, at: usize) -> Option<Next> {
        let stale = match self.cursors[k].next {
            Some(Some(n)) => n.start < at,
            Some(None) => false,
            None => true,
        };
        if stale {
            let from = self.to_view(at);
            let found = if from > self.view.len() {
                None
            } else {
                match &self.engine.searchers[k] {
                    Searcher::Regex(re, ids) => re.search(&Input::new(self.view).range(from..)).map(|m| Next {
                        pattern: ids[m.pattern().as_usize()],
                        start: self.to_walk(m.start()),
                        end: Some(self.to_walk(m.end())),
                        view_start: m.start(),
                        branch: 0,
                    }),
                    Searcher::Literals(ac, ids) => {
                        ac.find(aho_corasick::Input::new(self.view).range(from..)).map(|m| Next {
                            pattern: ids[m.pattern().as_usize()],
                            start: self.to_walk(m.start()),
                            end: Some(self.to_walk(m.end())),
                            view_start: m.start(),
                            branch: 0,
                        })
                    }
                    Searcher::Look(pattern, look) => {
                        let marks = self.cursors[k].marks.as_ref()?;
                        look.next_start(self.view, marks, from).map(|(v, branch)| Next {
                            pattern: *pattern,
                            start: self.to_walk(v),
                            end: None,
                            view_start: v,
                            branch,
                        })
                    }
                }
            };
            self.cursors[k].next = Some(found);
        }
        self.cursors[k].next.flatten()
    }

    /// The end (walk position) of `next`, searcher `k`'s match.
    fn end(&self, k: usize, next: Next) -> Option<usize> {
        match (&self.engine.searchers[k], next.end) {
            (_, Some(end)) => Some(end),
            (Searcher::Look(_, look), None) => {
                look.span_at(self.view, next.view_start, next.branch).map(|(_, e)| self.to_walk(e))
            }
            _ => None,
        }
    }
}

/// The matches from the start of `walk_view` (the view positions are compared in), each
/// side's earliest in turn; `Err(None)` past `limit`.
fn walk(
    sides: &mut [Side<'_>],
    walk_view: &[u8],
    by_code_point: &[bool],
    limit: usize,
) -> Result<Vec<(u32, usize, usize)>, Option<String>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at <= walk_view.len() {
        // The earliest start; at one start, the lowest pattern.
        let mut best: Option<(Next, usize, usize)> = None;
        for (i, side) in sides.iter_mut().enumerate() {
            for k in 0..side.cursors.len() {
                if let Some(n) = side.next(k, at) {
                    if best.is_none_or(|(b, _, _)| (n.start, n.pattern) < (b.start, b.pattern)) {
                        best = Some((n, i, k));
                    }
                }
            }
        }
        let Some((next, i, k)) = best else { break };
        let end = sides[i].end(k, next).ok_or_else(|| Some("a look-around match was lost".to_string()))?;
        if out.len() >= limit {
            return Err(None);
        }
        out.push((next.pattern, next.start, end));
        at = if end > next.start { end } else { advance(walk_view, end, by_code_point[next.pattern as usize]) };
    }
    Ok(out)
}

/// One code unit (or code point) on from `at` in a UTF-8 or units view: a character's bytes,
/// or both halves of a surrogate pair's when `code_point`.
fn advance(view: &[u8], at: usize, code_point: bool) -> usize {
    let Some(&lead) = view.get(at) else { return at + 1 };
    let len = match lead {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    };
    let high = |i: usize| view.get(i) == Some(&0xED) && view.get(i + 1).is_some_and(|b| (0xA0..=0xAF).contains(b));
    let low = |i: usize| view.get(i) == Some(&0xED) && view.get(i + 1).is_some_and(|b| (0xB0..=0xBF).contains(b));
    if code_point && high(at) && low(at + 3) {
        return at + 6;
    }
    (at + len).min(view.len() + 1).max(at + 1)
}

/// Byte offsets of a UTF-8 or units view to UTF-16 code units, in place, in one pass: the
/// matches are in order and do not overlap, so their offsets never go back.
fn to_code_units(view: &[u8], found: &mut [(u32, usize, usize)]) {
    if view.is_ascii() {
        return;
    }
    let mut walk = UnitWalk::new(view);
    for m in found.iter_mut() {
        m.1 = walk.to(m.1);
        m.2 = walk.to(m.2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(pattern: &str, kind: Kind) -> PatternSpec {
        PatternSpec { pattern: pattern.into(), kind, case_insensitive: false, syntax: Syntax::Js, glob: None }
    }

    fn find(patterns: &[(&str, Kind)], text: &str) -> Vec<(u32, usize, usize)> {
        let specs: Vec<PatternSpec> = patterns.iter().map(|&(p, k)| spec(p, k)).collect();
        Union::new(&specs).unwrap().find(text.as_bytes(), 1000).unwrap()
    }

    #[test]
    fn the_leftmost_match_wins_then_the_lowest_pattern() {
        let r = Kind::Regex;
        // "abbb".replace(/ab|b+/g): "ab" at 0, then "bb" from 2.
        assert_eq!(find(&[("ab", r), ("b+", r)], "abbb"), [(0, 0, 2), (1, 2, 4)]);
        // At one position the lower pattern wins, even when shorter.
        assert_eq!(find(&[("a", r), ("ab", r)], "ab"), [(0, 0, 1)]);
        assert_eq!(find(&[("ab", r), ("a", r)], "ab"), [(0, 0, 2)]);
    }

    #[test]
    fn an_empty_match_moves_one_unit_on_and_may_follow_a_match() {
        // "abc".replace(/b*/g, "-") is "-a--c-": empty at 0, "b", empty at 2, empty at 3.
        assert_eq!(find(&[("b*", Kind::Regex)], "abc"), [(0, 0, 0), (0, 1, 2), (0, 2, 2), (0, 3, 3)]);
        // Without `u`, between the halves of an astral character; with it, not.
        assert_eq!(find(&[("x*", Kind::Regex)], "😀"), [(0, 0, 0), (0, 1, 1), (0, 2, 2)]);
        assert_eq!(find(&[("/x*/u", Kind::Regex)], "😀"), [(0, 0, 0), (0, 2, 2)]);
        assert_eq!(find(&[(r"\uDE00", Kind::Regex)], "a😀"), [(0, 2, 3)]);
    }

    #[test]
    fn look_around_patterns_take_their_place_in_the_order() {
        let r = Kind::Regex;
        let found = find(&[("(?<!x)a", r), ("a", r), ("b(?=c)", r)], "xa a bc b");
        assert_eq!(found, [(1, 1, 2), (0, 3, 4), (2, 5, 6)]);
        // On a text with astral characters too, in code units.
        let found = find(&[("(?<!x)a", r), ("😀", Kind::Contains)], "😀xa😀a");
        assert_eq!(found, [(1, 0, 2), (1, 4, 6), (0, 6, 7)]);
    }

    #[test]
    fn whole_text_kinds_match_the_whole_text() {
        assert_eq!(find(&[("a*b", Kind::Wildcard), ("x", Kind::Contains)], "axxb"), [(0, 0, 4)]);
        assert_eq!(find(&[("ab", Kind::Exact), ("b", Kind::Suffix)], "ab"), [(0, 0, 2)]);
        assert_eq!(find(&[("ab", Kind::Prefix), ("b", Kind::Suffix)], "abab"), [(0, 0, 2), (1, 3, 4)]);
    }

    #[test]
    fn the_walk_stops_past_the_limit() {
        let specs = [spec("a", Kind::Contains)];
        let u = Union::new(&specs).unwrap();
        assert!(matches!(u.find(&[b'a'; 100], 10), Err(None)));
        assert_eq!(u.find(&[b'a'; 10], 10).unwrap().len(), 10);
    }

    #[test]
    fn literals_alone_on_a_text_with_astral_characters_match_as_the_units_walk_does() {
        let literal = |p: &str, ci| PatternSpec { case_insensitive: ci, ..spec(p, Kind::Contains) };
        let texts = ["a😀b😀ab", "😀😀", "ab😀AB😀😀b", "😀x😀ab", "b"];
        for ci in [false, true] {
            // Case-insensitive, only ASCII literals stay literals (others fold as regexes do).
            let specs = match ci {
                false => vec![literal("😀b", ci), literal("ab", ci), literal("b", ci), literal("😀😀", ci)],
                true => vec![literal("xa", ci), literal("ab", ci), literal("b", ci)],
            };
            let u = Union::new(&specs).unwrap();
            assert!(matches!(u.plain.searchers.as_slice(), [Searcher::Literals(..)]));
            for text in texts {
                // The walk over the units view, which the literals alone skip.
                let (on_units, on_text) = u.astral().unwrap();
                let view = units::to_units(text.as_bytes());
                let map = AstralMap::new(text.as_bytes());
                let mut sides = [Side::new(on_units, &view, None), Side::new(on_text, text.as_bytes(), Some(&map))];
                let mut walked = walk(&mut sides, &view, &u.by_code_point, 1000).unwrap();
                to_code_units(&view, &mut walked);
                assert_eq!(u.find(text.as_bytes(), 1000).unwrap(), walked, "{text}, case-insensitive {ci}");
            }
        }
        // In code units: "a😀b😀ab" is a, 😀 (2 units), b, 😀, a, b.
        let u = Union::new(&[literal("😀b", false), literal("ab", false)]).unwrap();
        assert_eq!(u.find("a😀b😀ab".as_bytes(), 1000).unwrap(), [(0, 1, 4), (1, 6, 8)]);
    }

    #[test]
    fn astral_positions_map_both_ways() {
        let text = "a😀b😀".as_bytes();
        let map = AstralMap::new(text);
        assert_eq!([0, 1, 5, 6, 10].map(|i| map.to_units(i)), [0, 1, 7, 8, 14]);
        assert_eq!([0, 1, 4, 7, 8, 11, 14].map(|u| map.to_text(u)), [0, 1, 5, 5, 6, 10, 10]);
    }
}
