//! JavaScript `RegExp` patterns in linear time: a JS source and flags become a Rust `regex`
//! that matches exactly the texts `new RegExp(source, flags).test(text)` does: the source
//! parsed as ECMAScript parses it, each character set given its JS meaning, `\b` as V8 means
//! it, and texts read as UTF-16 units where a pattern without `u` can split a pair.
//!
//! Look-around has no automaton of its own. A look-behind that starts an alternative and a
//! look-ahead that ends one, with bodies of bounded length, are rewritten: for "does the
//! pattern match anywhere", a positive look-around consumes its body next to the rest, and a
//! negative one consumes a *witness* that the body cannot match there (the text's edge, or a
//! character that leaves every body, found by walking the bodies' characters as a trie). For
//! the positions `findAll` reports, each alternative keeps its look-behind as a check run at
//! each candidate start (see `Spans`). Anything else (backreferences, look-around elsewhere
//! or unbounded) is refused by name.

mod boundaries;
pub mod charset;
pub mod lookahead;
pub mod parse;
mod properties;
#[rustfmt::skip]
mod unicode_tables;
pub mod units;

use crate::matcher::place::Place;
use charset::{CaseFlags, CharSet};
use parse::{Flags, Node, LINE_TERMINATORS};
use std::fmt::Write;

/// Longest look-around body, in characters. A negative body's witness nests one group per
/// character, and the regex parser refuses nesting past 250 (a bound on its recursion).
pub const MAX_LOOK: u32 = 64;

/// The Unicode version of the tables `\p{…}` reads (`properties`), generated from npm's
/// ECMAScript data for the version V8 in current Node reads (17.0 in Node 20.20, 22 and 24).
pub const UNICODE_VERSION: &str = properties::VERSION;
/// Most distinct strings (as sequences of sets) a negative look-around body may stand for.
const MAX_LOOK_STRINGS: usize = 4096;
/// Most alternatives a negative look-around's witness may hold, summed over its trie.
const MAX_WITNESS: usize = 20_000;

/// What a JavaScript pattern compiles to.
#[derive(Clone, Debug, PartialEq)]
pub struct JsRegex {
    /// Matches (somewhere) exactly the texts the JS pattern matches.
    pub exists: String,
    /// Runs on the units view of the text (`units.rs`), not on UTF-8.
    pub units: bool,
    /// When the pattern has look-around: how `findAll` finds JS's spans.
    pub spans: Option<Spans>,
    /// When the pattern is a plain literal: where it must sit, and whether ASCII case is
    /// ignored (the text is then ASCII).
    pub literal: Option<(Place, String, bool)>,
}

