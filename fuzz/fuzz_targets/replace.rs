//! `replace`'s union against its definition: from each position in turn, the first member
//! (in order) that matches there, anchored, by the `regex` crate alone; an empty match moves
//! one character on. Members are literals of each kind (some in Aho–Corasick, some in the
//! regex set) and small regexes (Rust syntax, so they read code points, as the reference
//! does), case-insensitive or not, so the walk's merge of its searchers is what is tested.
//! Texts and members hold an astral character too (the two-view walk, and literals alone
//! skipping it), and texts reach 400 characters (offsets counted in long runs).
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::replace::Union;
use qr_native::matcher::{Kind, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    /// (shape, body, case-insensitive) per member.
    members: Vec<(u8, Vec<u8>, bool)>,
    text: Vec<u8>,
}

/// Rust-syntax shapes (no look-around: the reference is the regex crate alone).
const SHAPES: [&str; 8] = ["{}", "{}+", "{}*", "[{}]", "{}.", "^{}", "{}$", r"(?-u:\b){}"];

fn body(bytes: &[u8]) -> String {
    // A small alphabet, so members meet and overlap.
    bytes.iter().take(4).map(|b| ['a', 'b', 'c', ' ', 'é', '😀'][*b as usize % 6]).collect()
}

fuzz_target!(|case: Case| {
    let text: String =
        case.text.iter().take(400).map(|b| ['a', 'b', 'c', ' ', 'é', 'A', '\n', '😀', '€'][*b as usize % 9]).collect();
    let mut specs = Vec::new();
    let mut references = Vec::new();
    for (shape, raw, ci) in case.members.iter().take(12) {
        let b = body(raw);
        if b.is_empty() {
            continue;
        }
        let escaped = regex::escape(&b);
        let (spec, source) = if shape % 3 == 0 {
            // A literal kind, and its meaning as a regex (ASCII case folding).
            let kind = [Kind::Contains, Kind::Prefix, Kind::Suffix, Kind::Exact][(*shape as usize / 3) % 4];
            let anchored = match kind {
                Kind::Prefix => format!("^{escaped}"),
                Kind::Suffix => format!("{escaped}$"),
                Kind::Exact => format!("^{escaped}$"),
                _ => escaped.clone(),
            };
            // Non-ASCII with case-insensitivity is a JS-dialect regex: leave it out.
            if *ci && !b.is_ascii() {
                continue;
            }
            (
                PatternSpec { pattern: b.clone(), kind, case_insensitive: *ci, syntax: Syntax::Js, glob: None },
                format!("{}{anchored}", if *ci { "(?i-u)" } else { "" }),
            )
        } else {
            let source = SHAPES[*shape as usize % SHAPES.len()].replace("{}", &escaped);
            let source = if *ci { format!("(?i){source}") } else { source };
            (
                PatternSpec {
                    pattern: source.clone(),
                    kind: Kind::Regex,
                    case_insensitive: false,
                    syntax: Syntax::Rust,
                    glob: None,
                },
                source,
            )
        };
        let Ok(re) = regex::RegexBuilder::new(&format!(r"\A(?:{source})")).build() else { continue };
        specs.push(spec);
        references.push(re);
    }
    if specs.is_empty() {
        return;
    }
    let Ok(union) = Union::new(&specs) else { return };
    let found = union.find(text.as_bytes(), 10_000).expect("within the limit");
    // The definition, position by position (`\A` at `at` through a haystack cut there would
    // lose `^`, `$` and `\b`'s context: each member is searched anchored in the whole text).
    let mut expected = Vec::new();
    let mut at = 0;
    while at <= text.len() {
        let hit = references.iter().enumerate().find_map(|(i, re)| {
            let anchored = regex::Regex::new(&re.as_str().replacen(r"\A", "", 1)).ok()?;
            let m = anchored.find_at(&text, at).filter(|m| m.start() == at)?;
            Some((i as u32, m.start(), m.end()))
        });
        match hit {
            Some((i, s, e)) => {
                expected.push((i, s, e));
                at = if e > s { e } else { e + text[e..].chars().next().map_or(1, char::len_utf8) };
            }
            None => at += text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    // `find` answers in UTF-16 units; the reference in bytes.
    let units = |b: usize| text[..b].encode_utf16().count();
    let expected: Vec<(u32, usize, usize)> = expected.into_iter().map(|(i, s, e)| (i, units(s), units(e))).collect();
    assert_eq!(found, expected, "{specs:?} on {text:?}");
});
