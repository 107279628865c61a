//! JavaScript text on our side, with no N-API: UTF-16 units (what a JavaScript string is) to
//! UTF-8 (what the cores match and encode), the checks for lone surrogates, which have no
//! UTF-8 and which the contract refuses, and numbers printed as JavaScript prints them for
//! messages. The binding reads a string's units or bytes from V8 and hands them here.

use crate::error::Error;

/// Whether UTF-8 `bytes` hold U+FFFD (EF BF BD), what V8 writes for a lone surrogate. One
/// `memchr` for the lead byte: ASCII text costs a vector scan, and no searcher is built.
pub fn has_replacement_char(bytes: &[u8]) -> bool {
    memchr::memchr_iter(0xEF, bytes).any(|i| bytes[i + 1..].starts_with(&[0xBF, 0xBD]))
}

/// The units `mostly_ascii` samples.
const DENSE_SAMPLE: usize = 4096;
/// At most one in `SPARSE` of them outside ASCII is "mostly ASCII".
const SPARSE: usize = 8;

/// Appends `units` narrowed to bytes and answers true when every unit is ASCII; otherwise
/// appends nothing and answers false. Narrowed and checked in one pass, which compilers
/// vectorise.
#[inline]
pub fn push_ascii(units: &[u16], out: &mut Vec<u8>) -> bool {
    let from = out.len();
    let mut all = 0u16;
    out.extend(units.iter().map(|&u| {
        all |= u;
        u as u8
    }));
    if all < 0x80 {
        return true;
    }
    out.truncate(from);
    false
}

/// Whether at most one in `SPARSE` of the first `DENSE_SAMPLE` units is outside ASCII: such a
/// text converts faster here (`push_utf8`, SIMD over its ASCII runs); a denser one (Japanese,
/// say) through V8's own writer. Counted in byte-wide runs, which vectorise (a plain filtered
/// count cost more than narrowing the whole string).
#[inline]
pub fn mostly_ascii(units: &[u16]) -> bool {
    let sample = &units[..units.len().min(DENSE_SAMPLE)];
    let outside: usize = sample.chunks(255).map(|c| c.iter().fold(0u8, |n, &u| n + (u >= 0x80) as u8) as usize).sum();
    outside * SPARSE <= sample.len()
}

/// The length of the UTF-8 V8 writes for `units`: a pair is 4 bytes (its two units' 2 each)
/// and a lone surrogate U+FFFD's 3. The units are counted in one pass that vectorises, and
/// only a text with a lone surrogate is walked again to count them.
pub fn utf8_len(units: &[u16]) -> usize {
    let bytes = |u: u16| {
        if u < 0x80 {
            1
        } else if u < 0x800 || (0xD800..0xE000).contains(&u) {
            2
        } else {
            3
        }
    };
    let counted: usize = units.iter().map(|&u| bytes(u)).sum();
    if !has_lone_surrogate(units) {
        return counted;
    }
    let mut lone = 0;
    let mut rest = units;
    while let Some(at) = lone_surrogate_index(rest) {
        lone += 1;
        rest = &rest[at + 1..];
    }
    counted + lone
}

/// Whether `units` hold a surrogate that is not half of a pair: each unit is a high
/// surrogate exactly when the next is a low one, and the text neither starts with a low one
/// nor ends with a high one. One pass over each pair of neighbours, in byte-wide runs, which
/// vectorise.
pub fn has_lone_surrogate(units: &[u16]) -> bool {
    let high = |u: u16| u & 0xFC00 == 0xD800;
    let low = |u: u16| u & 0xFC00 == 0xDC00;
    match (units.first(), units.last()) {
        (Some(&first), Some(&last)) if low(first) || high(last) => return true,
        (None, _) | (_, None) => return false,
        _ => {}
    }
    let (this, next) = (&units[..units.len() - 1], &units[1..]);
    this.chunks(256)
        .zip(next.chunks(256))
        .any(|(a, b)| a.iter().zip(b).fold(0u8, |odd, (&u, &v)| odd | (high(u) != low(v)) as u8) != 0)
}

/// Appends the UTF-8 of `units` (a lone surrogate as U+FFFD) to `out`, a slice at a time
/// through a buffer on the stack, never splitting a surrogate pair.
pub fn push_utf8(units: &[u16], out: &mut Vec<u8>) {
    const STEP: usize = 4096;
    let mut scratch = [0u8; 3 * STEP];
    out.reserve(units.len() + units.len() / 4);
    let mut rest = units;
    while !rest.is_empty() {
        let mut take = rest.len().min(STEP);
        // A high surrogate last: keep it with its low half for the next slice.
        if take < rest.len() && (0xD800..0xDC00).contains(&rest[take - 1]) {
            take -= 1;
        }
        let written = encoding_rs::mem::convert_utf16_to_utf8(&rest[..take], &mut scratch);
        out.extend_from_slice(&scratch[..written]);
        rest = &rest[take..];
    }
}

pub fn lone_surrogate(name: impl std::fmt::Display, units: &[u16]) -> Error {
    let at = lone_surrogate_index(units).unwrap_or(0);
    Error::invalid_value(format!(
        "The argument '{name}' contains a lone UTF-16 surrogate at index {at}; it cannot be encoded without changing the data"
    ))
}

