//! Mask patterns and the penalty rules that choose one, as
//! `qrcode`'s `lib/core/mask-pattern.js` scores them (including format bits in the score).
//!
//! Scoring works on bitboards: each row and each column of the symbol is a line of up to
//! 177 bits in three `u64` words, so a rule is a few shifts, ANDs and popcounts per line
//! instead of a branch per module. `naive_penalty` keeps the module-by-module reading of
//! qrcode's rules, and the tests hold the two equal.

use super::matrix::{format_bits, format_cells, template_for_size, ModuleGrid};
use super::EcLevel;

/// Whether mask `pattern` flips the module at (`row`, `col`).
pub fn flips(pattern: u8, row: usize, col: usize) -> bool {
    let (i, j) = (row, col);
    match pattern {
        0 => (i + j) % 2 == 0,
        1 => i % 2 == 0,
        2 => j % 3 == 0,
        3 => (i + j) % 3 == 0,
        4 => (i / 2 + j / 3) % 2 == 0,
        5 => (i * j) % 2 + (i * j) % 3 == 0,
        6 => ((i * j) % 2 + (i * j) % 3) % 2 == 0,
        _ => ((i * j) % 3 + (i + j) % 2) % 2 == 0,
    }
}

/// Row masks of each pattern: `ROW_MASKS[p][r % 12]` has bit `c` set where pattern `p`
/// flips (r, c), for every column of the largest symbol. Column masks likewise, transposed.
struct PatternTable {
    rows: [[[u64; 3]; 12]; 8],
    cols: [[[u64; 3]; 12]; 8],
}

