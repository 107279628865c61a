//! Classifying one pattern: what it is (`Kind`), and how it is matched (`Plan`). Literal
//! shapes, whatever kind they were written as (a regex `^abc$`, a glob `abc*`), become plain
//! string comparisons; only what needs an automaton reaches the regex engine.

use super::glob::GlobRegex;
use super::js_regex::{self, parse::Flags, Spans};
use regex_syntax::hir::{Hir, HirKind, Look};

/// How a pattern string is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A regular expression, unanchored, in the pattern's `Syntax`.
    Regex,
    /// The whole text equals the literal.
    Exact,
    /// The text starts with the literal.
    Prefix,
    /// The text ends with the literal.
    Suffix,
    /// The text contains the literal.
    Contains,
    /// A glob as picomatch means it, matched against the whole text (see `glob.rs`).
    Glob,
    /// `*` any run, `?` one character, `[abc]` a class, matched against the whole text.
    Wildcard,
}

/// The dialect of a `Regex` pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// JavaScript `RegExp` source (`js_regex`); `/source/flags` is read as a literal.
    Js,
    /// Rust's `regex` crate syntax.
    Rust,
}

impl Syntax {
    pub fn parse(name: &str) -> Option<Syntax> {
        match name {
            "js" => Some(Syntax::Js),
            "rust" => Some(Syntax::Rust),
            _ => None,
        }
    }
}

impl Kind {
    pub fn parse(name: &str) -> Option<Kind> {
        Some(match name {
            "regex" => Kind::Regex,
            "exact" => Kind::Exact,
            "prefix" => Kind::Prefix,
            "suffix" => Kind::Suffix,
            "contains" => Kind::Contains,
            "glob" => Kind::Glob,
            "wildcard" => Kind::Wildcard,
            _ => return None,
        })
    }
}

pub use super::place::Place;

/// How one pattern is matched.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// A plain comparison; `ci` means ASCII case-insensitive (the literal is ASCII).
    Literal { place: Place, text: String, ci: bool },
    /// A Rust regex (flags already applied).
    Regex(RegexPlan),
}

/// A pattern for the regex engine.
#[derive(Clone, Debug, PartialEq)]
pub struct RegexPlan {
    /// Rust `regex` syntax (bytes mode): matches where the pattern matches.
    pub source: String,
    /// Runs on the UTF-16 units view of the text (`js_regex::units`).
    pub units: bool,
    /// Look-around: how `findAll` reports spans (see `js_regex::Spans`).
    pub spans: Option<Spans>,
}

impl RegexPlan {
    fn plain(source: String) -> Plan {
        Plan::Regex(RegexPlan { source, units: false, spans: None })
    }
}

/// Turns a pattern into its plan, or a message saying why it is not a valid pattern.
pub fn classify(pattern: &str, kind: Kind, ci: bool, syntax: Syntax, glob: Option<&GlobRegex>) -> Result<Plan, String> {
    let literal = |place: Place, text: &str| literal_kind_plan(place, text, ci);
    match kind {
        Kind::Exact => Ok(literal(Place::Exact, pattern)),
        Kind::Prefix => Ok(literal(Place::Prefix, pattern)),
        Kind::Suffix => Ok(literal(Place::Suffix, pattern)),
        Kind::Contains => Ok(literal(Place::Contains, pattern)),
        Kind::Wildcard => wildcard(pattern, ci),
        Kind::Glob if pattern.is_empty() => Err("a glob must not be empty".into()),
        Kind::Glob => match glob {
            Some(re) => Ok(js_plan(super::glob::compile(pattern, re)?)),
            None => Err("a glob is compiled from picomatch's regex, which require('qr-native') supplies".into()),
        },
        Kind::Regex if syntax == Syntax::Js => js(pattern, ci),
        Kind::Regex => regex(pattern, ci),
    }
}

/// `/source/flags`, when `pattern` is written that way: a slash, a body with no unescaped
/// slash outside a class and no line break, a slash, and letters.
pub fn regex_literal(pattern: &str) -> Option<(&str, &str)> {
    let rest = pattern.strip_prefix('/')?;
    let end = rest.rfind('/')?;
    let (body, flags) = (&rest[..end], &rest[end + 1..]);
    if body.is_empty() || !flags.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let (mut escaped, mut in_class) = (false, false);
    for c in body.chars() {
        match c {
            '\n' | '\r' | '\u{2028}' | '\u{2029}' => return None,
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => return None,
            _ => {}
        }
    }
    (!escaped).then_some((body, flags))
}

