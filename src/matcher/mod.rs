//! Multi-pattern string matching, with no JavaScript types: patterns compiled once into the
//! cheapest structure for each (see `pattern.rs`), then any text matched in time linear in
//! its length, however many patterns there are. Literals go to length indexes, Aho–Corasick
//! and the four-byte filter, everything else to one regex set; CONTRIBUTING.md maps each
//! file from its own header.

pub mod any;
pub mod cache;
pub mod glob;
pub mod grams;
pub mod js_regex;
pub mod lines;
pub mod literal;
pub mod offsets;
pub mod pattern;
pub mod place;
pub mod regex_config;
pub mod regex_set;
pub mod replace;
pub mod resetting_regex;

use crate::error::{Error, ErrorKind, Result};
use any::Any;
pub use glob::{GlobRegex, IgnoreGlob};
use js_regex::units;
use literal::{Anchor, ContainsSet, LengthIndex};
pub use pattern::Kind;
pub use pattern::Place;
use pattern::Plan;
pub use pattern::Syntax;
use regex_set::{Member, RegexGroup};
use rustc_hash::FxHashMap;

/// Most patterns one matcher takes.
pub const MAX_PATTERNS: usize = 100_000;
/// Longest pattern, in UTF-8 bytes.
pub const MAX_PATTERN_BYTES: usize = 64 * 1024;
/// Most bytes all of one matcher's patterns may hold together.
pub const MAX_TOTAL_PATTERN_BYTES: usize = 16 << 20;
/// Most matches one `find_all` returns.
pub const MAX_FIND_ALL: usize = 100_000;
/// Most literals the line filter (`Matcher::line_filter`) holds; past it, lines are all tested.
pub const LINE_FILTER_LITERALS: usize = 4096;
/// Bytes of the text `Matcher::line_filter` counts byte pairs in.
const LINE_FILTER_SAMPLE: usize = 64 << 10;
/// Fewest bytes of a literal the line filter looks for (all of a shorter one).
const LINE_FILTER_TAIL: usize = 3;

/// Each literal from its byte pair that is rarest in the first `LINE_FILTER_SAMPLE` bytes of
/// `sample` on (the first such pair; at least `LINE_FILTER_TAIL` bytes kept), without
/// repeats. A text holding a literal holds that part of it; the filter's search (Teddy, by
/// the first bytes of what it looks for) then stops less often where the literal's start is
/// common and its end is not: `"status":500` in a JSON log is looked for as `:500`.
fn rare_tails(literals: Vec<Vec<u8>>, sample: &[u8]) -> Vec<Vec<u8>> {
    let sample = &sample[..sample.len().min(LINE_FILTER_SAMPLE)];
    let mut pairs = vec![0u32; 1 << 16];
    for w in sample.windows(2) {
        pairs[usize::from(w[0]) << 8 | usize::from(w[1])] += 1;
    }
    let mut seen = std::collections::HashSet::with_capacity(literals.len());
    literals
        .into_iter()
        .filter_map(|lit| {
            let from = (0..lit.len().saturating_sub(LINE_FILTER_TAIL) + 1)
                .min_by_key(|&i| lit.get(i + 1).map_or(0, |&b| pairs[usize::from(lit[i]) << 8 | usize::from(b)]))
                .unwrap_or(0);
            let tail = lit[from..].to_vec();
            seen.insert(tail.clone()).then_some(tail)
        })
        .collect()
}

/// One pattern as the caller gave it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    pub pattern: String,
    pub kind: Kind,
    pub case_insensitive: bool,
    /// The dialect of `Regex` patterns.
    pub syntax: Syntax,
    /// A `Glob` pattern's regex, from picomatch (`lib/patterns.js` asks it).
    pub glob: Option<GlobRegex>,
}

/// A compiled set of patterns. `Sync`: one matcher serves any number of threads.
pub struct Matcher {
    size: u32,
    /// The exact, prefix and suffix literals of either case mode: the indexes that hold
    /// any (a call walks no empty one).
    anchored: Vec<LengthIndex>,
    contains: [Option<ContainsSet>; 2],
    regex: Option<RegexGroup>,
    /// JavaScript patterns that read UTF-16 code units: they run on the units view.
    regex_units: Option<RegexGroup>,
    /// Every regex, and the literals when they are few, in one `Any`, for `test` (see `Quick`).
    quick: Option<Quick>,
    /// The plans of a matcher of a few literal patterns only (at most `MAX_JS_LITERALS`, of
    /// which at most `MAX_JS_CONTAINS` substrings; two or more hold at most
    /// `MAX_JS_LITERAL_BYTES` together), in pattern order: callers may then answer with
    /// string comparisons of their own and skip the call into native.
    literals: Option<Vec<SoleLiteral>>,
    /// The patterns as given, for the union `replace` builds on its first call.
    specs: Vec<PatternSpec>,
    /// Literals one of which every match of every pattern starts with, for skipping lines
    /// (`lines.rs`); `None` inside when some pattern has none. Built on first use.
    line_filter: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>>,
    union: std::sync::OnceLock<std::result::Result<replace::Union, String>>,
    /// picomatch's `ignore` (see `Veto`), one per distinct ignore list.
    vetoes: Vec<Veto>,
}

