//! Byte offsets in UTF-8 text to UTF-16 code-unit offsets, as JavaScript strings count.

/// Rewrites each offset (byte positions of `view`, UTF-8 or the units view, where a surrogate
/// is 3 bytes of its own) as UTF-16 code units, in place: a 4-byte character counts two, any
/// other one. Cost: one pass over `view` plus a sort of the offsets.
pub fn view_to_utf16(view: &[u8], offsets: &mut [usize]) {
    if view.is_ascii() {
        return;
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let (mut byte, mut units) = (0usize, 0usize);
    for i in order {
        let target = offsets[i].min(view.len());
        while byte < target {
            let b = view[byte];
            if b & 0xC0 != 0x80 {
                units += if b >= 0xF0 { 2 } else { 1 };
            }
            byte += 1;
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
        view_to_utf16(text.as_bytes(), &mut offsets);
        assert_eq!(offsets, [0, 1, 3, 4, 5, 6]);
        // On the units view, between the two halves of 😀 is a position of its own.
        let mut halves = [1, 4, 7, 9];
        view_to_utf16(&crate::matcher::js_regex::units::to_units(text.as_bytes()), &mut halves);
        assert_eq!(halves, [1, 2, 3, 4]);
    }
}