/// A JavaScript `RegExp` source (or `/source/flags`); `ci` adds the `i` flag.
fn js(pattern: &str, ci: bool) -> Result<Plan, String> {
    let (source, flags) = regex_literal(pattern).unwrap_or((pattern, ""));
    let mut flags = Flags::parse(flags)?;
    flags.ignore_case |= ci;
    Ok(js_plan(js_regex::translate(source, flags)?))
}

fn js_plan(t: js_regex::JsRegex) -> Plan {
    match t.literal {
        Some((place, text, ci)) => Plan::Literal { place, text, ci },
        None => Plan::Regex(RegexPlan { source: t.exists, units: t.units, spans: t.spans }),
    }
}

/// A literal kind's plan (`exact`, `prefix`, `suffix`, `contains`): a comparison, or, when
/// case-insensitivity meets non-ASCII, what the escaped literal means as a JavaScript `RegExp`
/// with `i` (its folding: é and É, but not ſ and s), as `replace`'s union reads it.
fn literal_kind_plan(place: Place, text: &str, ci: bool) -> Plan {
    if !ci || text.is_ascii() {
        return Plan::Literal { place, text: text.to_string(), ci };
    }
    use js_regex::parse::Node;
    let mut items: Vec<Node> = text.encode_utf16().map(|u| Node::Char(u32::from(u))).collect();
    if matches!(place, Place::Exact | Place::Prefix) {
        items.insert(0, Node::TextStart);
    }
    if matches!(place, Place::Exact | Place::Suffix) {
        items.push(Node::TextEnd);
    }
    let flags = Flags { ignore_case: true, ..Flags::default() };
    match js_regex::translate_node(Node::Seq(items), flags) {
        Ok(t) => js_plan(t),
        // (A literal always translates; should it not, Unicode folding stands in.)
        Err(_) => RegexPlan::plain(literal_regex(place, text, "(?i)")),
    }
}

/// A literal plan, or a regex when case-insensitivity meets non-ASCII (Unicode folding).
fn literal_plan(place: Place, text: &str, ci: bool) -> Plan {
    if ci && !text.is_ascii() {
        return RegexPlan::plain(literal_regex(place, text, "(?i)"));
    }
    Plan::Literal { place, text: text.to_string(), ci }
}

/// A literal as a regex source: `flags` (`(?i)`, `(?i-u)` or none), then the text escaped
/// and anchored as `place` says.
pub fn literal_regex(place: Place, text: &str, flags: &str) -> String {
    let body = regex_syntax::escape(text);
    match place {
        Place::Exact => format!(r"{flags}\A{body}\z"),
        Place::Prefix => format!(r"{flags}\A{body}"),
        Place::Suffix => format!(r"{flags}{body}\z"),
        Place::Contains => format!("{flags}{body}"),
    }
}

/// The literal a HIR matches exactly, if it is one (an empty pattern is the empty literal).
fn hir_literal(hir: &Hir) -> Option<String> {
    match hir.kind() {
        HirKind::Empty => Some(String::new()),
        HirKind::Literal(lit) => String::from_utf8(lit.0.to_vec()).ok(),
        _ => None,
    }
}

fn regex(pattern: &str, ci: bool) -> Result<Plan, String> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).map_err(|e| e.to_string())?;
    let source = if ci { format!("(?i){pattern}") } else { pattern.to_string() };
    let plan = |place, lit: Option<String>| match lit {
        Some(text) => literal_plan(place, &text, ci),
        None => RegexPlan::plain(source.clone()),
    };
    Ok(match hir.kind() {
        HirKind::Empty | HirKind::Literal(_) => plan(Place::Contains, hir_literal(&hir)),
        HirKind::Concat(parts) => match parts.as_slice() {
            [start, mid, end] if is_look(start, Look::Start) && is_look(end, Look::End) => {
                plan(Place::Exact, hir_literal(mid))
            }
            [start, mid] if is_look(start, Look::Start) => plan(Place::Prefix, hir_literal(mid)),
            [mid, end] if is_look(end, Look::End) => plan(Place::Suffix, hir_literal(mid)),
            _ => RegexPlan::plain(source),
        },
        HirKind::Look(Look::Start) | HirKind::Look(Look::End) => plan(Place::Prefix, Some(String::new())),
        _ => RegexPlan::plain(source),
    })
}

