//! Globs as picomatch means them. picomatch (the JavaScript package every bundler and test
//! runner uses) turns a glob into a `RegExp`; `lib/patterns.js` asks it for that regex, and this
//! module turns the regex into one without look-around (`js_regex::lookahead`), so the glob
//! joins every other pattern in the one regex set. picomatch's own test adds two things to
//! its regex, and so does this module:
//!
//! - a text equal to the glob itself matches (picomatch compares them before the regex);
//! - with `matchBase`/`basename`, the regex is tested on the text's last path segment (the
//!   one before a trailing `/` when there is one). The empty text never matches.

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
}

const SLASH: u32 = b'/' as u32;

/// The regex (no look-around) of the texts picomatch's matcher for `glob` answers true on.
pub fn compile(glob: &str, re: &GlobRegex) -> Result<JsRegex, String> {
    let flags = Flags::parse(&re.flags)?;
    let mode = flags.mode();
    let node = parse::parse(&re.source, flags)?;
    let slash = CharSet::one(SLASH);
    let mut dfa = lookahead::automaton(&node, mode, std::slice::from_ref(&slash))?;
    // picomatch answers false on the empty text before it tries the regex. State 0 is the
    // empty text's and no transition leads back to it.
    let empty = std::mem::replace(&mut dfa.accept[0], false);
    let matched = if re.match_base {
        // The segment: its regex without '/', tested on a text that is that segment alone.
        let k = dfa.classes.iter().position(|c| *c == slash).ok_or("no class for '/'")?;
        for row in &mut dfa.edges {
            row.retain(|&(c, _)| c != k);
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
            node: Box::new(seq(everything, Node::Set(slash.clone()))),
            min: 0,
            max: Some(1),
            greedy: true,
        };
        let last = lookahead::alt(nonempty, seq(any, Node::Set(slash)));
        seq(seq(Node::TextStart, dirs), seq(last, Node::TextEnd))
    } else {
        seq(seq(Node::TextStart, dfa.trim().to_node()?), Node::TextEnd)
    };
    let itself = glob.encode_utf16().fold(Node::TextStart, |n, u| seq(n, Node::Set(CharSet::one(u32::from(u)))));
    let whole = lookahead::alt(matched, seq(itself, Node::TextEnd));
    // Sets are case-closed already: nothing is folded again.
    js_regex::translate_node(chars(whole), Flags { ignore_case: false, ..flags })
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
        GlobRegex { source: source.into(), flags: flags.into(), match_base }
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
    fn a_plain_glob_is_a_string_comparison() {
        let out = compile("src/index.js", &re(r"^(?:src\/index\.js)$", "", false)).unwrap();
        assert_eq!(out.literal.map(|l| l.1), Some("src/index.js".to_string()));
    }
}
