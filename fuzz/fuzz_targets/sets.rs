//! Sets of small regexes, anchored and not, literal and not, against each member alone by
//! the `regex` crate: `test`, `first` and `matches` of one matcher of them all, on any text,
//! short and long. `test` walks the anchored members and the others together in lazy DFAs,
//! the others in two halves from 32 bytes on (`matcher::any`); `first` and `matches` ask the
//! structures one by one (length index, Aho–Corasick, regex set). All three must say what
//! each member alone says.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::{Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    /// (shape, body) per member.
    members: Vec<(u8, Vec<u8>)>,
    ci: bool,
    /// Adds an anchored member and one with no literal prefix: the two sides are then walked
    /// together (unless a member needs Unicode word boundaries), not one after the other.
    together: bool,
    texts: Vec<Vec<u8>>,
}

/// Where a member's body goes: anchored at either end or both, inside a class context, at
/// ASCII word boundaries, repeated, or plain (a literal the matcher takes out of the regex set).
const SHAPES: [&str; 14] = [
    "{}",
    "^{}",
    "{}$",
    "^{}$",
    "^[^ ]{3,}",
    "[^a]{}",
    r"(?-u:\b){}(?-u:\b)",
    r"(?:^|[^b]){}",
    "^(?:{})+ ",
    "{}[0-9]{2}",
    "(?:{}|y)z",
    "{}.*x$",
    r"^\w+/{}",
    "(?i){}",
];

/// Bodies and texts come from a few bytes, most of them `a`, `b` and spaces, so that members
/// and texts meet often: then upper case, a digit, a slash, a newline and a two-byte character.
const ALPHABET: &[u8] = b"aaaabbbb   AB9/\n\xc3\xa9";

fn small(bytes: &[u8], max: usize) -> Vec<u8> {
    bytes.iter().take(max).map(|&b| ALPHABET[b as usize % ALPHABET.len()]).collect()
}

fuzz_target!(|case: Case| {
    let sources: Vec<String> = case
        .members
        .iter()
        .take(40)
        .map(|(shape, body)| {
            let body = regex::escape(&String::from_utf8_lossy(&small(body, 4)));
            SHAPES[*shape as usize % SHAPES.len()].replace("{}", &body)
        })
        .chain(case.together.then(|| ["^ba".to_string(), "[^ ]ab".to_string()]).into_iter().flatten())
        .collect();
    if sources.is_empty() {
        return;
    }
    let specs: Vec<PatternSpec> = sources
        .iter()
        .map(|source| PatternSpec {
            pattern: source.clone(),
            kind: Kind::Regex,
            case_insensitive: case.ci,
            syntax: Syntax::Rust,
            glob: None,
        })
        .collect();
    let m = Matcher::new(&specs).expect("small regexes compile");
    let reference: Vec<regex::bytes::Regex> = sources
        .iter()
        .map(|s| regex::bytes::RegexBuilder::new(s).case_insensitive(case.ci).build().expect("the reference compiles"))
        .collect();
    for text in case.texts.iter().take(8) {
        let short = small(text, 200);
        // The text; three times over, so that from 11 bytes on it is walked in halves with
        // the middle inside its own bytes; and after and before a long run of one byte, where
        // the second walk starts far from the first.
        let thrice = [&short[..], b" ", &short, &short].concat();
        let long = [vec![short.first().copied().unwrap_or(b'a'); 100], short.clone(), vec![b' '; 60]].concat();
        for t in [&short, &thrice, &long] {
            let expected: Vec<u32> =
                (0..reference.len() as u32).filter(|&i| reference[i as usize].is_match(t)).collect();
            // The text is written out only into a failure's message.
            let shown = || String::from_utf8_lossy(t);
            assert_eq!(m.test(t), !expected.is_empty(), "test: {sources:?} on {:?}", shown());
            assert_eq!(m.first(t), expected.first().copied(), "first: {sources:?} on {:?}", shown());
            assert_eq!(m.matches(t), expected, "matches: {sources:?} on {:?}", shown());
        }
        // `test` on every prefix of 32 bytes or more: the middle, where the second walk
        // starts and the first must meet it, moves a byte at a time.
        for end in 32..thrice.len().min(160) {
            let t = &thrice[..end];
            let expected = reference.iter().any(|re| re.is_match(t));
            assert_eq!(m.test(t), expected, "test: {sources:?} on {:?}", String::from_utf8_lossy(t));
        }
    }
});
