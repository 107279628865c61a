//! Sets of literal patterns of every place and case mode against a naive reference: every
//! matching index, the first, and `test`, on any text.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::{Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    patterns: Vec<(Vec<u8>, u8, bool)>,
    /// Picks the byte that pads each text to a long one.
    pad: u8,
    texts: Vec<Vec<u8>>,
}

/// Each text is tried as it is and after `PAD` copies of one byte: a long text, which a
/// few case-sensitive literals search from the first byte any of them starts with.
const PAD: usize = 300;

const ALPHABET: &[u8] = b"abAB/.x\xc3\xa9";

fn small(bytes: &[u8], max: usize) -> String {
    String::from_utf8_lossy(&bytes.iter().take(max).map(|&b| ALPHABET[b as usize % ALPHABET.len()]).collect::<Vec<_>>())
        .into_owned()
}

fn naive(kind: Kind, pattern: &str, text: &[u8], ci: bool) -> bool {
    let fold = |b: &[u8]| if ci { b.to_ascii_lowercase() } else { b.to_vec() };
    let (p, t) = (fold(pattern.as_bytes()), fold(text));
    match kind {
        Kind::Exact => t == p,
        Kind::Prefix => t.starts_with(&p),
        Kind::Suffix => t.ends_with(&p),
        _ => p.is_empty() || t.windows(p.len()).any(|w| w == p.as_slice()),
    }
}

fuzz_target!(|case: Case| {
    let kinds = [Kind::Exact, Kind::Prefix, Kind::Suffix, Kind::Contains];
    let specs: Vec<PatternSpec> = case
        .patterns
        .iter()
        .take(100)
        .map(|(p, k, ci)| PatternSpec {
            pattern: small(p, 5),
            kind: kinds[*k as usize % 4],
            case_insensitive: *ci,
            syntax: Syntax::Js,
            glob: None,
        })
        // Non-ASCII case-insensitive literals are Unicode regexes: not this reference's job.
        .filter(|s| !s.case_insensitive || s.pattern.is_ascii())
        .collect();
    if specs.is_empty() {
        return;
    }
    let m = Matcher::new(&specs).expect("literals always compile");
    let ascii: Vec<u8> = ALPHABET.iter().copied().filter(u8::is_ascii).collect();
    let pad = char::from(ascii[case.pad as usize % ascii.len()]).to_string().repeat(PAD);
    for text in case.texts.iter().take(8).flat_map(|t| {
        let text = small(t, 16);
        [format!("{pad}{text}"), text]
    }) {
        let expected: Vec<u32> = specs
            .iter()
            .enumerate()
            .filter(|(_, s)| naive(s.kind, &s.pattern, text.as_bytes(), s.case_insensitive))
            .map(|(i, _)| i as u32)
            .collect();
        assert_eq!(m.matches(text.as_bytes()), expected, "{text:?}");
        assert_eq!(m.first(text.as_bytes()), expected.first().copied());
        assert_eq!(m.test(text.as_bytes()), !expected.is_empty());
    }
});