/// How to find a look-around pattern's matches where JS would: at each start from the last
/// match's end, the first alternative whose look-behind holds there and whose `body`
/// matches there, anchored, wins; its group 1 is the span.
#[derive(Clone, Debug, PartialEq)]
pub struct Spans {
    pub branches: Vec<Branch>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    /// `(?:body)\z`, run on the text before a candidate start: the look-behind holds when it
    /// matches (`negative` false) or when it does not (`negative` true).
    pub behind: Option<Behind>,
    /// The alternative with its look-ahead consumed; group 1 is what JS reports.
    pub body: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Behind {
    pub check: String,
    /// `(?:body)`: where it matches, ending at a position, the look-behind holds there.
    pub ends: String,
    pub negative: bool,
    /// Bytes before the start the check needs to see, at most.
    pub reach: usize,
}

/// Compiles a JS source with its flags (`ignore_case` also set by the caller's option).
pub fn translate(source: &str, flags: Flags) -> Result<JsRegex, String> {
    translate_node(parse::parse(source, flags)?, flags)
}

/// Compiles a JS source with its flags to run on the units view whatever it holds, when it
/// has no `u` (what `Matcher::replace` needs on a text with astral characters: without `u`,
/// even an empty match may fall between the two halves of one).
pub fn translate_units(source: &str, flags: Flags) -> Result<JsRegex, String> {
    translate_node_in(parse::parse(source, flags)?, flags, true)
}

/// Compiles a parsed pattern (sets case-closed; characters folded here when `flags` say so).
pub fn translate_node(node: Node, flags: Flags) -> Result<JsRegex, String> {
    translate_node_in(node, flags, false)
}

fn translate_node_in(node: Node, flags: Flags, force_units: bool) -> Result<JsRegex, String> {
    // Without `u`, a pattern that can match empty does so between the two halves of an
    // astral character too (`matchAll`, `replace`): it reads code units like one that can
    // match a surrogate.
    // (The empty pattern and bare anchors stay literals: `test` answers them without a regex.)
    let anchors = |n: &Node| match n {
        Node::Empty | Node::TextStart | Node::TextEnd => true,
        Node::Seq(items) => items.iter().all(|i| matches!(i, Node::TextStart | Node::TextEnd)),
        _ => false,
    };
    let nullable = min_len(&node) == 0 && !anchors(&node);
    let units = !flags.unicode && (force_units || needs_units(&node) || nullable);
    let t = Translator { flags, units };
    let mut branches = match node {
        Node::Alt(alts) => alts,
        other => vec![other],
    };
    if flags.unicode && flags.ignore_case {
        let mut split = Vec::new();
        for b in branches {
            split.extend(boundaries::expand(b, t.mode())?);
        }
        branches = split;
    }
    let mut parts = Vec::new();
    let mut any_look = false;
    for b in branches {
        let part = t.branch(b)?;
        any_look |= part.before.is_some() || part.after.is_some();
        parts.push(part);
    }
    let exists = parts.iter().map(|p| p.exists()).collect::<Vec<_>>().join("|");
    let spans = any_look.then(|| Spans {
        branches: parts
            .iter()
            .map(|p| Branch { behind: p.behind.clone(), body: format!("({}){}", p.core, p.after_text()) })
            .collect(),
    });
    let literal = if parts.len() == 1 && !any_look { parts[0].literal.clone() } else { None };
    Ok(JsRegex { exists, units, spans, literal })
}

/// Whether some set of the pattern can match a surrogate (half of an astral character), so
/// that it must run on code units.
fn needs_units(node: &Node) -> bool {
    match node {
        Node::Char(c) => (0xD800..0xE000).contains(c),
        Node::Set(s) => s.has_surrogates(),
        Node::Seq(v) | Node::Alt(v) => v.iter().any(needs_units),
        Node::Repeat { node, .. } => needs_units(node),
        Node::Look { body, .. } => needs_units(body),
        _ => false,
    }
}

/// One alternative, taken apart.
struct Part {
    /// The consuming part, in Rust syntax.
    core: String,
    /// The look-behind's consuming form (body or witness) for `exists`.
    before: Option<String>,
    behind: Option<Behind>,
    /// The look-ahead's consuming form.
    after: Option<String>,
    literal: Option<(Place, String, bool)>,
}

impl Part {
    fn exists(&self) -> String {
        format!("{}{}{}", self.before.as_deref().unwrap_or(""), self.core, self.after_text())
    }

    fn after_text(&self) -> &str {
        self.after.as_deref().unwrap_or("")
    }
}

struct Translator {
    flags: Flags,
    units: bool,
}

/// A look-around at an edge of an alternative, as found.
struct Look {
    negative: bool,
    body: Node,
}

impl Translator {
    fn mode(&self) -> CaseFlags {
        self.flags.mode()
    }

