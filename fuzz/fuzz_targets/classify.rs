//! Classification and compilation of any one pattern of any kind (a glob's regex: any JS
//! source, look-ahead anywhere): no panic; the methods of a compiled matcher agree with
//! each other (also beside a literal and two regexes, in a matcher of three structures); and a
//! regex read as a plain literal matches exactly what the `regex` crate matches for the
//! same source.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::{GlobRegex, IgnoreGlob, Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    pattern: String,
    kind: u8,
    ci: bool,
    texts: Vec<Vec<u8>>,
}

fuzz_target!(|case: Case| {
    let kinds = [Kind::Regex, Kind::Exact, Kind::Prefix, Kind::Suffix, Kind::Contains, Kind::Glob, Kind::Wildcard];
    let kind = kinds[(case.kind & 0x7F) as usize % kinds.len()];
    // The high bit picks the dialect: JavaScript's (the default) or Rust's.
    let syntax = if case.kind & 0x80 == 0 { Syntax::Js } else { Syntax::Rust };
    // A glob's regex comes from picomatch; here the pattern itself stands for it, so the
    // look-ahead compiler (`js_regex::lookahead`) meets any JavaScript source.
    let glob = (kind == Kind::Glob).then(|| GlobRegex {
        source: case.pattern.clone(),
        flags: if case.ci { "i".into() } else { String::new() },
        match_base: syntax == Syntax::Rust,
        // Bits of `kind` past the kinds pick picomatch's `windows` and an `ignore` glob (a
        // text that starts with \u{1}), so the backslash reading and the vetoes are met too.
        windows: case.kind & 0x40 != 0,
        ignore: if case.kind & 0x20 != 0 {
            vec![IgnoreGlob { glob: "\u{1}*".into(), source: "^(?:\u{1}.*)$".into(), flags: String::new() }]
        } else {
            Vec::new()
        },
    });
    let spec = PatternSpec { pattern: case.pattern.clone(), kind, case_insensitive: case.ci, syntax, glob };
    let Ok(m) = Matcher::new(std::slice::from_ref(&spec)) else { return };
    let beside = |pattern: &str, kind| PatternSpec {
        pattern: pattern.into(),
        kind,
        case_insensitive: false,
        syntax,
        glob: None,
    };
    // An anchored regex and one with no literal prefix beside it: `test` then walks the
    // anchored patterns and the others together (`matcher::any`), where `matches` asks the
    // structures.
    let three = Matcher::new(&[
        spec,
        beside("\u{1}lit", Kind::Contains),
        beside(".\u{1}re\\d", Kind::Regex),
        beside("^\u{1}st", Kind::Regex),
    ])
    .expect("the pattern compiles beside three plain ones");
    let reference = (kind == Kind::Regex && syntax == Syntax::Rust && m.sole_literal().is_some())
        .then(|| regex::bytes::RegexBuilder::new(&case.pattern).case_insensitive(case.ci).build().ok())
        .flatten();
    for text in case.texts.iter().take(8) {
        let test = m.test(text);
        assert_eq!(three.test(text), !three.matches(text).is_empty());
        // Twice over, so that a text of 16 bytes or more is walked in halves (from 32,
        // `matcher::any`), with the text's own bytes on both sides of the middle.
        let twice = [text.as_slice(), b" ", text].concat();
        assert_eq!(three.test(&twice), !three.matches(&twice).is_empty());
        if !text.contains(&1) {
            assert_eq!(three.test(text), test);
        }
        assert_eq!(test, m.first(text).is_some());
        assert_eq!(test, !m.matches(text).is_empty());
        if let Ok(all) = m.find_all(text) {
            assert_eq!(test, !all.is_empty());
            assert!(all.iter().all(|&(_, s, e)| s <= e && e <= text.len()));
        }
        // Literals fold ASCII only (as JavaScript's /i does); compare where that agrees.
        if let (Some(re), true) = (&reference, !case.ci || text.is_ascii()) {
            assert_eq!(test, re.is_match(text), "{:?} on {:?}", case.pattern, String::from_utf8_lossy(text));
        }
    }
});
