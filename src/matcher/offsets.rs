//! Byte offsets in UTF-8 text to UTF-16 code-unit offsets, as JavaScript strings count.

/// Rewrites each offset (byte positions on char boundaries of `text`) in place.
/// Cost: one pass over `text` plus a sort of the offsets.
pub fn to_utf16(text: &str, offsets: &mut [usize]) {
    if text.is_ascii() {
        return;
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let mut units = 0usize;
    let mut byte = 0usize;
    let mut chars = text.char_indices().peekable();
    for i in order {
        let target = offsets[i];
        while byte < target {
            match chars.next() {
                Some((at, c)) => {
                    units += c.len_utf16();
                    byte = at + c.len_utf8();
                }
                None => break,
            }
        }
        offsets[i] = units;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn astral_characters_count_two_units() {
        let text = "a😀é b";
        let mut offsets = [0, 1, 5, 7, 8, 9];
        to_utf16(text, &mut offsets);
        assert_eq!(offsets, [0, 1, 3, 4, 5, 6]);
    }
}