    fn branch(&self, node: Node) -> Result<Part, String> {
        let mut items = match node {
            Node::Seq(items) => items,
            Node::Empty => vec![],
            other => vec![other],
        };
        let line_terminator = || Node::Set(CharSet::from_ranges(LINE_TERMINATORS));
        // Leading look-behinds (and `^` with `m`, a look-behind for a line terminator).
        let mut before = Vec::new();
        while let Some(first) = items.first() {
            match first {
                Node::Look { ahead: false, .. } | Node::LineStart => {}
                _ => break,
            }
            before.push(match items.remove(0) {
                Node::Look { negative, body, .. } => Look { negative, body: *body },
                _ => Look { negative: false, body: Node::Alt(vec![Node::TextStart, line_terminator()]) },
            });
        }
        let mut after = Vec::new();
        while let Some(last) = items.last() {
            match last {
                Node::Look { ahead: true, .. } | Node::LineEnd => {}
                _ => break,
            }
            after.insert(
                0,
                match items.pop() {
                    Some(Node::Look { negative, body, .. }) => Look { negative, body: *body },
                    _ => Look { negative: false, body: Node::Alt(vec![Node::TextEnd, line_terminator()]) },
                },
            );
        }
        let literal = if before.is_empty() && after.is_empty() { self.literal(&items) } else { None };
        let mut core = String::new();
        for item in &items {
            core.push_str(&self.emit(item)?);
        }
        let (before_text, behind) = match self.merge(before, "look-behind")? {
            None => (None, None),
            Some(look) => {
                let reach =
                    max_len(&look.body).ok_or("a look-behind of unbounded length has no linear-time meaning")?;
                check_bound(reach, "look-behind")?;
                let body = self.emit(&look.body)?;
                let consumed = if look.negative { self.witness(&look.body, false)? } else { format!("(?:{body})") };
                let reach = reach as usize * if self.units { 3 } else { 4 };
                (
                    Some(consumed),
                    Some(Behind {
                        check: format!(r"(?:{body})\z"),
                        ends: format!("(?:{body})"),
                        negative: look.negative,
                        reach,
                    }),
                )
            }
        };
        let after_text = match self.merge(after, "look-ahead")? {
            None => None,
            Some(look) => {
                let reach = max_len(&look.body).ok_or("a look-ahead of unbounded length has no linear-time meaning")?;
                check_bound(reach, "look-ahead")?;
                Some(if look.negative {
                    self.witness(&look.body, true)?
                } else {
                    format!("(?:{})", self.emit(&look.body)?)
                })
            }
        };
        Ok(Part { core, before: before_text, behind, after: after_text, literal })
    }

    /// Several look-arounds at one edge as one: negative ones join (none of the bodies may
    /// match); any other combination is refused.
    fn merge(&self, looks: Vec<Look>, what: &str) -> Result<Option<Look>, String> {
        match looks.len() {
            0 => Ok(None),
            1 => Ok(looks.into_iter().next()),
            _ if looks.iter().all(|l| l.negative) => {
                Ok(Some(Look { negative: true, body: Node::Alt(looks.into_iter().map(|l| l.body).collect()) }))
            }
            _ => Err(format!("several {what}s in a row, not all negative, are not supported")),
        }
    }

    /// The literal an alternative is, if it is one: `^`? characters `$`?.
    fn literal(&self, items: &[Node]) -> Option<(Place, String, bool)> {
        if self.units {
            return None;
        }
        let starts = items.first() == Some(&Node::TextStart);
        let ends = items.len() > starts as usize && items.last() == Some(&Node::TextEnd);
        let inner = &items[starts as usize..items.len() - ends as usize];
        let text: String = inner
            .iter()
            .map(|n| match n {
                Node::Char(c) => char::from_u32(*c),
                _ => None,
            })
            .collect::<Option<String>>()?;
        let ci = self.flags.ignore_case && text.bytes().any(|b| b.is_ascii_alphabetic());
        // ASCII case folding is JS's only when no other character folds into the literal's:
        // with `u`, 'k' and 's' also match the Kelvin sign and the long s.
        if ci && (!text.is_ascii() || (self.flags.unicode && text.contains(['k', 'K', 's', 'S']))) {
            return None;
        }
        if self.flags.ignore_case && !text.is_ascii() {
            return None;
        }
        let place = match (starts, ends) {
            (true, true) => Place::Exact,
            (true, false) => Place::Prefix,
            (false, true) => Place::Suffix,
            (false, false) => Place::Contains,
        };
        Some((place, text, ci))
    }

