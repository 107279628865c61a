//! ZXing's two binarizers, giving the same bits as rxing's `HybridBinarizer` and
//! `GlobalHistogramBinarizer` (the tests compare them), written for speed: rxing sets the
//! matrix one pixel at a time, which was a quarter of `decode`'s time on a large image
//! (`perf` on `examples/profile_decode`; the bench's stage table has the binarize time now).
//!
//! Hybrid: the image in 8×8 blocks; each block's black point is its mean, or, when the
//! block is flat (its range ≤ 24), half its minimum raised to its neighbours' black point;
//! each block is then thresholded at the mean black point of the 5×5 blocks around it.
//!
//! Global: one black point for the whole image, the deepest valley between the two peaks of a
//! 32-bucket histogram of the middle three fifths of four rows.

use super::Grey;
use rxing::common::{BitArray, BitFieldBaseType as Word, BitMatrix, BIT_FIELD_BASE_BITS as WORD_BITS};

const BLOCK: usize = 8;
const MIN_DYNAMIC_RANGE: u32 = 24;

/// The hybrid binarizer's bits (set = dark); `None` when a side is under 40 px, where ZXing
/// uses the global-histogram binarizer instead.
pub fn hybrid(grey: &Grey) -> Option<BitMatrix> {
    let (w, h) = (grey.width as usize, grey.height as usize);
    if w < BLOCK * 5 || h < BLOCK * 5 || grey.pixels.len() != w * h {
        return None;
    }
    let px = &grey.pixels;
    let (sw, sh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
    let (max_x, max_y) = (w - BLOCK, h - BLOCK);
    // The last block of a row or column is moved back to lie inside the image.
    let origin = |b: usize, max: usize| (b * BLOCK).min(max);

    // Per band of 8 rows, each column's sum, minimum and maximum first (whole rows at a
    // time, which the compiler vectorises), then each block's from its 8 columns.
    let mut black = vec![0u32; sw * sh];
    let (mut col_sum, mut col_lo, mut col_hi) = (vec![0u16; w], vec![0u8; w], vec![0u8; w]);
    for by in 0..sh {
        let y0 = origin(by, max_y);
        col_sum.iter_mut().for_each(|c| *c = 0);
        col_lo.fill(255);
        col_hi.fill(0);
        for row in px[y0 * w..(y0 + BLOCK) * w].chunks_exact(w) {
            for (((s, lo), hi), &p) in col_sum.iter_mut().zip(col_lo.iter_mut()).zip(col_hi.iter_mut()).zip(row) {
                *s += p as u16;
                *lo = (*lo).min(p);
                *hi = (*hi).max(p);
            }
        }
        for bx in 0..sw {
            let x0 = origin(bx, max_x);
            let sum: u32 = col_sum[x0..x0 + BLOCK].iter().map(|&c| c as u32).sum();
            let lo = *col_lo[x0..x0 + BLOCK].iter().min().unwrap_or(&255) as u32;
            let hi = *col_hi[x0..x0 + BLOCK].iter().max().unwrap_or(&0) as u32;
            let mut point = sum >> 6;
            if hi - lo <= MIN_DYNAMIC_RANGE {
                point = lo / 2;
                if by > 0 && bx > 0 {
                    let around =
                        (black[(by - 1) * sw + bx] + 2 * black[by * sw + bx - 1] + black[(by - 1) * sw + bx - 1]) / 4;
                    if lo < around {
                        point = around;
                    }
                }
            }
            black[by * sw + bx] = point;
        }
    }

    // Per band, each pixel's threshold (where blocks overlap, the higher: a pixel either
    // block calls dark is dark, as rxing's `set` leaves it), then whole rows compared and
    // packed eight pixels to a byte.
    let row_words = w.div_ceil(WORD_BITS);
    let mut words: Vec<Word> = vec![0; row_words * h];
    let mut limit = vec![0u8; w];
    let mut dark = vec![0u8; w.next_multiple_of(8)];
    for by in 0..sh {
        let y0 = origin(by, max_y);
        let top = by.clamp(2, sh - 3);
        limit.fill(0);
        for bx in 0..sw {
            let x0 = origin(bx, max_x);
            let left = bx.clamp(2, sw - 3);
            let sum: u32 = (top - 2..=top + 2).map(|y| black[y * sw + left - 2..][..5].iter().sum::<u32>()).sum();
            // Each black point is at most 255, so their mean is too.
            let threshold = (sum / 25).min(255) as u8;
            for l in &mut limit[x0..x0 + BLOCK] {
                *l = (*l).max(threshold);
            }
        }
        for y in y0..y0 + BLOCK {
            for ((d, &p), &l) in dark.iter_mut().zip(&px[y * w..(y + 1) * w]).zip(&limit) {
                *d = (p <= l) as u8;
            }
            pack(&dark, &mut words[y * row_words..][..row_words]);
        }
    }
    matrix(w, h, &words)
}

const LUMINANCE_SHIFT: u32 = 3;
const BUCKETS: usize = 256 >> LUMINANCE_SHIFT;

/// The global histogram binarizer's bits (set = dark); `None` where rxing's finds no black
/// point (one peak: a flat or nearly flat sample).
pub fn global(grey: &Grey) -> Option<BitMatrix> {
    let (w, h) = (grey.width as usize, grey.height as usize);
    if w == 0 || h == 0 || grey.pixels.len() != w * h {
        return None;
    }
    let px = &grey.pixels;
    let mut buckets = [0u32; BUCKETS];
    for y in 1..5 {
        let row = &px[h * y / 5 * w..][..w];
        for &p in &row[w / 5..w * 4 / 5] {
            buckets[(p >> LUMINANCE_SHIFT) as usize] += 1;
        }
    }
    // At most 31 << 3: compared as bytes, 16 pixels to an instruction.
    let black = black_point(&buckets)? as u8;
    let row_words = w.div_ceil(WORD_BITS);
    let mut words: Vec<Word> = vec![0; row_words * h];
    let mut dark = vec![0u8; w.next_multiple_of(8)];
    for (row, out) in px.chunks_exact(w).zip(words.chunks_exact_mut(row_words)) {
        for (d, &p) in dark.iter_mut().zip(row) {
            *d = (p < black) as u8;
        }
        pack(&dark, out);
    }
    matrix(w, h, &words)
}

/// ZXing's `estimateBlackPoint`, with its arithmetic (wrapping, as rxing's release build
/// does, and the valley's score cut to 32 bits as it is there).
fn black_point(buckets: &[u32; BUCKETS]) -> Option<u32> {
    let (mut first, mut first_size, mut max) = (0usize, 0u32, 0u32);
    for (x, &b) in buckets.iter().enumerate() {
        if b > first_size {
            (first, first_size) = (x, b);
        }
        max = max.max(b);
    }
    let (mut second, mut second_score) = (0usize, 0u32);
    for (x, &b) in buckets.iter().enumerate() {
        let d = x.abs_diff(first) as u32;
        let score = b.wrapping_mul(d).wrapping_mul(d);
        if score > second_score {
            (second, second_score) = (x, score);
        }
    }
    let (first, second) = (first.min(second), first.max(second));
    if second - first <= BUCKETS / 16 {
        return None;
    }
    let (mut valley, mut valley_score) = (second - 1, -1i32);
    for x in (first + 1..=second).rev() {
        let from_first = (x - first) as isize;
        let score = from_first
            .wrapping_mul(from_first)
            .wrapping_mul((second - x) as isize)
            .wrapping_mul(max.wrapping_sub(buckets[x]) as isize);
        if score as i32 > valley_score {
            (valley, valley_score) = (x, score as i32);
        }
    }
    Some((valley as u32) << LUMINANCE_SHIFT)
}

/// A row's 0/1 bytes (1 = dark; a multiple of 8 long, the tail 0) OR-ed into its words,
/// eight to a byte, the first pixel lowest; each word built in a register and written once
/// (OR-ed into memory byte by byte, the OR's store held 21 % of the hybrid binarizer's
/// `perf annotate` samples; built in a register, the loop is vectorised and none stands out).
fn pack(dark: &[u8], out: &mut [Word]) {
    for (o, bytes) in out.iter_mut().zip(dark.chunks(WORD_BITS)) {
        let mut word: Word = 0;
        for (k, eight) in bytes.chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
            word |= ((v.wrapping_mul(0x0102_0408_1020_4080) >> 56) as Word) << (k * 8);
        }
        *o |= word;
    }
}

