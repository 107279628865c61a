//! ZXing's hybrid binarizer, giving the same bits as rxing's `HybridBinarizer` (the tests
//! compare them), written for speed: rxing sets the matrix one pixel at a time, and that was
//! a quarter of `decode`'s time on a 1000 px image (`perf` on `examples/profile_decode`).
//!
//! The method: the image in 8×8 blocks; each block's black point is its mean, or, when the
//! block is flat (its range ≤ 24), half its minimum raised to its neighbours' black point;
//! each block is then thresholded at the mean black point of the 5×5 blocks around it.

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
            let out = &mut words[y * row_words..][..row_words];
            for (k, eight) in dark.chunks_exact(8).enumerate() {
                // Eight 0/1 bytes to eight bits, the first pixel lowest.
                let v = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
                let byte = (v.wrapping_mul(0x0102_0408_1020_4080) >> 56) as Word;
                out[k * 8 / WORD_BITS] |= byte << (k * 8 % WORD_BITS);
            }
        }
    }

    let mut bits = BitMatrix::new(w as u32, h as u32).ok()?;
    let mut row = BitArray::with_size(w);
    for (y, row_words) in words.chunks_exact(row_words).enumerate() {
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
    use rxing::common::HybridBinarizer;
    use rxing::{Binarizer, Luma8Source};

    fn rxings(grey: &Grey) -> BitMatrix {
        let source = Luma8Source::new_with_slice(&grey.pixels, grey.width, grey.height).expect("sized");
        HybridBinarizer::new(source).get_black_matrix().expect("binarized").clone()
    }

    /// xorshift: reproducible images.
    fn noise(seed: u64, n: usize) -> Vec<u8> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 24) as u8
            })
            .collect()
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
    fn small_images_are_left_to_the_global_histogram() {
        for (w, h) in [(39, 100), (100, 39), (1, 1)] {
            assert!(hybrid(&Grey { width: w, height: h, pixels: vec![0; (w * h) as usize] }).is_none());
        }
    }
}