    fn set_of(&self, c: u32) -> CharSet {
        let set = CharSet::one(c);
        if self.flags.ignore_case {
            set.case_closure(self.mode())
        } else {
            set
        }
    }

    /// A node in Rust syntax, safe to quantify.
    fn emit(&self, node: &Node) -> Result<String, String> {
        Ok(match node {
            Node::Empty => "(?:)".to_string(),
            Node::Char(c) => {
                let set = self.set_of(*c);
                match (set.ranges(), char::from_u32(*c)) {
                    ([(lo, hi)], Some(ch)) if lo == hi => regex_syntax::escape(&ch.to_string()),
                    _ => set.to_regex(self.units),
                }
            }
            Node::Set(s) => s.to_regex(self.units),
            Node::Seq(items) => {
                let mut out = String::from("(?:");
                for item in items {
                    out.push_str(&self.emit(item)?);
                }
                out.push(')');
                out
            }
            Node::Alt(alts) => {
                let parts: Result<Vec<String>, String> = alts.iter().map(|a| self.emit(a)).collect();
                format!("(?:{})", parts?.join("|"))
            }
            Node::Repeat { node, min, max, greedy } => {
                let mut out = self.emit(node)?;
                match max {
                    Some(max) if max == min => write!(out, "{{{min}}}"),
                    Some(max) => write!(out, "{{{min},{max}}}"),
                    None => write!(out, "{{{min},}}"),
                }
                .map_err(|e| e.to_string())?;
                if !greedy {
                    out.push('?');
                }
                out
            }
            Node::TextStart => r"\A".to_string(),
            Node::TextEnd => r"\z".to_string(),
            Node::LineStart => {
                return Err("'^' with the m flag is supported only at the start of an alternative".into())
            }
            Node::LineEnd => return Err("'$' with the m flag is supported only at the end of an alternative".into()),
            Node::WordBoundary { negated } => {
                if self.flags.unicode && self.flags.ignore_case {
                    return Err(boundaries::WHERE.into());
                }
                if *negated { r"(?-u:\B)" } else { r"(?-u:\b)" }.to_string()
            }
            Node::Look { ahead, .. } => {
                return Err(if *ahead {
                    "look-ahead is supported only at the end of an alternative (e.g. 'java(?!;)')".into()
                } else {
                    "look-behind is supported only at the start of an alternative (e.g. '(?<!lib)http')".into()
                })
            }
        })
    }

    /// What a negative look-around's body cannot be next to: for a look-ahead, the text that
    /// follows proves no body string starts there (it ends first, or a character leaves
    /// every one); for a look-behind, the same read backwards.
    fn witness(&self, body: &Node, ahead: bool) -> Result<String, String> {
        let mut strings = sequences(body, self)?;
        if !ahead {
            strings.iter_mut().for_each(|s| s.reverse());
        }
        let refs: Vec<&[CharSet]> = strings.iter().map(|s| s.as_slice()).collect();
        let mut budget = MAX_WITNESS;
        match self.trie(&refs, ahead, &mut budget)? {
            Some(w) => Ok(w),
            // The body matches the empty string: the look-around never holds.
            None => Ok(r"[^\x00-\x{10FFFF}]".to_string()),
        }
    }

