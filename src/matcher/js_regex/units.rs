//! The units view of a text: UTF-8 with every 4-byte (astral) character written as its two
//! UTF-16 surrogates, 3 bytes each (CESU-8). A JavaScript pattern without `u` reads code
//! units, so `.` may match one half of an emoji; in this view it can, as a 3-byte sequence.
//! Texts without astral characters are their own units view, and cost one scan.

use std::borrow::Cow;

/// Whether `text` holds a byte that may start an astral character: without one, the text is
/// its own units view.
pub fn has_astral(text: &[u8]) -> bool {
    // `is_ascii` reads a word at a time: most texts answer there.
    !text.is_ascii() && text.iter().any(|&b| b >= 0xF0)
}

/// The text as code units. Bytes that are not UTF-8 stay as they are.
pub fn to_units(text: &[u8]) -> Cow<'_, [u8]> {
    if !has_astral(text) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 2);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b >= 0xF0 {
            if let Some(c) = text.get(i..i + 4).and_then(|s| std::str::from_utf8(s).ok()).and_then(|s| s.chars().next())
            {
                let mut pair = [0u16; 2];
                for unit in c.encode_utf16(&mut pair).iter() {
                    let u = *unit as u32;
                    out.extend_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
                i += 4;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    Cow::Owned(out)
}

/// Maps offsets in the units view of `text` back to offsets in `text`, in place. An offset
/// between the two halves of an astral character maps to the character's end.
pub fn to_text_offsets(text: &[u8], offsets: &mut [usize]) {
    if !text.iter().any(|&b| b >= 0xF0) {
        return;
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let (mut src, mut view) = (0usize, 0usize);
    for i in order {
        let target = offsets[i];
        while view < target && src < text.len() {
            let astral =
                text[src] >= 0xF0 && text.get(src..src + 4).and_then(|s| std::str::from_utf8(s).ok()).is_some();
            if astral {
                src += 4;
                view += 6;
            } else {
                src += 1;
                view += 1;
            }
        }
        offsets[i] = src;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn astral_characters_become_two_surrogates() {
        assert_eq!(to_units("a😀b".as_bytes()).as_ref(), b"a\xED\xA0\xBD\xED\xB8\x80b");
        assert!(matches!(to_units("abc é".as_bytes()), Cow::Borrowed(_)));
        assert_eq!(to_units(b"\xF0\x9F").as_ref(), b"\xF0\x9F");
    }

    #[test]
    fn offsets_map_back_to_the_text() {
        let text = "a😀b".as_bytes();
        let mut offsets = [0, 1, 4, 7, 8];
        to_text_offsets(text, &mut offsets);
        assert_eq!(offsets, [0, 1, 5, 5, 6]);
    }
}
