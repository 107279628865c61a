//! Globs as picomatch means them. picomatch (the JavaScript package every bundler and test
//! runner uses) turns a glob into a `RegExp`; `lib/patterns.js` asks it for that regex, and this
//! module turns the regex into one without look-around (`js_regex::lookahead`), so the glob
//! joins every other pattern in the one regex set. picomatch's matcher adds to its regex what
//! it does around it, and so does this module:
//!
//! - a text equal to the glob itself matches (picomatch compares them before the regex);
//! - with `matchBase`/`basename`, the regex is tested on the text's last path segment (the
//!   one before a trailing separator when there is one). The empty text never matches;
//! - with `windows`, the text is read as picomatch's `toPosixSlashes` writes it: each `\`
//!   not followed by one of ``*+?^${}(|)[]`` as a `/`; both separate segments for
//!   `matchBase`;
//!
//! `ignore` is not this module's: the ignore globs are compiled as globs of their own, and a
//! text one of them matches is refused after the match (`Matcher`'s vetoes, `mod.rs`).

use super::js_regex::charset::CharSet;
use super::js_regex::lookahead::{self, seq};
use super::js_regex::parse::{self, Flags, Node};
use super::js_regex::{self, JsRegex};

/// What picomatch made of a glob.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobRegex {
    /// `picomatch.makeRe(glob, options).source`.
    pub source: String,
    /// Its flags (`i` with `nocase`).
    pub flags: String,
    /// Test the last path segment only (`matchBase`/`basename`).
    pub match_base: bool,
    /// picomatch's `windows`: `\` in the text is a `/`.
    pub windows: bool,
    /// picomatch's `ignore`: the globs whose texts never match, each with its regex (made
    /// with the same options).
    pub ignore: Vec<IgnoreGlob>,
}

/// One glob of `ignore` and what picomatch made of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IgnoreGlob {
    pub glob: String,
    pub source: String,
    pub flags: String,
}

const SLASH: u32 = b'/' as u32;
const BACKSLASH: u32 = b'\\' as u32;

/// The regex (no look-around) of the texts picomatch's matcher for `glob` answers true on.
pub fn compile(glob: &str, re: &GlobRegex) -> Result<JsRegex, String> {
    let flags = Flags::parse(&re.flags)?;
    let whole = language(glob, &re.source, flags, re)?;
    // Sets are case-closed already: nothing is folded again.
    js_regex::translate_node(chars(whole), Flags { ignore_case: false, ..flags })
}

/// The characters that separate path segments: `/`, and `\` too with `windows`.
fn separators(windows: bool) -> Vec<CharSet> {
    let mut apart = vec![CharSet::one(SLASH)];
    if windows {
        apart.push(CharSet::one(BACKSLASH));
    }
    apart
}

/// What picomatch's `toPosixSlashes` leaves a `\` before (its `REGEX_BACKSLASH`).
const KEEPS_BACKSLASH: &str = "*+?^${}(|)[]";

/// The texts picomatch's matcher for `glob` (its regex `source` with `flags`, and `re`'s
/// options) answers true on, as a node with no look-around, anchored at both ends.
fn language(glob: &str, source: &str, flags: Flags, re: &GlobRegex) -> Result<Node, String> {
    let mode = flags.mode();
    let node = parse::parse(source, flags)?;
    let apart = separators(re.windows);
    let mut dfa = lookahead::automaton(&node, mode, &apart)?;
    let class_of = |set: &CharSet| dfa.classes.iter().position(|c| c == set);
    // picomatch answers false on the empty text before it tries the regex. State 0 is the
    // empty text's and no transition leads back to it.
    let empty = std::mem::replace(&mut dfa.accept[0], false);
    let separator = apart.iter().fold(CharSet::from_ranges([]), |a, b| a.union(b));
    let matched = if re.match_base {
        // The segment: its regex without separators, tested on a text that is that segment
        // alone.
        let seps: Vec<usize> = apart.iter().filter_map(&class_of).collect();
        for row in &mut dfa.edges {
            row.retain(|&(c, _)| !seps.contains(&c));
        }
        let nonempty = dfa.trim().to_node()?;
        // The segment may be empty (the text `a//`) when the regex matches the empty text.
        let any = if empty { lookahead::alt(nonempty.clone(), Node::Empty) } else { nonempty.clone() };
        let everything = Node::Repeat {
            node: Box::new(Node::Set(CharSet::from_ranges([(0, mode.max())]))),
            min: 0,
            max: None,
            greedy: true,
        };
        let dirs = Node::Repeat {
            node: Box::new(seq(everything, Node::Set(separator.clone()))),
            min: 0,
            max: Some(1),
            greedy: true,
        };
        let last = lookahead::alt(nonempty, seq(any, Node::Set(separator.clone())));
        seq(seq(Node::TextStart, dirs), seq(last, Node::TextEnd))
    } else {
        if let [_, backslash] = &apart[..] {
            // The regex reads the text as `toPosixSlashes` writes it, and picomatch's regexes
            // with `windows` read a '\' where they read a '/' ([\\/]): so a '\' goes where a
            // '/' goes. (A '\' that `toPosixSlashes` keeps, before one of KEEPS_BACKSLASH, is
            // read as such a '\' too; only a bracket expression of the glob's own that holds
            // one of them and not the other tells them apart, docs/matcher.md.)
            let (slash, k) =
                (class_of(&apart[0]).ok_or("no class for '/'")?, class_of(backslash).ok_or("no class for '\\'")?);
            for row in &mut dfa.edges {
                row.retain(|&(c, _)| c != k);
                let to: Vec<u32> = row.iter().filter(|&&(c, _)| c == slash).map(|&(_, t)| t).collect();
                row.extend(to.into_iter().map(|t| (k, t)));
                row.sort_unstable();
            }
        }
        seq(seq(Node::TextStart, dfa.trim().to_node()?), Node::TextEnd)
    };
    // The text equal to the glob (one sequence, built at once: joining 64 Ki units one `seq`
    // at a time is quadratic); with `windows` also each text whose `toPosixSlashes` equals it
    // (picomatch compares both).
    let units: Vec<u32> = glob.encode_utf16().map(u32::from).collect();
    let exact = units.iter().map(|&u| Node::Set(CharSet::one(u)));
    let itself = Node::Seq(std::iter::once(Node::TextStart).chain(exact).chain([Node::TextEnd]).collect());
    if !re.windows {
        return Ok(lookahead::alt(matched, itself));
    }
    let keeps = |i: usize| units.get(i).is_some_and(|&u| KEEPS_BACKSLASH.contains(char::from_u32(u).unwrap_or('a')));
    let mut formatted = vec![Node::TextStart];
    for (i, &u) in units.iter().enumerate() {
        formatted.push(Node::Set(match u {
            // A '/' of the format: a '/' of the text, or a '\\' not kept.
            SLASH if !keeps(i + 1) => separator.clone(),
            // A '\\' of the format: one kept, before a character that keeps it.
            BACKSLASH if !keeps(i + 1) => return Ok(lookahead::alt(matched, itself)),
            _ => CharSet::one(u),
        }));
    }
    formatted.push(Node::TextEnd);
    Ok(lookahead::alt(lookahead::alt(matched, itself), Node::Seq(formatted)))
}