    fn trie(&self, strings: &[&[CharSet]], ahead: bool, budget: &mut usize) -> Result<Option<String>, String> {
        if strings.iter().any(|s| s.is_empty()) {
            return Ok(None);
        }
        let firsts: Vec<&CharSet> = strings.iter().map(|s| &s[0]).collect();
        let union = firsts.iter().fold(CharSet::empty(), |acc, s| acc.union(s));
        let mut atoms = vec![union.clone()];
        for f in &firsts {
            let mut next = Vec::new();
            for a in atoms {
                let inside = a.intersect(f);
                let outside = a.minus(f);
                if !inside.is_empty() {
                    next.push(inside);
                }
                if !outside.is_empty() {
                    next.push(outside);
                }
            }
            atoms = next;
        }
        let edge = if ahead { r"\z" } else { r"\A" };
        let mut alts = vec![edge.to_string()];
        let mut rest = union.complement(self.mode().max());
        if !self.flags.unicode && !self.units {
            // On UTF-8 text an astral character is one character here; JavaScript reads its
            // first surrogate, which no body holds (or the pattern would read units).
            rest = rest.union(&CharSet::from_ranges([(0x10000, 0x10FFFF)]));
        }
        if !rest.is_empty() {
            alts.push(rest.to_regex(self.units));
        }
        for atom in &atoms {
            if *budget == 0 {
                return Err("a negative look-around body is too complex".into());
            }
            *budget -= 1;
            let children: Vec<&[CharSet]> =
                strings.iter().filter(|s| !s[0].intersect(atom).is_empty()).map(|s| &s[1..]).collect();
            if let Some(w) = self.trie(&children, ahead, budget)? {
                let a = atom.to_regex(self.units);
                alts.push(if ahead { format!("{a}{w}") } else { format!("{w}{a}") });
            }
        }
        Ok(Some(format!("(?:{})", alts.join("|"))))
    }
}

fn check_bound(len: u32, what: &str) -> Result<(), String> {
    if len > MAX_LOOK {
        return Err(format!("a {what} longer than {MAX_LOOK} characters is not supported"));
    }
    Ok(())
}

/// The fewest characters a node can match.
fn min_len(node: &Node) -> u32 {
    match node {
        Node::Char(_) | Node::Set(_) => 1,
        Node::Seq(items) => items.iter().fold(0u32, |acc, n| acc.saturating_add(min_len(n))),
        Node::Alt(alts) => alts.iter().map(min_len).min().unwrap_or(0),
        Node::Repeat { node, min, .. } => min_len(node).saturating_mul(*min),
        _ => 0,
    }
}

/// The most characters a node can match, or `None` when unbounded.
fn max_len(node: &Node) -> Option<u32> {
    Some(match node {
        Node::Char(_) | Node::Set(_) => 1,
        Node::Seq(items) => items.iter().try_fold(0u32, |acc, n| acc.checked_add(max_len(n)?))?,
        Node::Alt(alts) => alts.iter().try_fold(0u32, |acc, n| Some(acc.max(max_len(n)?)))?,
        Node::Repeat { node, max, .. } => max_len(node)?.checked_mul((*max)?)?,
        _ => 0,
    })
}

/// Every sequence of `a` followed by every sequence of `b`.
fn concat_each(a: &[Vec<CharSet>], b: &[Vec<CharSet>]) -> Vec<Vec<CharSet>> {
    a.iter().flat_map(|x| b.iter().map(move |y| x.iter().chain(y).cloned().collect())).collect()
}

/// The strings a negative look-around body stands for, as sequences of sets.
fn sequences(node: &Node, t: &Translator) -> Result<Vec<Vec<CharSet>>, String> {
    let too_many =
        || format!("a negative look-around body standing for more than {MAX_LOOK_STRINGS} strings is not supported");
    Ok(match node {
        Node::Empty => vec![vec![]],
        Node::Char(c) => vec![vec![t.set_of(*c)]],
        Node::Set(s) => vec![vec![s.clone()]],
        Node::Seq(items) => {
            let mut out = vec![vec![]];
            for item in items {
                let next = sequences(item, t)?;
                if out.len() * next.len() > MAX_LOOK_STRINGS {
                    return Err(too_many());
                }
                out = concat_each(&out, &next);
            }
            out
        }
        Node::Alt(alts) => {
            let mut out = Vec::new();
            for a in alts {
                out.extend(sequences(a, t)?);
                if out.len() > MAX_LOOK_STRINGS {
                    return Err(too_many());
                }
            }
            out
        }
        Node::Repeat { node, min, max, .. } => {
            let max = max.ok_or("a look-around of unbounded length has no linear-time meaning")?;
            let one = sequences(node, t)?;
            let mut out = Vec::new();
            let mut power: Vec<Vec<CharSet>> = vec![vec![]];
            for k in 0..=max {
                if k >= *min {
                    out.extend(power.iter().cloned());
                }
                if out.len() > MAX_LOOK_STRINGS || power.len() * one.len() > MAX_LOOK_STRINGS {
                    return Err(too_many());
                }
                power = concat_each(&power, &one);
            }
            out
        }
        _ => {
            return Err(
                "a negative look-around body may hold only characters, classes, groups and bounded repetition".into()
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(source: &str, flags: &str) -> Result<JsRegex, String> {
        translate(source, Flags::parse(flags)?)
    }

    fn is_match(source: &str, flags: &str, text: &str) -> bool {
        let t = js(source, flags).unwrap();
        let re = regex::bytes::RegexBuilder::new(&t.exists).unicode(true).build().unwrap();
        let view = if t.units { units::to_units(text.as_bytes()) } else { std::borrow::Cow::Borrowed(text.as_bytes()) };
        re.is_match(&view)
    }

    #[test]
    fn group_names_follow_ecmascript_identifiers() {
        for (ok, flags) in [
            (r"(?<\u{61}>x)", ""),
            (r"(?<\u0061b>x)", "u"),
            ("(?<a\u{200C}b>x)", ""),
            ("(?<a\u{200D}>x)", "u"),
            ("(?<\u{1D49C}>x)", ""),
            ("(?<\u{1D49C}>x)", "u"),
            (r"(?<\ud835\udc9c>x)", "u"),
            (r"(?<$_>x)(?<é1>y)", ""),
            ("(?<\u{1D49C}b>x)", ""),
        ] {
            assert!(js(ok, flags).is_ok(), "{ok} /{flags}");
        }
        for (bad, flags) in [
            ("(?<\u{1D7DA}>x)", "u"),
            ("(?<1a>x)", ""),
            ("(?<a-b>x)", ""),
            (r"(?<\u{110000}>x)", ""),
            (r"(?<\x41>x)", ""),
            ("(?<x>a)(?<x>b)", ""),
            ("(?<x>a)|(?<x>b)", "u"),
            ("(?<>a)", ""),
            ("(?<a", ""),
        ] {
            assert!(js(bad, flags).is_err(), "{bad} /{flags}");
        }
    }

    #[test]
    fn the_property_tables_are_the_unicode_version_we_say() {
        assert_eq!(UNICODE_VERSION, "17.0.0");
        // U+1C89 CYRILLIC CAPITAL LETTER TJE was assigned in 16.0; U+10940, a letter of the
        // Sidetic script, in 17.0.
        assert!(is_match(r"^\p{Lu}$", "u", "\u{1C89}"));
        assert!(is_match(r"^\p{L}$", "u", "\u{10940}"));
        assert!(is_match(r"^\p{Script=Sidetic}$", "u", "\u{10940}"));
    }

    #[test]
    fn classes_and_dot_mean_what_they_mean_in_javascript() {
        assert!(!is_match(r"^\d$", "", "٣")); // Arabic-Indic three: not a JS \d
        assert!(!is_match(r"^\w$", "", "é"));
        assert!(is_match(r"^\s$", "", "\u{FEFF}"));
        assert!(!is_match(r"^.$", "", "\r"));
        assert!(!is_match(r"^.$", "", "\u{2028}"));
        assert!(is_match(r"^.$", "s", "\u{2028}"));
        assert!(is_match(r"\bfoo\b", "", "é foo é"));
    }

    #[test]
    fn without_u_an_astral_character_is_two_units() {
        assert!(!is_match("^.$", "", "😀"));
        assert!(is_match("^..$", "", "😀"));
        assert!(is_match("^.$", "u", "😀"));
        assert!(is_match(r"\uD83D", "", "a😀"));
        assert!(!is_match(r"\uD83D", "u", "a😀"));
        assert!(is_match(r"^\uD83D\uDE00$", "u", "😀"));
    }

    #[test]
    fn annex_b_reads_what_the_strict_grammar_refuses() {
        assert!(is_match(r"[\w\d-.]+$", "", "a-b.c"));
        assert!(js(r"[\w-.]", "u").is_err());
        assert!(is_match(r"a{", "", "a{"));
        assert!(is_match(r"\1", "", "\u{1}"));
        assert!(js(r"(a)\1", "").is_err());
        assert!(is_match(r"\u{41}", "", &"u".repeat(41)));
        assert!(is_match(r"\u{41}", "u", "A"));
        assert!(is_match(r"\c", "", "\\c"));
    }

    #[test]
    fn case_folding_follows_the_u_flag() {
        assert!(!is_match("s", "i", "ſ"));
        assert!(is_match("s", "iu", "ſ"));
        assert!(!is_match(r"\u212A", "i", "k"));
        assert!(is_match(r"\u212A", "iu", "k"));
        assert!(!is_match("[^a]", "i", "A"));
    }

    #[test]
    fn bounded_look_around_at_the_edges_of_alternatives_matches_as_in_javascript() {
        assert!(!is_match("(?<!lib)http", "i", "LibHttp"));
        assert!(is_match("(?<!lib)http", "i", "lib-http"));
        assert!(is_match("(?<!lib)http", "", "http"));
        assert!(is_match("java(?!;)", "", "java"));
        assert!(!is_match("java(?!;)", "", "java;"));
        assert!(is_match("(?<! channel/|google/)google(?!(?:wv|app|/google| pixel))", "i", "x google"));
        assert!(!is_match("(?<! channel/|google/)google(?!(?:wv|app|/google| pixel))", "i", "google/google"));
        assert!(!is_match("(?<! channel/|google/)google(?!(?:wv|app|/google| pixel))", "i", "googleapp"));
        assert!(is_match("(?<=a)b", "", "ab"));
        assert!(!is_match("(?<=a)b", "", "cb"));
        assert!(is_match("^b", "m", "a\r\nb"));
        assert!(!is_match("^b", "m", "ab"));
        assert!(is_match("a$", "m", "a\u{2028}"));
        assert!(is_match(r"\w(?!s?b)", "i", "S𝒜"));
        assert!(is_match(r"(?<!a)\d", "", "😀0"));
    }

    #[test]
    fn what_has_no_linear_time_meaning_is_refused_by_name() {
        assert!(js("(?=.*x)a", "").unwrap_err().contains("look-ahead"));
        assert!(js("a(?=.*x)", "").unwrap_err().contains("unbounded"));
        assert!(js(r"(?<a>x)\k<a>", "").unwrap_err().contains("backreference"));
        assert!(js("a(?!b)c", "").is_err());
        assert!(js("(?<!x)a.*b", "").is_ok());
        assert!(js("x", "y").is_err());
    }

    #[test]
    fn plain_literals_become_literal_plans() {
        assert_eq!(js(r"Googlebot\/", "").unwrap().literal, Some((Place::Contains, "Googlebot/".into(), false)));
        assert_eq!(js("^curl", "i").unwrap().literal, Some((Place::Prefix, "curl".into(), true)));
        assert_eq!(js("bot", "iu").unwrap().literal, Some((Place::Contains, "bot".into(), true)));
        assert_eq!(js("kit", "iu").unwrap().literal, None);
        assert_eq!(js("a.c", "").unwrap().literal, None);
    }
}
