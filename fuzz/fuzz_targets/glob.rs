//! Globs (`*` any run, `?` one character, `\` escapes; classes parsed but not compared)
//! against a plain backtracking reference, on a small alphabet where bugs surface fast.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::{Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    pattern: Vec<u8>,
    texts: Vec<Vec<u8>>,
    ci: bool,
}

const PATTERN_ALPHABET: &[u8] = b"ab/.*?\\[]!-A";
const TEXT_ALPHABET: &[char] = &['a', 'b', '/', '.', 'A', 'é', '[', '*'];

/// Whether `text` matches `glob`, tried every way (exponential, fine for short inputs).
fn reference(glob: &[char], text: &[char], ci: bool) -> bool {
    let eq = |a: char, b: char| if ci { a.eq_ignore_ascii_case(&b) } else { a == b };
    match glob.split_first() {
        None => text.is_empty(),
        Some(('*', rest)) => (0..=text.len()).any(|i| reference(rest, &text[i..], ci)),
        Some(('?', rest)) => !text.is_empty() && reference(rest, &text[1..], ci),
        Some(('\\', rest)) => match rest.split_first() {
            Some((&c, rest)) => text.first().is_some_and(|&t| eq(c, t)) && reference(rest, &text[1..], ci),
            None => false,
        },
        Some((&c, rest)) => text.first().is_some_and(|&t| eq(c, t)) && reference(rest, &text[1..], ci),
    }
}

fuzz_target!(|case: Case| {
    let glob: String =
        case.pattern.iter().take(12).map(|&b| PATTERN_ALPHABET[b as usize % PATTERN_ALPHABET.len()] as char).collect();
    let spec = PatternSpec {
        pattern: glob.clone(),
        kind: Kind::Wildcard,
        case_insensitive: case.ci,
        syntax: Syntax::Js,
        glob: None,
    };
    let Ok(m) = Matcher::new(&[spec]) else {
        // Only a malformed class or a trailing backslash is refused.
        assert!(glob.contains('[') || glob.ends_with('\\'), "{glob:?} refused");
        return;
    };
    let chars: Vec<char> = glob.chars().collect();
    for text in case.texts.iter().take(8) {
        let text: Vec<char> = text.iter().take(10).map(|&b| TEXT_ALPHABET[b as usize % TEXT_ALPHABET.len()]).collect();
        let s: String = text.iter().collect();
        let got = m.test(s.as_bytes());
        if !glob.contains('[') {
            assert_eq!(got, reference(&chars, &text, case.ci), "{glob:?} on {s:?}");
        }
    }
});