/// One-character sets as characters, so literal globs become string comparisons.
fn chars(node: Node) -> Node {
    match node {
        Node::Set(s) => match s.ranges() {
            [(lo, hi)] if lo == hi => Node::Char(*lo),
            _ => Node::Set(s),
        },
        Node::Seq(v) => Node::Seq(v.into_iter().map(chars).collect()),
        Node::Alt(v) => Node::Alt(v.into_iter().map(chars).collect()),
        Node::Repeat { node, min, max, greedy } => Node::Repeat { node: Box::new(chars(*node)), min, max, greedy },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::bytes::Regex;

    fn re(source: &str, flags: &str, match_base: bool) -> GlobRegex {
        GlobRegex { source: source.into(), flags: flags.into(), match_base, windows: false, ignore: Vec::new() }
    }

    fn is_match(glob: &str, g: &GlobRegex, text: &str) -> bool {
        let out = compile(glob, g).unwrap();
        // ASCII texts: the units view is the text itself.
        Regex::new(&out.exists).unwrap().is_match(text.as_bytes())
    }

    #[test]
    fn picomatch_regexes_match_without_look_around() {
        // picomatch.makeRe('*.js').source
        let g = re(r"^(?:(?!\.)(?=.)[^/]*?\.js\/?)$", "", false);
        for (text, want) in
            [("a.js", true), (".a.js", false), ("lib/a.js", false), ("a.js/", true), ("", false), ("*.js", true)]
        {
            assert_eq!(is_match("*.js", &g, text), want, "*.js on {text:?}");
        }
        // picomatch.makeRe('src/**').source
        let g = re(r"^(?:src(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)|$))$", "", false);
        for (text, want) in [("src", true), ("src/a/b", true), ("src/.git/x", false), ("srcx", false)] {
            assert_eq!(is_match("src/**", &g, text), want, "src/** on {text:?}");
        }
    }

    #[test]
    fn a_glob_equal_to_the_text_matches_and_case_folding_spares_it() {
        // picomatch.makeRe('{a,b}', { nocase: true }): '{a,b}' itself matches, '{A,B}' does not.
        let g = re(r"^(?:(a|b))$", "i", false);
        assert!(is_match("{a,b}", &g, "{a,b}"));
        assert!(is_match("{a,b}", &g, "B"));
        assert!(!is_match("{a,b}", &g, "{A,B}"));
    }

    #[test]
    fn match_base_tests_the_last_segment() {
        // picomatch.makeRe('*.js').source with { matchBase: true }
        let g = re(r"^(?:(?!\.)(?=.)[^/]*?\.js\/?)$", "", true);
        for (text, want) in
            [("a.js", true), ("lib/a.js", true), ("lib/a.js/", true), ("lib/.a.js", false), ("a.js/x", false)]
        {
            assert_eq!(is_match("*.js", &g, text), want, "*.js on {text:?}");
        }
    }

    #[test]
    fn many_star_segments_make_a_regex_linear_in_them() {
        // picomatch's regex for `*/*/…/*`: the automaton reaches each segment by two states that
        // answer alike; made one, the regex written from it grows by the same amount a segment.
        let size = |n: usize| {
            let segment = "(?!\\.)(?=.)[^/]*?";
            let source = format!("^(?:{}\\/?)$", vec![segment; n].join("\\/"));
            let flags = Flags::parse("").unwrap();
            let node = parse::parse(&source, flags).unwrap();
            let automaton = lookahead::automaton(&node, flags.mode(), &separators(false)).unwrap();
            let merged = automaton.trim().merged();
            assert!(merged.accept.len() < automaton.trim().accept.len());
            lookahead::node_size(&merged.to_node().unwrap())
        };
        let (a, b, c) = (size(8), size(16), size(32));
        assert_eq!(c - b, 2 * (b - a), "{a} {b} {c}");
    }

    #[test]
    fn a_plain_glob_is_a_string_comparison() {
        let out = compile("src/index.js", &re(r"^(?:src\/index\.js)$", "", false)).unwrap();
        assert_eq!(out.literal.map(|l| l.1), Some("src/index.js".to_string()));
    }
}
