//! Closing the gaps of a dotted finder pattern: the last view `decode` looks in.
//!
//! qr-code-styling draws a finder centre as nine separate dots (`cornersDot: 'dots'`) and a
//! ring as a ring of dots. A row through such a centre is dark, light, dark, light, dark
//! where a finder search wants one dark run three modules long, so zxing-cpp, ZXing and our
//! own search find no finder there. A *closing* (a dilation, then an erosion, by a k × k
//! square) fills every light gap narrower than k and leaves a light area wider than k as it
//! was: with k about half a module the nine dots become one square, a light module among
//! dark ones stays light, and the finder search and sampler then read the closed view as
//! they read any other. k comes from the image: the most common length of a dark run along
//! rows, about a module (`module_estimate`).
//!
//! Bit-parallel on the binarized rows (64 pixels a word): a dilation by k along a row is the
//! OR of the row shifted by every offset of the window, made in about log₂ k shifts by
//! doubling the window; down the columns the same with whole rows. An erosion is the
//! dilation of the complement, complemented (outside the image counts as dark, so the
//! border does not erode).

use rxing::common::{BitArray, BitFieldBaseType as Word, BitMatrix, BIT_FIELD_BASE_BITS as WORD_BITS};

/// The longest dark run counted in `module_estimate`; longer ones are not modules.
const LONGEST_RUN: usize = 512;

/// The most common length of a dark run along every fourth row, 2 px or more: about a module
/// of a generated code, a little less where modules are round (`None` when there is no run).
pub fn module_estimate(bits: &BitMatrix) -> Option<u32> {
    let (w, h) = (bits.getWidth() as usize, bits.getHeight() as usize);
    let mut counts = vec![0u32; LONGEST_RUN + 1];
    for y in (0..h).step_by(4) {
        let row = bits.getRow(y as u32);
        let words = row.getBitArray();
        let mut x = 0;
        while x < w {
            let start = next(words, x, w, true);
            let end = next(words, start, w, false);
            if end > start {
                counts[(end - start).min(LONGEST_RUN)] += 1;
            }
            x = end;
        }
    }
    (2..LONGEST_RUN).filter(|&l| counts[l] > 0).max_by_key(|&l| (counts[l], std::cmp::Reverse(l))).map(|l| l as u32)
}

/// The first x ≥ `from` whose bit is `dark`, or `width`.
fn next(words: &[Word], from: usize, width: usize, dark: bool) -> usize {
    let mut i = from / WORD_BITS;
    if i >= words.len() {
        return width;
    }
    let flip = if dark { 0 } else { Word::MAX };
    let mut word = (words[i] ^ flip) & (Word::MAX << (from % WORD_BITS));
    loop {
        if word != 0 {
            return (i * WORD_BITS + word.trailing_zeros() as usize).min(width);
        }
        i += 1;
        if i >= words.len() {
            return width;
        }
        word = words[i] ^ flip;
    }
}

/// `bits` closed by a `k` × `k` square (`k` odd): light gaps narrower than `k` filled.
/// `None` for an empty image or `k` under 3.
pub fn close(bits: &BitMatrix, k: u32) -> Option<BitMatrix> {
    let (w, h) = (bits.getWidth() as usize, bits.getHeight() as usize);
    if w == 0 || h == 0 || k < 3 {
        return None;
    }
    let stride = w.div_ceil(WORD_BITS);
    let mut rows = Vec::with_capacity(stride * h);
    for y in 0..h {
        rows.extend_from_slice(&bits.getRow(y as u32).getBitArray()[..stride]);
    }
    let k = (k as usize) | 1;
    let mut plane = Plane { rows, stride, width: w, height: h };
    plane.clear_tail();
    plane.dilate(k);
    plane.complement();
    plane.dilate(k);
    plane.complement();
    let mut out = BitMatrix::new(w as u32, h as u32).ok()?;
    let mut row = BitArray::with_size(w);
    for (y, words) in plane.rows.chunks_exact(stride).enumerate() {
        for (i, &word) in words.iter().enumerate() {
            row.setBulk(i * WORD_BITS, word);
        }
        out.setRow(y as u32, &row);
    }
    Some(out)
}

