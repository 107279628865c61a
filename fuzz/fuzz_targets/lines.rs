//! `scan_lines` against splitting the data into lines and testing each: same line numbers
//! for any bytes, `\n` and `\r\n` endings, empty lines and a missing final newline. And
//! `select_lines` picking the matching lines (which counts the lines between the line
//! filter's literals, looked for from their rarest pair in the data) against picking all of
//! them and keeping the matching ones (which splits every line), for any line limit.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::matcher::lines::{scan_lines, select_lines, Pick};
use qr_native::matcher::{Kind, Matcher, PatternSpec, Syntax};

#[derive(Arbitrary, Debug)]
struct Case {
    data: Vec<u8>,
    kind: u8,
    max_line: u8,
    last: bool,
}

fuzz_target!(|case: Case| {
    let data: Vec<u8> = case.data.iter().map(|&b| b"x\n\r.ab"[b as usize % 6]).collect();
    let (pattern, kind, ci) = [
        ("x", Kind::Contains, false),
        ("^a", Kind::Regex, false),
        ("b$", Kind::Regex, false),
        ("", Kind::Exact, false),
        ("ab.x", Kind::Contains, false),
        ("xAB", Kind::Contains, true),
        ("a.b\\.x", Kind::Regex, false),
    ][case.kind as usize % 7];
    let m = Matcher::new(&[PatternSpec {
        pattern: pattern.into(),
        kind,
        case_insensitive: ci,
        syntax: Syntax::Js,
        glob: None,
    }])
    .unwrap();
    let none = &|| Ok(());
    let got = scan_lines(&m, &data, none).unwrap();
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
    let max_line = 1 + case.max_line as usize;
    let all = select_lines(&m, &data, case.last, Pick::All, max_line, none).unwrap();
    let matching = select_lines(&m, &data, case.last, Pick::Matching, max_line, none).unwrap();
    let kept: Vec<_> = all.picked.iter().copied().filter(|p| p.3).collect();
    assert_eq!(matching.picked, kept);
    assert_eq!((matching.consumed, matching.lines, matching.too_long), (all.consumed, all.lines, all.too_long));
});