/// picomatch's `ignore` for some glob patterns: a text its globs match (as picomatch's
/// matcher for them, with the patterns' options) matches none of `patterns`. A glob matches
/// the whole text, so the veto is one `test` of the text. Kept apart from the patterns'
/// automata, which the complement of an ignore glob would multiply (`src/**` less
/// `**/node_modules/**` needs more states than the budget allows as one automaton).
struct Veto {
    ignored: Box<Matcher>,
    /// Ascending.
    patterns: Vec<u32>,
}

/// Most patterns a matcher may have for its literals to be handed to JavaScript: past 8,
/// one native call beats a JS `RegExp` union of the literals (docs/design/few-literals.md).
pub const MAX_JS_LITERALS: usize = 8;
/// Most bytes those literals may hold together (V8 refuses very large regexes).
pub const MAX_JS_LITERAL_BYTES: usize = 4096;
/// Most substring (`contains`) literals among them: five or more case-insensitive ones are
/// answered here, by the four-byte filter at every few positions, faster than V8's union
/// (random literals on short texts: five native ahead, four a tie, three the union ahead).
pub const MAX_JS_CONTAINS: usize = 4;
/// Most case-sensitive substrings among them: from four on, Teddy answers them here
/// (`literal::TEDDY_MAX`). On random sets and short texts, three were answered faster by
/// `lib/literals.js`'s union, four were a tie natively, and V8's union of four varied
/// widely by the set.
pub const MAX_JS_CASE_SENSITIVE_CONTAINS: usize = 3;

/// `test`'s other way, for a text without astral characters (its own units view): every
/// regex pattern, and the literals when there are at most `QUICK_LITERALS`, in one `Any`:
/// at most two passes, one of them from byte 0 that ends a few bytes in, where the
/// structures take one each (length index, Aho–Corasick, regex set, code-unit set).
/// Its lazy DFA is fast once its states are built and slower while it builds them, on
/// texts unlike any before; measured both ways in the README (isbot's section).
struct Quick {
    any: Any,
    /// Whether `any` holds the literals; if not, the literal structures run first.
    with_literals: bool,
}

impl Quick {
    fn test(&self, m: &Matcher, text: &[u8]) -> bool {
        (!self.with_literals && m.test_literals(text)) || self.any.is_match(text)
    }
}

/// Most literals joined with the regexes for `test` (`Matcher::quick`). Past a few hundred,
/// Aho–Corasick beats a lazy DFA: the crawler list's 1,477 literals filled a 30 MB cache.
pub const QUICK_LITERALS: usize = 256;

/// One literal pattern's plan. `ci`: ASCII case-insensitive (`text` is ASCII).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoleLiteral {
    pub place: Place,
    pub text: String,
    pub ci: bool,
}

/// What identifies a pattern's ignore list: the list and the options it is read with, not the
/// pattern's own regex.
fn without_source(g: &GlobRegex) -> GlobRegex {
    GlobRegex { source: String::new(), flags: String::new(), ..g.clone() }
}

fn invalid(index: usize, pattern: &str, message: &str) -> Error {
    let shown: String = pattern.chars().take(60).collect();
    let ellipsis = if shown.len() < pattern.len() { "…" } else { "" };
    Error::new(ErrorKind::InvalidPattern, format!("Invalid pattern at index {index} ('{shown}{ellipsis}'): {message}"))
}

/// The error for patterns that hold more than `MAX_TOTAL_PATTERN_BYTES` together.
pub fn too_many_bytes(total: usize) -> Error {
    Error::out_of_range(format!(
        "The patterns are too large together: {total} bytes or more. They must hold at most {MAX_TOTAL_PATTERN_BYTES} bytes"
    ))
}

