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
    let mut walk = UnitWalk::new(view);
    for i in order {
        offsets[i] = walk.to(offsets[i]);
    }
}

/// UTF-16 code units before ascending byte offsets of one view (UTF-8 or the units view),
/// counted in one pass over it however many offsets are asked.
pub struct UnitWalk<'a> {
    view: &'a [u8],
    byte: usize,
    units: usize,
}

impl<'a> UnitWalk<'a> {
    pub fn new(view: &'a [u8]) -> Self {
        UnitWalk { view, byte: 0, units: 0 }
    }

    /// The units before byte `at` (past the end: the whole view's); an offset below the
    /// last one asked answers as that one.
    pub fn to(&mut self, at: usize) -> usize {
        let at = at.min(self.view.len()).max(self.byte);
        self.units += units_in(&self.view[self.byte..at]);
        self.byte = at;
        self.units
    }
}

/// The UTF-16 code units of `bytes` (UTF-8, or the units view): one for each byte that is
/// not a continuation byte, and one more for a 4-byte lead. A long slice is counted in runs
/// of 127 bytes into a byte-wide sum (at most 254), which compilers vectorise: 100 KB took a
/// quarter of the time a byte-at-a-time loop did. The few bytes between two close matches
/// are counted eight at a time in a word (an ASCII word at once), which costs less than
/// setting up the runs.
pub fn units_in(bytes: &[u8]) -> usize {
    let units = |b: u8| ((b & 0xC0 != 0x80) as u8) + ((b >= 0xF0) as u8);
    if bytes.len() >= 256 {
        return bytes.chunks(127).map(|c| c.iter().fold(0u8, |a, &b| a + units(b)) as usize).sum();
    }
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // How many bytes of `m` (each 0 or 0x80) are set: their top bits summed by a multiply.
    let count = |m: u64| ((m >> 7).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        if w & HIGH == 0 {
            n += 8;
            continue;
        }
        // Bit 7 of each byte of `w << k` is bit 7 - k of the same byte: 10xxxxxx continues a
        // character, 1111xxxx leads a 4-byte one.
        let continuation = w & !(w << 1) & HIGH;
        let lead4 = w & (w << 1) & (w << 2) & (w << 3) & HIGH;
        n += 8 - count(continuation) + count(lead4);
    }
    n + words.remainder().iter().map(|&b| units(b) as usize).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_counted_as_std_counts_them_across_runs() {
        // Every kind of character at every position around the 127-byte runs.
        let kinds = ["a", "é", "€", "😀"];
        for len in 0..400 {
            // Lengths across the words (8 bytes), the runs (127) and the cut between (256).
            let text: String = (0..len).map(|i| kinds[(i * 7 + len) % 4]).collect();
            for cut in [0, text.len() / 3, text.len()] {
                let cut = (cut..=text.len()).find(|&c| text.is_char_boundary(c)).unwrap();
                assert_eq!(units_in(&text.as_bytes()[..cut]), text[..cut].encode_utf16().count(), "{len} {cut}");
            }
        }
    }

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