/// Rows of bits, `stride` words each; bits past `width` stay clear.
struct Plane {
    rows: Vec<Word>,
    stride: usize,
    width: usize,
    height: usize,
}

impl Plane {
    /// Dark where any pixel of the `k` × `k` square centred there is dark (`k` odd; outside
    /// the image counts as light).
    fn dilate(&mut self, k: usize) {
        let r = k / 2;
        // acc's bit j stands for x = j − r, so that the window's left end fits; its bit x
        // after the doubling: any of the row's x − r .. x + r dark.
        let long = (self.width + r).div_ceil(WORD_BITS);
        let (mut acc, mut shifted) = (vec![0; long], vec![0; long]);
        for row in self.rows.chunks_exact_mut(self.stride) {
            shift_right(row, r, &mut acc);
            // Any of j .. j + len dark; len doubled while that stays within k, then topped up.
            let mut len = 1;
            while len * 2 <= k {
                shift_left(&acc, len, &mut shifted);
                acc.iter_mut().zip(&shifted).for_each(|(a, s)| *a |= s);
                len *= 2;
            }
            if len < k {
                shift_left(&acc, k - len, &mut shifted);
                acc.iter_mut().zip(&shifted).for_each(|(a, s)| *a |= s);
            }
            row.copy_from_slice(&acc[..self.stride]);
        }
        self.clear_tail();
        // Down the columns: padded with r light rows above and below, the window [y, y + k)
        // of the padded rows is [y − r, y + r] of the image.
        let (s, h) = (self.stride, self.height);
        let mut padded = vec![0; s * (h + 2 * r)];
        padded[r * s..(r + h) * s].copy_from_slice(&self.rows);
        let rows = h + 2 * r;
        let mut len = 1;
        let grow = |padded: &mut Vec<Word>, by: usize| {
            for y in 0..rows - by {
                let (upper, lower) = padded.split_at_mut((y + by) * s);
                upper[y * s..(y + 1) * s].iter_mut().zip(&lower[..s]).for_each(|(a, b)| *a |= b);
            }
        };
        while len * 2 <= k {
            grow(&mut padded, len);
            len *= 2;
        }
        if len < k {
            grow(&mut padded, k - len);
        }
        self.rows.copy_from_slice(&padded[..h * s]);
    }

    fn complement(&mut self) {
        self.rows.iter_mut().for_each(|w| *w = !*w);
        self.clear_tail();
    }

    /// Clears the bits past `width` in each row's last word.
    fn clear_tail(&mut self) {
        let used = self.width % WORD_BITS;
        if used != 0 {
            let mask = (1 << used) - 1;
            for row in self.rows.chunks_exact_mut(self.stride) {
                row[self.stride - 1] &= mask;
            }
        }
    }
}

/// `out`'s bit x is `row`'s bit x + `by` (light past the end): the row moved left by `by`.
fn shift_left(row: &[Word], by: usize, out: &mut [Word]) {
    let (words, bits) = (by / WORD_BITS, by % WORD_BITS);
    for (i, o) in out.iter_mut().enumerate() {
        let at = |j: usize| row.get(j).copied().unwrap_or(0);
        *o =
            if bits == 0 { at(i + words) } else { (at(i + words) >> bits) | (at(i + words + 1) << (WORD_BITS - bits)) };
    }
}