impl Matcher {
    /// Compiles `specs`. Errors name the first invalid pattern's index.
    /// Cost: linear in the patterns' total length, plus the regex set's compilation.
    pub fn new(specs: &[PatternSpec]) -> Result<Matcher> {
        if specs.len() > MAX_PATTERNS {
            return Err(Error::range("patterns.length", format_args!("<= {MAX_PATTERNS}"), specs.len()));
        }
        let mut m = Matcher {
            size: specs.len() as u32,
            anchored: Vec::new(),
            contains: [None, None],
            regex: None,
            regex_units: None,
            quick: None,
            literals: None,
            specs: specs.to_vec(),
            union: std::sync::OnceLock::new(),
            line_filter: std::sync::OnceLock::new(),
            vetoes: Vec::new(),
        };
        let total: usize = specs.iter().map(|s| s.pattern.len()).sum();
        if total > MAX_TOTAL_PATTERN_BYTES {
            return Err(too_many_bytes(total));
        }
        // Indexed by `ci as usize`.
        let mut exact = [LengthIndex::new(Anchor::Whole, false), LengthIndex::new(Anchor::Whole, true)];
        let mut prefix = [LengthIndex::new(Anchor::Start, false), LengthIndex::new(Anchor::Start, true)];
        let mut suffix = [LengthIndex::new(Anchor::End, false), LengthIndex::new(Anchor::End, true)];
        let mut contains: [Vec<(String, u32)>; 2] = [Vec::new(), Vec::new()];
        let mut literals = Some(Vec::new());
        let mut literal_bytes = 0;
        let mut regexes = Vec::new();
        let mut regexes_units = Vec::new();
        let mut quick_literals = Vec::new();
        // Distinct ignore lists (with the options they are read with) and their patterns.
        let mut vetoes: Vec<(GlobRegex, Vec<u32>)> = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            if spec.pattern.len() > MAX_PATTERN_BYTES {
                return Err(Error::range(
                    format_args!("patterns[{i}]"),
                    format_args!("at most {MAX_PATTERN_BYTES} bytes long"),
                    format_args!("{} bytes", spec.pattern.len()),
                ));
            }
            let index = i as u32;
            let glob = match &spec.glob {
                Some(g) if !g.ignore.is_empty() => {
                    let without = GlobRegex { ignore: Vec::new(), ..g.clone() };
                    match vetoes.iter_mut().find(|(of, _)| *of == without_source(g)) {
                        Some((_, list)) => list.push(index),
                        None => vetoes.push((without_source(g), vec![index])),
                    }
                    Some(without)
                }
                other => other.clone(),
            };
            let plan = pattern::classify(&spec.pattern, spec.kind, spec.case_insensitive, spec.syntax, glob.as_ref())
                .map_err(|message| invalid(i, &spec.pattern, &message))?;
            match (&plan, &mut literals) {
                (Plan::Literal { place, text, ci }, Some(list)) if specs.len() <= MAX_JS_LITERALS => {
                    literal_bytes += text.len();
                    list.push(SoleLiteral { place: *place, text: text.clone(), ci: *ci });
                }
                _ => literals = None,
            }
            if let Plan::Literal { place, text, ci } = &plan {
                if quick_literals.len() <= QUICK_LITERALS {
                    // `ci` folds ASCII only, as the literal sets do.
                    quick_literals.push(pattern::literal_regex(*place, text, if *ci { "(?i-u)" } else { "" }));
                }
            }
            match plan {
                Plan::Literal { place, text, ci } => match place {
                    Place::Exact => exact[ci as usize].insert(&text, index),
                    Place::Prefix => prefix[ci as usize].insert(&text, index),
                    Place::Suffix => suffix[ci as usize].insert(&text, index),
                    Place::Contains => contains[ci as usize].push((text, index)),
                },
                Plan::Regex(plan) => {
                    let member = Member { source: plan.source, index, spans: plan.spans };
                    if plan.units {
                        regexes_units.push(member);
                    } else {
                        regexes.push(member);
                    }
                }
            }
        }
        // One literal goes to JavaScript at any length (`lib/literals.js` keeps long case-insensitive
        // ones native itself); a list, within the byte budget and at most `MAX_JS_CONTAINS`
        // substrings.
        m.anchored = [exact, prefix, suffix].into_iter().flatten().filter(|ix| !ix.is_empty()).collect();
        for (of, patterns) in vetoes {
            let specs: Vec<PatternSpec> = of
                .ignore
                .iter()
                .map(|ig| PatternSpec {
                    pattern: ig.glob.clone(),
                    kind: Kind::Glob,
                    case_insensitive: false,
                    syntax: Syntax::Js,
                    glob: Some(GlobRegex {
                        source: ig.source.clone(),
                        flags: ig.flags.clone(),
                        match_base: of.match_base,
                        windows: of.windows,
                        ignore: Vec::new(),
                    }),
                })
                .collect();
            let first = patterns[0] as usize;
            let ignored = Matcher::new(&specs)
                .map_err(|e| Error::new(e.kind, format!("patterns[{first}].ignore: {}", e.message)))?;
            m.vetoes.push(Veto { ignored: Box::new(ignored), patterns });
        }
        // A veto is native: no answer from JavaScript's own comparisons.
        let literals = if m.vetoes.is_empty() { literals } else { None };
        m.literals = literals.filter(|l| {
            let substrings = l.iter().filter(|l| l.place == Place::Contains);
            let case_sensitive = substrings.clone().filter(|l| !l.ci).count();
            l.len() == 1
                || (substrings.count() <= MAX_JS_CONTAINS
                    && case_sensitive <= MAX_JS_CASE_SENSITIVE_CONTAINS
                    && literal_bytes <= MAX_JS_LITERAL_BYTES)
        });
        for ci in [false, true] {
            m.contains[ci as usize] = ContainsSet::new(&contains[ci as usize], ci);
        }
        let compile_error = |e: regex_config::CompileError| match e.pattern {
            Some(i) => invalid(i as usize, &specs[i as usize].pattern, &e.message),
            None => Error::new(
                ErrorKind::InvalidPattern,
                format!(
                    "Invalid patterns: together they compile to more than the {} MiB budget",
                    regex_config::SET_SIZE >> 20
                ),
            ),
        };
        let literal_count = quick_literals.len();
        let with_literals = literal_count <= QUICK_LITERALS;
        let passes = [with_literals && literal_count > 0, !regexes.is_empty(), !regexes_units.is_empty()];
        let joined = passes.iter().filter(|&&p| p).count() >= 2;
        // The groups hand over their members parsed, for the joined set.
        let mut hirs = Vec::new();
        m.regex = RegexGroup::new(regexes, joined.then_some(&mut hirs)).map_err(compile_error)?;
        m.regex_units = RegexGroup::new(regexes_units, joined.then_some(&mut hirs)).map_err(compile_error)?;
        // A member that may match inside a character needs its own confirmation (`RegexGroup::
        // is_match`), which a joined automaton cannot give: then no quick one.
        let splits = [&m.regex, &m.regex_units].into_iter().flatten().any(RegexGroup::may_split);
        if joined && !splits {
            let literals: Vec<&str> =
                if with_literals { quick_literals.iter().map(String::as_str).collect() } else { Vec::new() };
            // A set the budget refuses joined was accepted apart: it keeps the structures only.
            m.quick = regex_config::parse(&literals)
                .and_then(|parsed| {
                    hirs.extend(parsed);
                    Any::from_hirs(hirs)
                })
                .ok()
                .map(|any| Quick { any, with_literals });
        }
        Ok(m)
    }

    /// Number of patterns.
    pub fn len(&self) -> u32 {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Heap bytes this matcher holds (automata, tables, and one thread's regex caches at
    /// their most): what the binding reports to V8's garbage collector.
    pub fn memory_usage(&self) -> usize {
        let anchored: usize = self.anchored.iter().map(|ix| ix.memory_usage()).sum();
        let contains: usize = self.contains.iter().flatten().map(|c| c.memory_usage()).sum();
        let regex: usize = self.groups().map(|(r, _)| r.memory_usage()).sum::<usize>()
            + self.quick.as_ref().map_or(0, |q| q.any.memory_usage());
        let vetoes: usize = self.vetoes.iter().map(|v| v.ignored.memory_usage() + v.patterns.len() * 4).sum();
        std::mem::size_of::<Self>() + anchored + contains + regex + vetoes
    }

    /// What the binding has reported to V8 for this matcher: `memory_usage`, and the union's
    /// once `replace` has built it.
    pub fn reported_memory(&self) -> usize {
        self.memory_usage() + self.union.get().and_then(|u| u.as_ref().ok()).map_or(0, |u| u.memory_usage())
    }

    /// The literal, when this matcher is exactly one literal pattern (see `SoleLiteral`).
    pub fn sole_literal(&self) -> Option<&SoleLiteral> {
        self.literals.as_deref().and_then(|l| if let [one] = l { Some(one) } else { None })
    }

    /// Every pattern's literal, in order, when the matcher is a few literals only.
    pub fn literals(&self) -> Option<&[SoleLiteral]> {
        self.literals.as_deref()
    }

    /// The regex groups, each with whether it reads the units view.
    fn groups(&self) -> impl Iterator<Item = (&RegexGroup, bool)> {
        self.regex.iter().map(|r| (r, false)).chain(self.regex_units.iter().map(|r| (r, true)))
    }

    fn anchored(&self) -> impl Iterator<Item = &LengthIndex> {
        self.anchored.iter()
    }

    /// Whether any pattern matches `text`. Cheapest structures first; stops at the first hit.
    pub fn test(&self, text: &[u8]) -> bool {
        if !self.vetoes.is_empty() {
            return self.first(text).is_some();
        }
        if let Some(quick) = self.quick.as_ref().filter(|_| !units::has_astral(text)) {
            return quick.test(self, text);
        }
        self.test_structures(text)
    }

    /// `test` by the structures, one after another.
    fn test_structures(&self, text: &[u8]) -> bool {
        self.test_literals(text)
            || self.regex.as_ref().is_some_and(|r| r.is_match(text))
            || self.regex_units.as_ref().is_some_and(|r| r.is_match(&units::to_units(text)))
    }

    fn test_literals(&self, text: &[u8]) -> bool {
        self.anchored().any(|ix| ix.each_match(text, |_, _| true))
            || self.contains.iter().flatten().any(|c| c.is_match(text))
    }

    /// The lowest index of a matching pattern.
    pub fn first(&self, text: &[u8]) -> Option<u32> {
        if !self.vetoes.is_empty() {
            return self.matches(text).first().copied();
        }
        let mut best = u32::MAX;
        for ix in self.anchored() {
            ix.each_match(text, |p, _| {
                best = best.min(p);
                false
            });
        }
        for c in self.contains.iter().flatten() {
            c.each_occurrence(text, |p, _, _| best = best.min(p));
        }
        if let Some(found) = self.regex.as_ref().and_then(|r| r.first_below(text, best)) {
            best = found;
        }
        if let Some(found) = self.regex_units.as_ref().and_then(|r| r.first_below(&units::to_units(text), best)) {
            best = found;
        }
        (best != u32::MAX).then_some(best)
    }

    /// Every matching pattern's index, ascending, each once.
    pub fn matches(&self, text: &[u8]) -> Vec<u32> {
        let mut out = Vec::new();
        for ix in self.anchored() {
            ix.each_match(text, |p, _| {
                out.push(p);
                false
            });
        }
        for c in self.contains.iter().flatten() {
            c.each_occurrence(text, |p, _, _| out.push(p));
        }
        if let Some(r) = &self.regex {
            r.each_match(text, |p| out.push(p));
        }
        if let Some(r) = &self.regex_units {
            r.each_match(&units::to_units(text), |p| out.push(p));
        }
        out.sort_unstable();
        out.dedup();
        self.veto(text, &mut out, |&p| p);
        out
    }

    /// Drops from `found` what a veto refuses on `text` (`pattern` of each item).
    fn veto<T>(&self, text: &[u8], found: &mut Vec<T>, pattern: impl Fn(&T) -> u32) {
        for v in &self.vetoes {
            if found.iter().any(|f| v.patterns.binary_search(&pattern(f)).is_ok()) && v.ignored.test(text) {
                found.retain(|f| v.patterns.binary_search(&pattern(f)).is_err());
            }
        }
    }

    /// Every match as (pattern, start, end) in bytes: for each pattern its non-overlapping
    /// matches from the left (as JavaScript's `matchAll` finds them), ordered by start, then
    /// pattern. At most `MAX_FIND_ALL`.
    pub fn find_all(&self, text: &[u8]) -> Result<Vec<(u32, usize, usize)>> {
        self.find_all_in(text, false)
    }

    /// `find_all` with offsets in UTF-16 code units, `text` being a JavaScript string's
    /// UTF-8: a pattern without `u` may match between the two halves of an astral
    /// character, a position no byte offset names.
    pub fn find_all_utf16(&self, text: &[u8]) -> Result<Vec<(u32, usize, usize)>> {
        self.find_all_in(text, true)
    }

    fn find_all_in(&self, text: &[u8], utf16: bool) -> Result<Vec<(u32, usize, usize)>> {
        // Offsets of `found[from..]`, of `view`, rewritten as the caller asked.
        let convert = |found: &mut [(u32, usize, usize)], view: &[u8], units_view: bool| {
            let mut offsets: Vec<usize> = found.iter().flat_map(|&(_, s, e)| [s, e]).collect();
            if utf16 {
                offsets::view_to_utf16(view, &mut offsets);
            } else if units_view {
                units::to_text_offsets(text, &mut offsets);
            } else {
                return;
            }
            for (span, se) in found.iter_mut().zip(offsets.chunks(2)) {
                (span.1, span.2) = (se[0], se[1]);
            }
        };
        let too_many = || {
            Error::out_of_range(format!(
                "findAll found more than {MAX_FIND_ALL} matches; match fewer or narrower patterns, or use scanLines"
            ))
        };
        // Every source stops as soon as the list goes over the cap: work and memory stay
        // bounded by the cap, not by the text.
        let mut out = Vec::new();
        for ix in self.anchored() {
            ix.spans(text, &mut out);
        }
        if out.len() > MAX_FIND_ALL {
            return Err(too_many());
        }
        let mut last_end: FxHashMap<u32, usize> = FxHashMap::default();
        for c in self.contains.iter().flatten() {
            let within = c.try_each_occurrence(text, |p, s, e| {
                // One literal's occurrences come in order of start: keep each that starts at
                // or after the end of the last one kept.
                let end = last_end.entry(p).or_insert(0);
                if s >= *end {
                    out.push((p, s, e));
                    *end = e;
                }
                out.len() <= MAX_FIND_ALL
            });
            if !within {
                return Err(too_many());
            }
        }
        if let Some(r) = &self.regex {
            if !r.spans(text, &mut out, MAX_FIND_ALL) {
                return Err(too_many());
            }
        }
        convert(&mut out, text, false);
        if let Some(r) = &self.regex_units {
            let view = units::to_units(text);
            let from = out.len();
            if !r.spans(&view, &mut out, MAX_FIND_ALL) {
                return Err(too_many());
            }
            if utf16 || matches!(view, std::borrow::Cow::Owned(_)) {
                convert(&mut out[from..], &view, true);
            }
        }
        out.sort_unstable_by_key(|&(p, s, e)| (s, p, e));
        self.veto(text, &mut out, |&(p, _, _)| p);
        Ok(out)
    }
}

impl Matcher {
    /// The union `replace` searches with, and whether this call built it (its memory is then
    /// new). Built once, on first use; an error says why the patterns cannot be joined.
    pub fn union(&self) -> Result<(&replace::Union, bool)> {
        let built = self.union.get().is_none();
        match self.union.get_or_init(|| replace::Union::new(&self.specs)) {
            Ok(u) => Ok((u, built)),
            Err(e) => Err(Error::new(
                ErrorKind::InvalidPattern,
                format!("Invalid patterns: replace joins them into one regex, and it could not be built: {e}"),
            )),
        }
    }

    /// Literals one of which every match of every pattern holds, when each pattern has such
    /// a set: a text holds a match only where it holds one of them, so a line without one need
    /// not be tested. `None` when some pattern may match the empty string, reads the units
    /// view, or starts with anything (`\d+`). Built on first use, from `sample` (the text of
    /// that use): each literal is a part of what every match starts with (a case-insensitive
    /// literal's first bytes in every case, a regex's prefixes), from its byte pair rarest in
    /// `sample` on (`rare_tails`); at most `LINE_FILTER_LITERALS` literals.
    pub fn line_filter(&self, sample: &[u8]) -> Option<&aho_corasick::AhoCorasick> {
        self.line_filter
            .get_or_init(|| {
                use regex_syntax::hir::literal::{ExtractKind, Extractor};
                let mut literals: Vec<Vec<u8>> = Vec::new();
                for spec in &self.specs {
                    let plan = pattern::classify(
                        &spec.pattern,
                        spec.kind,
                        spec.case_insensitive,
                        spec.syntax,
                        spec.glob.as_ref(),
                    )
                    .ok()?;
                    match plan {
                        // A case-insensitive one by its first four bytes in every case: a
                        // line holding it holds one of them, and they stay few.
                        Plan::Literal { text, ci: true, .. } if !text.is_empty() => {
                            let head = &text.as_bytes()[..text.len().min(4)];
                            let mut variants = vec![Vec::new()];
                            for &b in head {
                                let cases = [b.to_ascii_lowercase(), b.to_ascii_uppercase()];
                                let cases = if cases[0] == cases[1] { &cases[..1] } else { &cases[..] };
                                variants = variants
                                    .iter()
                                    .flat_map(|v| cases.iter().map(move |&c| [v.as_slice(), &[c]].concat()))
                                    .collect();
                            }
                            literals.extend(variants);
                        }
                        Plan::Literal { text, .. } if !text.is_empty() => literals.push(text.into_bytes()),
                        Plan::Regex(r) if !r.units => {
                            let hir = regex_config::parse(&[r.source.as_str()]).ok()?.pop()?;
                            let mut extractor = Extractor::new();
                            extractor.kind(ExtractKind::Prefix).limit_total(64).limit_class(8);
                            let seq = extractor.extract(&hir);
                            for lit in seq.literals()? {
                                if lit.as_bytes().is_empty() {
                                    return None;
                                }
                                literals.push(lit.as_bytes().to_vec());
                            }
                        }
                        _ => return None,
                    }
                    if literals.len() > LINE_FILTER_LITERALS {
                        return None;
                    }
                }
                let literals = rare_tails(literals, sample);
                // Case as extracted (a few variants each): few literals then get Teddy's
                // prefilter, which folding ASCII case would turn off.
                aho_corasick::AhoCorasick::builder()
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .build(&literals)
                    .ok()
            })
            .as_ref()
    }

    /// What `text.replace(u, …)` replaces, `u` the union of the patterns in order with the `g`
    /// flag: (pattern, start, end) in UTF-16 code units, at most `MAX_FIND_ALL`. `text` is
    /// UTF-8 (a JavaScript string's).
    pub fn replace_spans(&self, text: &[u8]) -> Result<Vec<(u32, usize, usize)>> {
        if !self.vetoes.is_empty() {
            // The union's leftmost match at a place may be a vetoed pattern's, hiding another's.
            return Err(Error::invalid_value(
                "replace() is not supported on a matcher with picomatch's ignore: replace with a matcher made without it",
            ));
        }
        let (union, _) = self.union()?;
        union.find(text, MAX_FIND_ALL).map_err(|e| match e {
            None => Error::out_of_range(format!(
                "replace found more than {MAX_FIND_ALL} matches; match fewer or narrower patterns, or replace line by line (lines({{ replace }}))"
            )),
            Some(message) => Error::new(ErrorKind::InvalidPattern, format!("Invalid patterns: {message}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(pattern: &str, kind: Kind, ci: bool) -> PatternSpec {
        PatternSpec { pattern: pattern.into(), kind, case_insensitive: ci, syntax: Syntax::Js, glob: None }
    }

    fn matcher(specs: &[PatternSpec]) -> Matcher {
        Matcher::new(specs).unwrap()
    }

    #[test]
    fn every_kind_and_structure_reports_its_index() {
        let m = matcher(&[
            spec("robots.txt", Kind::Exact, false),
            spec("/admin", Kind::Prefix, true),
            spec(".php", Kind::Suffix, false),
            spec("wp-login", Kind::Contains, false),
            spec("*.jp?g", Kind::Wildcard, false),
            spec(r"^/api/v\d+/", Kind::Regex, false),
            spec("BOT", Kind::Contains, true),
        ]);
        assert_eq!(m.matches(b"robots.txt"), vec![0, 6]); // "robots" holds "bot"
        assert_eq!(m.matches(b"/ADMIN/wp-login.php"), vec![1, 2, 3]);
        assert_eq!(m.matches(b"a.jpeg"), vec![4]);
        assert_eq!(m.matches(b"/api/v2/bot"), vec![5, 6]);
        assert_eq!(m.first(b"/api/v2/bot"), Some(5));
        assert!(!m.test(b"/index.html"));
        assert_eq!(m.first(b"/index.html"), None);
    }

    #[test]
    fn only_a_matcher_of_one_literal_has_a_sole_literal() {
        let sole = |specs: &[PatternSpec]| matcher(specs).sole_literal().cloned();
        let lit = |place, text: &str, ci| Some(SoleLiteral { place, text: text.into(), ci });
        assert_eq!(sole(&[spec(r"Googlebot\/", Kind::Regex, false)]), lit(Place::Contains, "Googlebot/", false));
        assert_eq!(sole(&[spec("^curl", Kind::Regex, true)]), lit(Place::Prefix, "curl", true));
        assert_eq!(sole(&[spec("*.php", Kind::Wildcard, false)]), lit(Place::Suffix, ".php", false));
        assert_eq!(sole(&[spec("a", Kind::Exact, false)]), lit(Place::Exact, "a", false));
        assert_eq!(sole(&[spec("bot\\d", Kind::Regex, false)]), None);
        assert_eq!(sole(&[spec("é", Kind::Contains, true)]), None); // Unicode folding: a regex
        assert_eq!(sole(&[spec("a", Kind::Exact, false), spec("b", Kind::Exact, false)]), None);
    }

    #[test]
    fn a_few_literals_are_listed_and_many_or_a_regex_are_not() {
        let count = |specs: &[PatternSpec]| matcher(specs).literals().map(|l| l.len());
        // `MAX_JS_CONTAINS` substrings, `MAX_JS_CASE_SENSITIVE_CONTAINS` of them
        // case-sensitive, among `MAX_JS_LITERALS` literals; one more of any is refused.
        let few = |sensitive: usize, insensitive: usize, others: usize| -> Vec<PatternSpec> {
            let contains = (0..sensitive + insensitive).map(|i| spec(&format!("w{i}"), Kind::Contains, i >= sensitive));
            contains.chain((0..others).map(|i| spec(&format!("p{i}"), Kind::Prefix, i % 2 == 0))).collect()
        };
        let (sensitive, insensitive) =
            (MAX_JS_CASE_SENSITIVE_CONTAINS, MAX_JS_CONTAINS - MAX_JS_CASE_SENSITIVE_CONTAINS);
        let others = MAX_JS_LITERALS - MAX_JS_CONTAINS;
        assert_eq!(count(&few(sensitive, insensitive, others)), Some(MAX_JS_LITERALS));
        assert_eq!(count(&few(sensitive, insensitive + 1, 0)), None);
        assert_eq!(count(&few(sensitive + 1, insensitive - 1, 0)), None);
        assert_eq!(count(&few(0, MAX_JS_CONTAINS, 0)), Some(MAX_JS_CONTAINS));
        assert_eq!(count(&few(sensitive, insensitive, others + 1)), None);
        assert_eq!(count(&[spec("a", Kind::Exact, false), spec("b\\d", Kind::Regex, false)]), None);
        let long = "x".repeat(MAX_JS_LITERAL_BYTES);
        assert_eq!(count(&[spec(&long, Kind::Contains, false)]), Some(1));
        assert_eq!(count(&[spec(&long, Kind::Contains, false), spec("y", Kind::Exact, false)]), None);
    }

    #[test]
    fn find_all_reports_non_overlapping_matches_per_pattern() {
        let m = matcher(&[spec("aa", Kind::Contains, false), spec("a+", Kind::Regex, false)]);
        assert_eq!(m.find_all(b"aaaa").unwrap(), vec![(0, 0, 2), (1, 0, 4), (0, 2, 4)]);
    }

    #[test]
    fn find_all_with_look_around_reports_what_javascript_reports() {
        let m = matcher(&[spec("(?<!lib)http", Kind::Regex, true), spec("java(?!;)", Kind::Regex, false)]);
        assert_eq!(m.find_all(b"LibHttp http java; javax").unwrap(), vec![(0, 8, 12), (1, 19, 23)]);
        assert!(!m.test(b"libhttp java;"));
        // Without `u`, '.' reads one UTF-16 unit: half an emoji, on the units view.
        let units = matcher(&[spec("^a.b$", Kind::Regex, false), spec("^a..b$", Kind::Regex, false)]);
        assert_eq!(units.matches("a😀b".as_bytes()), vec![1]);
        assert_eq!(units.find_all("a😀b".as_bytes()).unwrap(), vec![(1, 0, 6)]);
    }

    #[test]
    fn invalid_patterns_name_their_index() {
        let err = Matcher::new(&[spec("ok", Kind::Regex, false), spec(r"(a)\1", Kind::Regex, false)]).err().unwrap();
        assert_eq!(err.kind, ErrorKind::InvalidPattern);
        assert!(err.message.contains("index 1"), "{}", err.message);
    }

    #[test]
    fn a_pattern_over_the_size_budget_is_refused_quickly() {
        let t = std::time::Instant::now();
        let err = Matcher::new(&[spec(r"(\w+\s*){500}{500}", Kind::Regex, false)]).err().unwrap();
        assert_eq!(err.kind, ErrorKind::InvalidPattern);
        assert!(t.elapsed().as_secs() < 5);
    }

    #[test]
    fn pathological_regexes_run_in_linear_time() {
        let m = matcher(&[spec("(a+)+$", Kind::Regex, false)]);
        let mut text = vec![b'a'; 30];
        text.push(b'!');
        assert!(!m.test(&text));
    }

    /// What each literal kind means, stated as plainly as possible.
    fn naive(kind: Kind, pattern: &str, text: &str, ci: bool) -> bool {
        let (p, t) =
            if ci { (pattern.to_ascii_lowercase(), text.to_ascii_lowercase()) } else { (pattern.into(), text.into()) };
        match kind {
            Kind::Exact => t == p,
            Kind::Prefix => t.starts_with(&p),
            Kind::Suffix => t.ends_with(&p),
            _ => t.contains(&p),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        #[test]
        fn literal_sets_agree_with_a_naive_reference(
            patterns in proptest::collection::vec(("[abAB/.]{1,4}", 0..4usize, proptest::bool::ANY), 1..12),
            texts in proptest::collection::vec("[abAB/.x]{0,12}", 1..10),
        ) {
            let kinds = [Kind::Exact, Kind::Prefix, Kind::Suffix, Kind::Contains];
            let specs: Vec<PatternSpec> = patterns.iter().map(|(p, k, ci)| spec(p, kinds[*k], *ci)).collect();
            let m = matcher(&specs);
            for t in &texts {
                let expected: Vec<u32> = specs.iter().enumerate()
                    .filter(|(_, s)| naive(s.kind, &s.pattern, t, s.case_insensitive))
                    .map(|(i, _)| i as u32)
                    .collect();
                proptest::prop_assert_eq!(m.matches(t.as_bytes()), expected.clone());
                proptest::prop_assert_eq!(m.first(t.as_bytes()), expected.first().copied());
                proptest::prop_assert_eq!(m.test(t.as_bytes()), !expected.is_empty());
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// `test` takes the joined automata (`Quick`) on a text without astral characters
        /// and the structures otherwise; `matches` always takes the structures.
        #[test]
        fn test_agrees_with_matches_whichever_way_it_takes(
            patterns in proptest::collection::vec((0..12usize, "[abAB.]{1,3}", proptest::bool::ANY), 1..10),
            texts in proptest::collection::vec("[abAB. é😀\n]{0,10}", 1..10),
        ) {
            let shapes = [
                (Kind::Exact, "{}"), (Kind::Prefix, "{}"), (Kind::Suffix, "{}"), (Kind::Contains, "{}"),
                (Kind::Regex, "^{}"), (Kind::Regex, "{}$"), (Kind::Regex, "{}+"), (Kind::Regex, "^.{}"),
                (Kind::Regex, "[^a]{}"), (Kind::Regex, "(?<!b){}"), (Kind::Regex, "{}(?!a)"), (Kind::Regex, "^[^ ]{2,}$"),
            ];
            let specs: Vec<PatternSpec> = patterns.iter().map(|(shape, body, ci)| {
                let (kind, form) = shapes[*shape];
                let body = if kind == Kind::Regex { body.replace('.', "\\.") } else { body.clone() };
                spec(&form.replace("{}", &body), kind, *ci)
            }).collect();
            let m = matcher(&specs);
            for t in &texts {
                proptest::prop_assert_eq!(m.test(t.as_bytes()), !m.matches(t.as_bytes()).is_empty(), "{:?} on {:?}", specs, t);
            }
        }
    }

    #[test]
    fn the_joined_automata_are_built_for_a_mix_and_not_for_many_literals() {
        let mix = [
            spec("bot", Kind::Contains, true),
            spec("^curl", Kind::Regex, true),
            spec("java(?!;)", Kind::Regex, false),
        ];
        let m = matcher(&mix);
        assert!(m.quick.as_ref().is_some_and(|q| q.with_literals));
        assert!(m.test(b"CURL/8") && m.test(b"a javax") && !m.test(b"java;") && m.test(b"Googlebot"));
        // The other side has a literal prefilter ("bot", "java"): searched apart.
        assert!(!m.quick.as_ref().is_some_and(|q| q.any.is_together()));
        // With one member that has no literal prefix, both sides are walked together.
        let mut walked = mix.to_vec();
        walked.push(spec(r"[^l]ib", Kind::Regex, false));
        let m = matcher(&walked);
        assert!(m.quick.as_ref().is_some_and(|q| q.any.is_together()));
        assert!(m.test(b"CURL/8") && m.test(b"a javax") && !m.test(b"java;") && m.test(b"Googlebot"));
        assert!(m.test(b"a xib") && !m.test(b"ib") && !m.test(b"llib x"));
        let regexes_only = matcher(&[spec(r"bot\d", Kind::Regex, false), mix[2].clone()]);
        assert!(regexes_only.quick.is_none());
        let mut many: Vec<PatternSpec> =
            (0..=QUICK_LITERALS).map(|i| spec(&format!("w{i}x"), Kind::Contains, false)).collect();
        many.push(spec(r"a\db", Kind::Regex, false));
        assert!(matcher(&many).quick.is_none());
        // With code-unit patterns too, the regexes are still joined, without the literals.
        many.push(spec("^.$", Kind::Regex, false));
        let m = matcher(&many);
        assert!(m.quick.as_ref().is_some_and(|q| !q.with_literals));
        assert!(m.test(b"w7x") && m.test(b"a1b") && m.test("é".as_bytes()) && !m.test("😀".as_bytes()));
    }

    #[test]
    fn case_insensitive_literals_fold_ascii_only() {
        let m = matcher(&[spec("googlebot", Kind::Contains, true), spec("ÉTÉ", Kind::Exact, true)]);
        assert!(m.test(b"Mozilla GoogleBot/2.1"));
        assert!(m.test("été".as_bytes()));
        assert!(!m.test("googlebo\u{212A}".as_bytes()));
    }

    #[test]
    fn an_empty_match_before_a_stray_byte_counts_as_test_says() {
        // A Buffer that is not UTF-8: `(?:^|[^b])` matches the empty string at 0, before a
        // lone continuation byte, for `test`, `first` and `matches` alike; `findAll` of the
        // same pattern on a string reports no empty match between the two bytes of é.
        let rust = |p: &str| PatternSpec { syntax: Syntax::Rust, ..spec(p, Kind::Regex, true) };
        let m = matcher(&[rust("(?:^|[^b])"), rust("^ba"), rust("[^ ]ab")]);
        assert!(m.test(b"\xa9"));
        assert_eq!(m.first(b"\xa9"), Some(0));
        assert_eq!(m.matches(b"\xa9"), vec![0]);
        // /\B/ never holds in "kÉ_" (word, non-word, word): not between the bytes of É
        // either, alone or beside other patterns, literals and regexes, for every method.
        for extra in [
            &[][..],
            &[spec("x", Kind::Regex, false)],
            &[spec("zz", Kind::Contains, false), spec("y\\d", Kind::Regex, false)],
        ] {
            let mut specs = vec![spec(r"\B", Kind::Regex, false)];
            specs.extend(extra.iter().cloned());
            let m = matcher(&specs);
            let text = "kÉ_".as_bytes();
            assert!(!m.test(text) && m.first(text).is_none() && m.matches(text).is_empty(), "{specs:?}");
            assert!(m.find_all(text).unwrap().is_empty());
            assert!(m.test("kÉ".as_bytes()) && m.test(b"ab"));
        }
    }
}
