//! `Grams` against a naive search: every occurrence (pattern, start, end) of the literals it
//! takes, each literal's in order of start, and `is_match`, on any text. A small alphabet
//! with bytes that fold together (`@` and `` ` ``, `A` and `a`) fills keys, so literals are
//! keyed by later windows and left over as well.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::grams::Grams;
use std::collections::{HashMap, HashSet};

#[derive(Arbitrary, Debug)]
struct Case {
    literals: Vec<Vec<u8>>,
    text: Vec<u8>,
    ci: bool,
}

const ALPHABET: &[u8] = b"aAb@`\xc3\xa9";

fn small(bytes: &[u8], max: usize) -> String {
    String::from_utf8_lossy(&bytes.iter().take(max).map(|&b| ALPHABET[b as usize % ALPHABET.len()]).collect::<Vec<_>>())
        .into_owned()
}

fuzz_target!(|case: Case| {
    let literals: Vec<(String, u32)> =
        case.literals.iter().take(200).enumerate().map(|(i, l)| (small(l, 12), i as u32)).collect();
    let text = small(&case.text, 256);
    let text = text.as_bytes();
    let Some((grams, rest)) = Grams::new(&literals, case.ci) else {
        assert!(
            literals.iter().all(|(l, _)| !(4..=64).contains(&l.len())),
            "it refuses a set only with no literal it can take (at most 200 keys here)"
        );
        return;
    };
    let left: HashSet<u32> = rest.iter().map(|(_, p)| *p).collect();
    let mut expected = Vec::new();
    for (literal, pattern) in literals.iter().filter(|(_, p)| !left.contains(p)) {
        let literal = literal.as_bytes();
        assert!((4..=64).contains(&literal.len()), "only literals it can bound are taken");
        for (start, window) in text.windows(literal.len()).enumerate() {
            if if case.ci { window.eq_ignore_ascii_case(literal) } else { window == literal } {
                expected.push((*pattern, start, start + literal.len()));
            }
        }
    }
    let mut got = Vec::new();
    let mut last: HashMap<u32, usize> = HashMap::new();
    grams.try_each_occurrence(text, |p, s, e| {
        assert!(last.insert(p, s).is_none_or(|before| before < s), "each literal's occurrences in order");
        got.push((p, s, e));
        true
    });
    assert_eq!(grams.is_match(text), !got.is_empty());
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected, "{literals:?} in {:?}", String::from_utf8_lossy(text));
});