/// Packed rows of `w` bits (whole words each) to a `w × h` matrix.
fn matrix(w: usize, h: usize, words: &[Word]) -> Option<BitMatrix> {
    let mut bits = BitMatrix::new(w as u32, h as u32).ok()?;
    let mut row = BitArray::with_size(w);
    for (y, row_words) in words.chunks_exact(w.div_ceil(WORD_BITS)).enumerate() {
        for (i, &word) in row_words.iter().enumerate() {
            row.setBulk(i * WORD_BITS, word);
        }
        bits.setRow(y as u32, &row);
    }
    Some(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::noise;
    use rxing::common::{GlobalHistogramBinarizer, HybridBinarizer};
    use rxing::{Binarizer, Luma8Source};

    fn source(grey: &Grey) -> Luma8Source<'_> {
        Luma8Source::new_with_slice(&grey.pixels, grey.width, grey.height).expect("sized")
    }

    fn rxings(grey: &Grey) -> BitMatrix {
        HybridBinarizer::new(source(grey)).get_black_matrix().expect("binarized").clone()
    }

    fn rxings_global(grey: &Grey) -> Option<BitMatrix> {
        GlobalHistogramBinarizer::new(source(grey)).get_black_matrix().ok().cloned()
    }

    #[test]
    fn the_same_bits_as_rxings_hybrid_binarizer() {
        // Sides that are and are not multiples of 8 and of the word size; flat, noisy and
        // gradient images, and flat regions next to busy ones (the neighbour rule).
        for (i, (w, h)) in
            [(40, 40), (41, 47), (64, 64), (65, 200), (127, 129), (300, 41), (1000, 13 * 8 + 3)].into_iter().enumerate()
        {
            let n = w * h;
            let images = [
                noise(i as u64 + 1, n),
                (0..n).map(|k| ((k % w) * 255 / w) as u8).collect(),
                (0..n).map(|k| if (k / w / 16 + k % w / 16) % 2 == 0 { 30 } else { 220 }).collect(),
                noise(i as u64 + 99, n).iter().enumerate().map(|(k, &p)| if k % w < w / 2 { 200 } else { p }).collect(),
                vec![128; n],
            ];
            for (j, pixels) in images.into_iter().enumerate() {
                let grey = Grey { width: w as u32, height: h as u32, pixels };
                let ours = hybrid(&grey).expect("40 px or more");
                assert_eq!(ours, rxings(&grey), "{w}×{h}, image {j}");
            }
        }
    }

    #[test]
    fn the_same_bits_as_rxings_global_binarizer() {
        // As above, plus sides under 40 px and under 5 (the sampled rows repeat), two-tone
        // images with and without a valley between their peaks, and flat ones (no black point:
        // `None` from both).
        let mut compared = 0;
        for (i, (w, h)) in [(1, 1), (3, 2), (7, 4), (39, 100), (40, 40), (41, 47), (64, 64), (127, 129), (1000, 107)]
            .into_iter()
            .enumerate()
        {
            let n = w * h;
            let images = [
                noise(i as u64 + 1, n),
                (0..n).map(|k| ((k % w) * 255 / w.max(2)) as u8).collect(),
                (0..n).map(|k| if (k / w / 16 + k % w / 16) % 2 == 0 { 30 } else { 220 }).collect(),
                (0..n).map(|k| if (k % w) % 3 == 0 { 100 } else { 120 }).collect(),
                noise(i as u64 + 99, n).iter().enumerate().map(|(k, &p)| if k % w < w / 2 { 200 } else { p }).collect(),
                vec![128; n],
            ];
            for (j, pixels) in images.into_iter().enumerate() {
                let grey = Grey { width: w as u32, height: h as u32, pixels };
                let ours = global(&grey);
                assert_eq!(ours, rxings_global(&grey), "{w}×{h}, image {j}");
                compared += ours.is_some() as usize;
            }
        }
        // Most images have a black point; the comparison is not of `None`s alone.
        assert!(compared >= 30, "{compared}");
    }

    #[test]
    fn small_images_are_left_to_the_global_histogram() {
        for (w, h) in [(39, 100), (100, 39), (1, 1)] {
            assert!(hybrid(&Grey { width: w, height: h, pixels: vec![0; (w * h) as usize] }).is_none());
        }
    }
}