fn is_look(hir: &Hir, look: Look) -> bool {
    matches!(hir.kind(), HirKind::Look(l) if *l == look)
}

/// One piece of a glob.
#[derive(Debug, PartialEq)]
enum GlobToken {
    Char(char),
    Star,
    Question,
    /// A bracket class, already in regex syntax.
    Class(String),
}

fn glob_tokens(pattern: &str) -> Result<Vec<GlobToken>, String> {
    let mut out = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                // `**` is the same as `*`.
                if out.last() != Some(&GlobToken::Star) {
                    out.push(GlobToken::Star);
                }
            }
            '?' => out.push(GlobToken::Question),
            '\\' => out.push(GlobToken::Char(chars.next().ok_or("a glob cannot end with a lone backslash")?)),
            '[' => {
                let mut class = String::from("[");
                if matches!(chars.peek(), Some('!') | Some('^')) {
                    chars.next();
                    class.push('^');
                }
                let mut first = true;
                loop {
                    match chars.next() {
                        None => return Err("unclosed '[' in glob".to_string()),
                        Some(']') if !first => break,
                        Some(c @ ('\\' | '[' | ']' | '&' | '~')) => {
                            class.push('\\');
                            class.push(c);
                        }
                        Some('-') => class.push('-'),
                        Some(c) => class.push_str(&regex_syntax::escape(&c.to_string())),
                    }
                    first = false;
                }
                class.push(']');
                out.push(GlobToken::Class(class));
            }
            c => out.push(GlobToken::Char(c)),
        }
    }
    Ok(out)
}

