//! `scan_lines` against splitting the data into lines and testing each: same line numbers
//! for any bytes, `\n` and `\r\n` endings, empty lines and a missing final newline.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::{lines::scan_lines, Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    data: Vec<u8>,
    kind: u8,
}

fuzz_target!(|case: Case| {
    let data: Vec<u8> = case.data.iter().map(|&b| b"x\n\r.ab"[b as usize % 6]).collect();
    let (pattern, kind) =
        [("x", Kind::Contains), ("^a", Kind::Regex), ("b$", Kind::Regex), ("", Kind::Exact)][case.kind as usize % 4];
    let m = Matcher::new(&[PatternSpec {
        pattern: pattern.into(),
        kind,
        case_insensitive: false,
        syntax: Syntax::Js,
        glob: None,
    }])
    .unwrap();
    let got = scan_lines(&m, &data, &|| Ok(())).unwrap();
    let mut pieces: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if data.is_empty() || data.ends_with(b"\n") {
        pieces.pop(); // no data has no line; the empty piece after a final newline is not one
    }
    let expected: Vec<u32> = pieces
        .iter()
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .enumerate()
        .filter(|(_, line)| m.test(line))
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(got, expected);
});