fn patterns() -> &'static PatternTable {
    static TABLE: std::sync::OnceLock<PatternTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = PatternTable { rows: [[[0; 3]; 12]; 8], cols: [[[0; 3]; 12]; 8] };
        for p in 0..8u8 {
            for k in 0..12 {
                for i in 0..177 {
                    if flips(p, k, i) {
                        t.rows[p as usize][k][i / 64] |= 1 << (i % 64);
                    }
                    if flips(p, i, k) {
                        t.cols[p as usize][k][i / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        t
    })
}

/// XORs mask `pattern` over every non-function module of `grid`: per row, the modules both
/// free (from the version's template) and flipped by the pattern, visited bit by bit.
pub fn apply(grid: &mut ModuleGrid, pattern: u8) {
    let size = grid.size;
    let table = &patterns().rows[pattern as usize];
    let free = &template_for_size(size).free_rows;
    for (row, cells) in grid.modules.chunks_exact_mut(size).enumerate() {
        let mask = &table[row % 12];
        for w in 0..3 {
            let mut flip = free[row][w] & mask[w];
            while flip != 0 {
                cells[w * 64 + flip.trailing_zeros() as usize] ^= 1;
                flip &= flip - 1;
            }
        }
    }
}

/// One line of modules in `N` words, bit `i` = module `i` (1 = dark).
type Line<const N: usize> = [u64; N];

/// Bit `i` of the result is bit `i + k` of `a` (0 < k < 64).
#[inline(always)]
fn shr<const N: usize>(a: &Line<N>, k: u32) -> Line<N> {
    std::array::from_fn(|w| (a[w] >> k) | if w + 1 < N { a[w + 1] << (64 - k) } else { 0 })
}

/// Bit `i` of the result is bit `i - 1` of `a`.
#[inline(always)]
fn shl1<const N: usize>(a: &Line<N>) -> Line<N> {
    std::array::from_fn(|w| (a[w] << 1) | if w > 0 { a[w - 1] >> 63 } else { 0 })
}

#[inline(always)]
fn zip<const N: usize>(a: &Line<N>, b: &Line<N>, f: impl Fn(u64, u64) -> u64) -> Line<N> {
    std::array::from_fn(|w| f(a[w], b[w]))
}

#[inline(always)]
fn popcount<const N: usize>(a: &Line<N>) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// Bits `0..n` set.
fn low_bits<const N: usize>(n: usize) -> Line<N> {
    std::array::from_fn(|w| {
        let start = w * 64;
        if n >= start + 64 {
            u64::MAX
        } else if n > start {
            (1u64 << (n - start)) - 1
        } else {
            0
        }
    })
}

/// Valid start positions of each rule's pattern for one symbol size.
struct Limits<const N: usize> {
    /// Start of a run of five: 0..=size-5.
    run5: Line<N>,
    /// Start of an 11-module finder-like window: 0..=size-11.
    window11: Line<N>,
    /// Left column of a 2×2 block: 0..=size-2.
    block: Line<N>,
}

impl<const N: usize> Limits<N> {
    fn new(size: usize) -> Self {
        Limits { run5: low_bits(size - 4), window11: low_bits(size - 10), block: low_bits(size - 1) }
    }
}

/// Rules 1 and 3 for one line.
#[inline(always)]
fn line_penalty<const N: usize>(x: &Line<N>, lim: &Limits<N>) -> u32 {
    let y1 = shr(x, 1);
    let y2 = shr(x, 2);
    let y3 = shr(x, 3);
    // Rule 1: a run of n ≥ 5 scores n - 2: one per window of five equal modules, plus two
    // per run, counted at the window that starts it.
    let eq = zip(x, &y1, |a, b| !(a ^ b));
    let eq1 = shr(&eq, 1);
    let eq2 = shr(&eq, 2);
    let eq3 = shr(&eq, 3);
    let w5: Line<N> = std::array::from_fn(|w| eq[w] & eq1[w] & eq2[w] & eq3[w] & lim.run5[w]);
    let before = shl1(&eq);
    let starts = zip(&w5, &before, |a, b| a & !b);
    let mut points = popcount(&w5) + 2 * popcount(&starts);
    // Rule 3: 40 per 1011101 core with four light modules after (A) or before (B) it.
    let y4 = shr(x, 4);
    let y5 = shr(x, 5);
    let y6 = shr(x, 6);
    let core: Line<N> = std::array::from_fn(|w| x[w] & !y1[w] & y2[w] & y3[w] & y4[w] & !y5[w] & y6[w]);
    let light4: Line<N> = std::array::from_fn(|w| !(x[w] | y1[w] | y2[w] | y3[w]));
    let light_after = shr(&light4, 7);
    let core_after = shr(&core, 4);
    let a: Line<N> = std::array::from_fn(|w| core[w] & light_after[w] & lim.window11[w]);
    let b: Line<N> = std::array::from_fn(|w| light4[w] & core_after[w] & lim.window11[w]);
    points += 40 * (popcount(&a) + popcount(&b));
    points
}

/// Rule 2 for the pair of adjacent lines `a`, `b`: 3 per 2×2 block of one colour.
#[inline(always)]
fn block_penalty<const N: usize>(a: &Line<N>, b: &Line<N>, lim: &Limits<N>) -> u32 {
    let vertical = zip(a, b, |x, y| !(x ^ y));
    let vertical_next = shr(&vertical, 1);
    let a_next = shr(a, 1);
    let blocks: Line<N> = std::array::from_fn(|w| vertical[w] & vertical_next[w] & !(a[w] ^ a_next[w]) & lim.block[w]);
    3 * popcount(&blocks)
}

/// Rule 4, computed in floating point exactly as qrcode does.
fn balance_penalty(dark: usize, total: usize) -> u32 {
    let k = (((dark * 100) as f64 / total as f64) / 5.0).ceil() - 10.0;
    k.abs() as u32 * 10
}

/// Rows and columns of a grid as bitboards, split into what every mask shares.
struct Bitboards<const N: usize> {
    size: usize,
    /// Unmasked modules with the 30 format cells cleared (the fixed dark module kept).
    rows: [Line<N>; 177],
    cols: [Line<N>; 177],
    /// Modules a mask may flip (not function patterns), from the version's template.
    free_rows: &'static [[u64; 3]],
    free_cols: &'static [[u64; 3]],
}

#[inline(always)]
fn set_bit<const N: usize>(line: &mut Line<N>, i: usize) {
    line[i / 64] |= 1 << (i % 64);
}

impl<const N: usize> Bitboards<N> {
    fn new(grid: &ModuleGrid) -> Self {
        let size = grid.size;
        let template = template_for_size(size);
        let mut b = Bitboards {
            size,
            rows: [[0; N]; 177],
            cols: [[0; N]; 177],
            free_rows: &template.free_rows,
            free_cols: &template.free_cols,
        };
        for (r, cells) in grid.modules.chunks_exact(size).enumerate() {
            let mut row = [0u64; N];
            for (c, &m) in cells.iter().enumerate() {
                let dark = m as u64;
                row[c / 64] |= dark << (c % 64);
                b.cols[c][r / 64] |= dark << (r % 64);
            }
            b.rows[r] = row;
        }
        for i in 0..15 {
            for (r, c) in format_cells(size, i) {
                b.rows[r][c / 64] &= !(1 << (c % 64));
                b.cols[c][r / 64] &= !(1 << (r % 64));
            }
        }
        b
    }

    /// Total penalty under `pattern` with `level`'s format bits in place.
    fn score(&self, lim: &Limits<N>, pattern: u8, level: EcLevel) -> u32 {
        let size = self.size;
        let table = patterns();
        let row_masks = &table.rows[pattern as usize];
        let col_masks = &table.cols[pattern as usize];
        // Format cells lie in column 8 (`vertical`, by row) and row 8 (`horizontal`, by
        // column): a row gains bit 8 where `vertical` is dark, row 8 gains `horizontal`,
        // and columns the same way round.
        let bits = format_bits(level, pattern);
        let (mut vertical, mut horizontal) = ([0u64; N], [0u64; N]);
        for i in 0..15 {
            if (bits >> i) & 1 == 1 {
                let [(vr, _), (_, hc)] = format_cells(size, i);
                set_bit(&mut vertical, vr);
                set_bit(&mut horizontal, hc);
            }
        }
        let with_format = |line: &mut Line<N>, index: usize, across: &Line<N>, along: &Line<N>| {
            line[0] |= ((across[index / 64] >> (index % 64)) & 1) << 8;
            if index == 8 {
                for w in 0..N {
                    line[w] |= along[w];
                }
            }
        };
        let mut points = 0;
        let mut dark = 0usize;
        let mut prev: Line<N> = [0; N];
        for i in 0..size {
            let mask = &row_masks[i % 12];
            let mut row: Line<N> = std::array::from_fn(|w| self.rows[i][w] ^ (self.free_rows[i][w] & mask[w]));
            with_format(&mut row, i, &vertical, &horizontal);
            points += line_penalty(&row, lim);
            if i > 0 {
                points += block_penalty(&prev, &row, lim);
            }
            dark += popcount(&row) as usize;
            prev = row;
            let mask = &col_masks[i % 12];
            let mut col: Line<N> = std::array::from_fn(|w| self.cols[i][w] ^ (self.free_cols[i][w] & mask[w]));
            with_format(&mut col, i, &horizontal, &vertical);
            points += line_penalty(&col, lim);
        }
        points + balance_penalty(dark, size * size)
    }
}

fn best_of<const N: usize>(grid: &ModuleGrid, level: EcLevel) -> u8 {
    let boards = Bitboards::<N>::new(grid);
    let lim = Limits::new(grid.size);
    let mut best = (u32::MAX, 0u8);
    for p in 0..8u8 {
        let s = boards.score(&lim, p, level);
        if s < best.0 {
            best = (s, p);
        }
    }
    best.1
}

/// The mask with the lowest penalty (the first on ties), scored with the format bits of each
/// candidate in place, as qrcode scores it. Cost: 8 × 2·size line scores of ~40 word
/// operations each, on 1, 2 or 3 words per line by symbol size.
pub fn best(grid: &ModuleGrid, level: EcLevel) -> u8 {
    match grid.size {
        0..=64 => best_of::<1>(grid, level),
        65..=128 => best_of::<2>(grid, level),
        _ => best_of::<3>(grid, level),
    }
}

/// Rules 1 and 3 over one line, read module by module as qrcode reads it.
#[cfg(test)]
fn naive_line(line: &[u8]) -> u32 {
    let (mut points, mut last, mut run, mut window) = (0u32, 2u8, 0u32, 0u32);
    for (i, &m) in line.iter().enumerate() {
        if m == last {
            run += 1;
        } else {
            if run >= 5 {
                points += 3 + (run - 5);
            }
            last = m;
            run = 1;
        }
        window = ((window << 1) & 0x7FF) | m as u32;
        if i >= 10 && (window == 0x5D0 || window == 0x05D) {
            points += 40;
        }
    }
    if run >= 5 {
        points += 3 + (run - 5);
    }
    points
}

/// qrcode's penalty read module by module: the reference the bitboards are tested against.
#[cfg(test)]
fn naive_penalty(modules: &[u8], size: usize) -> u32 {
    let get = |r: usize, c: usize| modules[r * size + c];
    let mut points = 0u32;
    for i in 0..size {
        points += naive_line(&modules[i * size..(i + 1) * size]);
        points += naive_line(&(0..size).map(|r| get(r, i)).collect::<Vec<_>>());
    }
    for r in 0..size - 1 {
        for c in 0..size - 1 {
            let sum = get(r, c) + get(r, c + 1) + get(r + 1, c) + get(r + 1, c + 1);
            points += 3 * (sum == 0 || sum == 4) as u32;
        }
    }
    let dark = modules.iter().map(|&m| m as usize).sum();
    points + balance_penalty(dark, size * size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qr::{codewords_for_test, QrInput};

    #[test]
    fn bitboard_scores_equal_module_by_module_scores() {
        for (text, version) in
            [("hello", 1u8), ("https://example.com/a?b=c", 3), ("x", 7), ("y", 14), ("z", 27), ("w", 40)]
        {
            let level = EcLevel::M;
            let mut grid = ModuleGrid::new(version);
            grid.place_data(&codewords_for_test(&QrInput::Text(text), version, level));
            let size = grid.size;
            let boards = Bitboards::<3>::new(&grid);
            let lim = Limits::new(size);
            for p in 0..8 {
                let mut g = ModuleGrid { size, modules: grid.modules.clone(), reserved: grid.reserved.clone() };
                g.place_format(level, p);
                apply(&mut g, p);
                let naive = naive_penalty(&g.modules, size);
                assert_eq!(boards.score(&lim, p, level), naive, "v{version} mask {p}");
                if size <= 64 {
                    assert_eq!(Bitboards::<1>::new(&grid).score(&Limits::new(size), p, level), naive);
                }
                if size <= 128 {
                    assert_eq!(Bitboards::<2>::new(&grid).score(&Limits::new(size), p, level), naive);
                }
            }
        }
    }

    #[test]
    fn line_scores_equal_naive_scores_on_random_lines() {
        let mut seed = 0x2545F4914F6CDD1Du64;
        for size in [21usize, 40, 64, 65, 100, 128, 129, 177] {
            for _ in 0..200 {
                let mut line = [0u64; 3];
                let mut modules = vec![0u8; size];
                for (i, m) in modules.iter_mut().enumerate() {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Biased towards long runs, so rule 1 and 3 both fire.
                    *m = if seed.is_multiple_of(5) { 1 - modules_prev(&line, i) } else { modules_prev(&line, i) };
                    if *m == 1 {
                        set_bit(&mut line, i);
                    }
                }
                assert_eq!(line_penalty(&line, &Limits::<3>::new(size)), naive_line(&modules), "size {size}");
            }
        }
    }

    fn modules_prev(line: &[u64; 3], i: usize) -> u8 {
        if i == 0 {
            0
        } else {
            ((line[(i - 1) / 64] >> ((i - 1) % 64)) & 1) as u8
        }
    }

    #[test]
    fn patterns_table_agrees_with_the_formulas() {
        for p in 0..8u8 {
            for r in 0..30 {
                for c in 0..177 {
                    let bit = (patterns().rows[p as usize][r % 12][c / 64] >> (c % 64)) & 1 == 1;
                    assert_eq!(bit, flips(p, r, c));
                }
            }
        }
    }
}