fn wildcard(pattern: &str, ci: bool) -> Result<Plan, String> {
    let tokens = glob_tokens(pattern)?;
    let literal_run = |ts: &[GlobToken]| -> Option<String> {
        ts.iter().map(|t| if let GlobToken::Char(c) = t { Some(*c) } else { None }).collect()
    };
    // Literal shapes: `abc`, `abc*`, `*abc`, `*abc*`.
    let n = tokens.len();
    let starts = tokens.first() == Some(&GlobToken::Star);
    let ends = n > 1 && tokens.last() == Some(&GlobToken::Star);
    let inner = &tokens[starts as usize..n - ends as usize];
    if let Some(lit) = literal_run(inner) {
        let place = match (starts, ends) {
            (false, false) => Place::Exact,
            (false, true) => Place::Prefix,
            (true, false) if n == 1 => Place::Contains, // `*` alone matches everything
            (true, false) => Place::Suffix,
            (true, true) => Place::Contains,
        };
        return Ok(literal_plan(place, &lit, ci));
    }
    let mut source = String::from(if ci { r"(?is)\A" } else { r"(?s)\A" });
    for t in &tokens {
        match t {
            GlobToken::Char(c) => source.push_str(&regex_syntax::escape(&c.to_string())),
            GlobToken::Star => source.push_str(".*"),
            GlobToken::Question => source.push('.'),
            GlobToken::Class(class) => source.push_str(class),
        }
    }
    source.push_str(r"\z");
    // A class the regex parser refuses (e.g. a reversed range) is an invalid glob.
    regex_syntax::parse(&source).map_err(|e| e.to_string())?;
    Ok(RegexPlan::plain(source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(place: Place, text: &str, ci: bool) -> Plan {
        Plan::Literal { place, text: text.into(), ci }
    }

    #[test]
    fn literal_regexes_become_string_comparisons() {
        assert_eq!(
            classify(r"Googlebot\/", Kind::Regex, false, Syntax::Rust, None).unwrap(),
            lit(Place::Contains, "Googlebot/", false)
        );
        assert_eq!(classify("^curl", Kind::Regex, true, Syntax::Rust, None).unwrap(), lit(Place::Prefix, "curl", true));
        assert_eq!(classify("bot$", Kind::Regex, false, Syntax::Rust, None).unwrap(), lit(Place::Suffix, "bot", false));
        assert_eq!(classify("^ok$", Kind::Regex, false, Syntax::Rust, None).unwrap(), lit(Place::Exact, "ok", false));
        assert_eq!(classify("", Kind::Regex, false, Syntax::Rust, None).unwrap(), lit(Place::Contains, "", false));
    }

    #[test]
    fn real_regexes_stay_regexes() {
        assert_eq!(
            classify("bot|crawl", Kind::Regex, false, Syntax::Rust, None).unwrap(),
            RegexPlan::plain("bot|crawl".into())
        );
        assert_eq!(classify("a.c", Kind::Regex, true, Syntax::Rust, None).unwrap(), RegexPlan::plain("(?i)a.c".into()));
        assert_eq!(
            classify("(?m)^x", Kind::Regex, false, Syntax::Rust, None).unwrap(),
            RegexPlan::plain("(?m)^x".into())
        );
    }

    #[test]
    fn lookaround_and_backreferences_are_invalid() {
        assert!(classify("(?=a)b", Kind::Regex, false, Syntax::Rust, None).is_err());
        assert!(classify(r"(a)\1", Kind::Regex, false, Syntax::Rust, None).is_err());
        assert!(classify("(unclosed", Kind::Regex, false, Syntax::Rust, None).is_err());
    }

    #[test]
    fn wildcards_with_literal_shapes_need_no_regex() {
        assert_eq!(
            classify("*.png", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            lit(Place::Suffix, ".png", false)
        );
        assert_eq!(
            classify("/admin/*", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            lit(Place::Prefix, "/admin/", false)
        );
        assert_eq!(
            classify("*wp-login*", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            lit(Place::Contains, "wp-login", false)
        );
        assert_eq!(
            classify("robots.txt", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            lit(Place::Exact, "robots.txt", false)
        );
        assert_eq!(classify("*", Kind::Wildcard, false, Syntax::Rust, None).unwrap(), lit(Place::Contains, "", false));
        assert_eq!(
            classify(r"a\*b", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            lit(Place::Exact, "a*b", false)
        );
    }

    #[test]
    fn other_wildcards_become_anchored_regexes() {
        assert_eq!(
            classify("/img/*.jp?g", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            RegexPlan::plain(r"(?s)\A/img/.*\.jp.g\z".into())
        );
        assert_eq!(
            classify("[!a-c]x", Kind::Wildcard, false, Syntax::Rust, None).unwrap(),
            RegexPlan::plain(r"(?s)\A[^a-c]x\z".into())
        );
        assert!(classify("[abc", Kind::Wildcard, false, Syntax::Rust, None).is_err());
        assert!(classify("[z-a]", Kind::Wildcard, false, Syntax::Rust, None).is_err());
    }

    #[test]
    fn javascript_syntax_reads_regex_literals_and_their_flags() {
        assert_eq!(regex_literal("/bot/i"), Some(("bot", "i")));
        assert_eq!(regex_literal("/a[/]b/"), Some(("a[/]b", "")));
        assert_eq!(regex_literal("/api/v1/"), None);
        assert_eq!(regex_literal("/x/1"), None);
        assert_eq!(
            classify("/^CURL/i", Kind::Regex, false, Syntax::Js, None).unwrap(),
            lit(Place::Prefix, "CURL", true)
        );
        assert!(classify("/x/q", Kind::Regex, false, Syntax::Js, None).is_err());
    }

    #[test]
    fn non_ascii_case_insensitive_literals_fold_as_javascript_does() {
        // What /^ÉTÉ$/i means in JavaScript: É and é, T and t; and /sé/i: not ſ for s.
        let matches = |pattern: &str, kind, text: &str| match classify(pattern, kind, true, Syntax::Js, None).unwrap() {
            Plan::Regex(r) => regex::bytes::Regex::new(&r.source).unwrap().is_match(text.as_bytes()),
            other => panic!("{other:?}"),
        };
        assert!(matches("ÉTÉ", Kind::Exact, "été") && !matches("ÉTÉ", Kind::Exact, "étés"));
        assert!(matches("sé", Kind::Contains, "xSÉ") && !matches("sé", Kind::Contains, "ſé"));
        assert!(!matches("ké", Kind::Prefix, "\u{212A}é"));
    }
}