pub fn lone_surrogate_index(units: &[u16]) -> Option<usize> {
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if (0xD800..0xDC00).contains(&u) && units.get(i + 1).is_some_and(|n| (0xDC00..0xE000).contains(n)) {
            i += 2;
            continue;
        }
        if (0xD800..0xE000).contains(&u) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Formats a number as JavaScript prints it for the common cases (integers, NaN, ±Infinity).
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_lone_surrogates_but_not_pairs() {
        assert_eq!(lone_surrogate_index(&[0x61, 0xD83D, 0xDE00]), None);
        assert_eq!(lone_surrogate_index(&[0x61, 0xD83D]), Some(1));
        assert_eq!(lone_surrogate_index(&[0xDE00, 0x61]), Some(0));
    }

    #[test]
    fn lone_surrogates_are_found_as_std_finds_them_at_every_position() {
        // Units from an alphabet of ASCII, é, €, a high and a low half, in every sequence up
        // to length 4, then each lone half and each pair at every position of 600 letters
        // (across the 256-unit runs the check takes).
        let alphabet = [0x61u16, 0xE9, 0x20AC, 0xD83D, 0xDE00];
        let mut short = vec![vec![]];
        for _ in 0..4 {
            let longer: Vec<Vec<u16>> =
                short.iter().flat_map(|s| alphabet.iter().map(move |&u| [s.clone(), vec![u]].concat())).collect();
            short.extend(longer);
        }
        for units in &short {
            assert_eq!(has_lone_surrogate(units), String::from_utf16(units).is_err(), "{units:x?}");
        }
        for at in 0..600 {
            for insert in [&[0xD83D][..], &[0xDE00], &[0xD83D, 0xDE00], &[0xDE00, 0xD83D]] {
                let mut units = vec![0x61u16; 600];
                units.splice(at..at, insert.iter().copied());
                assert_eq!(has_lone_surrogate(&units), String::from_utf16(&units).is_err(), "{insert:x?} at {at}");
            }
        }
    }

    #[test]
    fn finds_the_replacement_character_only() {
        assert!(has_replacement_char("a\u{FFFD}b".as_bytes()));
        assert!(has_replacement_char("\u{FFFD}".as_bytes()));
        assert!(!has_replacement_char("ascii only".as_bytes()));
        // Other characters led by EF: U+FFFC, U+FEFF, and a cut-short sequence.
        assert!(!has_replacement_char("\u{FFFC}\u{FEFF}".as_bytes()));
        assert!(!has_replacement_char(&[b'a', 0xEF, 0xBF]));
    }

    #[test]
    fn units_convert_as_std_converts_them_with_pairs_across_every_slice_edge() {
        // ASCII runs, 2- and 3-byte characters, and a pair (or a lone half) at every position
        // around the 4096-unit slices `push_utf8` converts.
        for at in 4090..4100 {
            for tail in [&[0xD83D, 0xDE00][..], &[0xD83D], &[0xDE00], &[0xE9, 0x20AC]] {
                let mut units: Vec<u16> = (0..at).map(|i| if i % 97 == 5 { 0xE9 } else { 0x61 }).collect();
                units.extend_from_slice(tail);
                units.extend_from_slice(&[0x4E00, 0x62]);
                let mut out = b"kept".to_vec();
                push_utf8(&units, &mut out);
                let want = String::from_utf16_lossy(&units);
                assert_eq!(&out[..4], b"kept");
                assert_eq!(std::str::from_utf8(&out[4..]), Ok(want.as_str()), "{at} {tail:x?}");
            }
        }
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        assert_eq!(js_number(f64::NAN), "NaN");
        assert_eq!(js_number(-f64::INFINITY), "-Infinity");
        assert_eq!(js_number(3.0), "3");
        assert_eq!(js_number(2.5), "2.5");
    }

    #[test]
    fn ascii_is_narrowed_whole_and_anything_else_leaves_nothing() {
        let mut out = b"x".to_vec();
        assert!(push_ascii(&[0x61, 0x7F, 0x20], &mut out));
        assert_eq!(out, b"xa\x7f ");
        for odd in [0x80u16, 0xE9, 0x100, 0xD83D, 0xFFFF] {
            let mut out = b"x".to_vec();
            assert!(!push_ascii(&[0x61, odd, 0x62], &mut out), "{odd:x}");
            assert_eq!(out, b"x", "nothing appended");
        }
    }

    #[test]
    fn mostly_ascii_is_at_most_one_unit_in_eight_outside_ascii_among_the_first_4096() {
        let text =
            |n: usize, every: usize| -> Vec<u16> { (0..n).map(|i| if i % every == 0 { 0xE9 } else { 0x61 }).collect() };
        assert!(mostly_ascii(&text(4096, 8)));
        assert!(!mostly_ascii(&text(4096, 7)));
        assert!(mostly_ascii(&[]));
        let mut late = text(4096, 8);
        late.extend(std::iter::repeat_n(0x4E00, 100_000));
        assert!(mostly_ascii(&late), "only the first 4096 units are sampled");
    }

    #[test]
    fn utf8_len_is_the_length_std_writes() {
        let cases: [&[u16]; 8] = [
            &[0x61, 0xE9, 0x20AC],
            &[0xD83D, 0xDE00],
            &[0xD83D],
            &[0xDE00, 0x61],
            &[0x20AC, 0xDC00],
            &[0xDC00, 0xD83D],
            &[0xD83D, 0xD83D, 0xDE00, 0xDE00],
            &[],
        ];
        for units in cases {
            assert_eq!(utf8_len(units), String::from_utf16_lossy(units).len(), "{units:x?}");
        }
    }
}