/// `out`'s bit x is `row`'s bit x − `by` (light before the start): the row moved right.
fn shift_right(row: &[Word], by: usize, out: &mut [Word]) {
    let (words, bits) = (by / WORD_BITS, by % WORD_BITS);
    for (i, o) in out.iter_mut().enumerate() {
        let at = |j: Option<usize>| j.and_then(|j| row.get(j)).copied().unwrap_or(0);
        let here = at(i.checked_sub(words));
        *o = if bits == 0 { here } else { (here << bits) | (at(i.checked_sub(words + 1)) >> (WORD_BITS - bits)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closing by definition: dark where every k × k square holding the pixel holds a
    /// pixel dark after the dilation (outside the image: light for the dilation, dark for
    /// the erosion); each square's test made along its rows, then down its columns.
    fn closed_by_definition(bits: &BitMatrix, k: usize) -> Vec<bool> {
        let (w, h) = (bits.getWidth() as i64, bits.getHeight() as i64);
        let r = (k / 2) as i64;
        let square = |at: &dyn Fn(i64, i64) -> bool, any: bool| -> Vec<bool> {
            let rows: Vec<bool> =
                (0..w * h).map(|i| (-r..=r).map(|d| at(i % w + d, i / w)).any(|v| v == any) == any).collect();
            let row =
                |x: i64, y: i64| if x < 0 || y < 0 || x >= w || y >= h { !any } else { rows[(y * w + x) as usize] };
            (0..w * h).map(|i| (-r..=r).map(|d| row(i % w, i / w + d)).any(|v| v == any) == any).collect()
        };
        let dilated = square(&|x, y| x >= 0 && y >= 0 && x < w && y < h && bits.get(x as u32, y as u32), true);
        let at = |x: i64, y: i64| x < 0 || y < 0 || x >= w || y >= h || dilated[(y * w + x) as usize];
        square(&at, false)
    }

    fn random_bits(w: u32, h: u32, seed: u64, density: u8) -> BitMatrix {
        let mut bits = BitMatrix::new(w, h).unwrap();
        for (i, b) in crate::decode::noise(seed, (w * h) as usize).into_iter().enumerate() {
            if b < density {
                bits.set(i as u32 % w, i as u32 / w);
            }
        }
        bits
    }

    #[test]
    fn the_same_as_the_definition_at_every_size_and_border() {
        // Widths around the word size, kernels from 3 to past a word and past the image.
        for (i, &(w, h)) in [(1, 1), (5, 3), (63, 7), (64, 9), (65, 11), (130, 20), (200, 6)].iter().enumerate() {
            for k in [3, 5, 7, 9, 15, 65, 129, 301] {
                for density in [40, 128, 220] {
                    let bits = random_bits(w, h, (i * 1000 + k) as u64 + density as u64, density);
                    let ours = close(&bits, k as u32).unwrap();
                    let want = closed_by_definition(&bits, k);
                    for y in 0..h {
                        for x in 0..w {
                            assert_eq!(
                                ours.get(x, y),
                                want[(y * w + x) as usize],
                                "{w}×{h} k {k} density {density} at ({x}, {y})"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn gaps_narrower_than_the_square_close_and_wider_ones_stay() {
        // Three dark 6 px squares 2 px apart in a row, and a 9 px light square inside a ring.
        let mut bits = BitMatrix::new(60, 40).unwrap();
        for x0 in [4, 12, 20] {
            bits.setRegion(x0, 4, 6, 6).unwrap();
        }
        bits.setRegion(34, 4, 21, 21).unwrap();
        let mut hole = BitMatrix::new(60, 40).unwrap();
        hole.setRegion(40, 10, 9, 9).unwrap();
        bits.xor(&hole).unwrap();
        let closed = close(&bits, 5).unwrap();
        assert!((4..26).all(|x| closed.get(x, 6)), "the gaps between the squares are filled");
        assert!((40..49).all(|x| !closed.get(x, 14)), "the wide hole stays light");
        assert!(!closed.get(30, 6) && !closed.get(2, 6), "nothing grows outward");
    }

    #[test]
    fn a_module_is_the_most_common_dark_run() {
        // Dark runs of 7 px every 14 px, and one long bar.
        let mut bits = BitMatrix::new(300, 40).unwrap();
        for y in 0..40 {
            for x0 in (0..280).step_by(14) {
                bits.setRegion(x0, y, 7, 1).unwrap();
            }
        }
        bits.setRegion(0, 36, 300, 4).unwrap();
        assert_eq!(module_estimate(&bits), Some(7));
        assert_eq!(module_estimate(&BitMatrix::new(50, 50).unwrap()), None);
        assert_eq!(close(&bits, 1), None);
    }
}
