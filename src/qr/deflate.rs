//! A zlib stream for PNG scanlines whose rows repeat: the pixel rows of a scaled QR image.
//!
//! Each byte is matched only against the byte before it (runs of light or dark) and the byte
//! one row above (a row like the last, or part of one), greedily, and the tokens are coded
//! with one dynamic Huffman block. A general compressor searches every earlier position for
//! the longest match; on these images that search is most of its time, and the matches it
//! finds at other distances cost more bits to name than they save (measured against
//! libdeflate level 9 by `cargo run --release --no-default-features --example png_settings`:
//! see the README's "PNG settings"). `png.rs` decides when to use it.

use std::cell::RefCell;

/// Longest match DEFLATE codes, the shortest, and the farthest it reaches back.
const MAX_MATCH: usize = 258;
const MIN_MATCH: usize = 3;
const WINDOW: usize = 32_768;

/// A literal byte (`dist == 0`, `len` the byte) or a copy of `len` bytes from `dist` back.
#[derive(Clone, Copy)]
struct Token {
    len: u16,
    dist: u16,
}

/// What a PNG's compression reuses, kept per thread: the tokens and Huffman's work lists.
#[derive(Default)]
struct Scratch {
    tokens: Vec<Token>,
    leaves: Vec<(u32, u16)>,
    weight: Vec<u64>,
    parent: Vec<usize>,
    depth: Vec<usize>,
    count: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Whether `line` (one scanline's bytes, filter byte included) can be a match distance.
pub fn fits_window(line: usize) -> bool {
    (1..=WINDOW).contains(&line)
}

/// Appends the zlib stream (header, one DEFLATE block, Adler-32) of `raw` to `out`; `line` is
/// the scanline length, at most 32,768 bytes (`fits_window`).
pub fn zlib_rows(raw: &[u8], line: usize, out: &mut Vec<u8>) {
    debug_assert!(fits_window(line));
    // CMF 0x78: deflate, 32 KiB window; FLG 0x01 makes the pair a multiple of 31.
    out.extend_from_slice(&[0x78, 0x01]);
    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        let mut tokens = std::mem::take(&mut scratch.tokens);
        parse(raw, line, &mut tokens);
        let mut bits = BitWriter { out: &mut *out, acc: 0, n: 0 };
        write_block(&tokens, &mut bits, scratch);
        bits.flush();
        // A large image's tokens are not kept past its call.
        tokens.clear();
        tokens.shrink_to(1 << 14);
        scratch.tokens = tokens;
    });
    out.extend_from_slice(&libdeflater::adler32(raw).to_be_bytes());
}

/// Greedy parse: at each byte, the longer of the run (distance 1) and the row above
/// (distance `line`), if at least 3 bytes long; else a literal.
fn parse(raw: &[u8], line: usize, tokens: &mut Vec<Token>) {
    tokens.clear();
    let mut p = 0;
    while p < raw.len() {
        let max = (raw.len() - p).min(MAX_MATCH);
        let mut best = (0, 0);
        for d in [1, line] {
            // Most bytes of a distinct row match neither: one compare turns them away.
            if d <= p && raw[p] == raw[p - d] {
                let len = match_len(raw, p, d, max);
                if len > best.0 {
                    best = (len, d);
                }
            }
        }
        if best.0 >= MIN_MATCH {
            tokens.push(Token { len: best.0 as u16, dist: best.1 as u16 });
            p += best.0;
        } else {
            tokens.push(Token { len: raw[p] as u16, dist: 0 });
            p += 1;
        }
    }
}

/// How many bytes from `p` (at most `max`) equal those `d` before them.
fn match_len(raw: &[u8], p: usize, d: usize, max: usize) -> usize {
    let (now, then) = (&raw[p..p + max], &raw[p - d..p - d + max]);
    let mut i = 0;
    while i + 8 <= max {
        let a = u64::from_le_bytes(now[i..i + 8].try_into().unwrap_or_default());
        let b = u64::from_le_bytes(then[i..i + 8].try_into().unwrap_or_default());
        if a != b {
            return i + ((a ^ b).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < max && now[i] == then[i] {
        i += 1;
    }
    i
}

/// The length symbol (257–285), its extra bits and their value, for a match of `len`.
fn length_code(len: usize) -> (usize, u32, u32) {
    match len {
        3..=10 => (254 + len, 0, 0),
        258 => (285, 0, 0),
        _ => {
            let l = len - 3;
            let hb = usize::BITS - 1 - l.leading_zeros();
            let low = (l >> (hb - 2)) & 3;
            let base = ((4 + low) << (hb - 2)) + 3;
            (257 + 4 * (hb as usize - 1) + low, hb - 2, (len - base) as u32)
        }
    }
}

/// The distance symbol (0–29), its extra bits and their value, for a distance `d`.
fn distance_code(d: usize) -> (usize, u32, u32) {
    if d <= 4 {
        return (d - 1, 0, 0);
    }
    let d1 = d - 1;
    let hb = usize::BITS - 1 - d1.leading_zeros();
    let low = (d1 >> (hb - 1)) & 1;
    let base = ((2 + low) << (hb - 1)) + 1;
    (2 * hb as usize + low, hb - 1, (d - base) as u32)
}

/// Code lengths (at most `limit` bits) for symbols used `freq` times: Huffman's, from two
/// queues over the symbols sorted by use, then lengthened where over the limit (JPEG's
/// Annex K.3 adjustment). A lone symbol gets one bit, and so does a neighbour: decoders
/// want a complete code.
fn code_lengths(freq: &[u32], limit: usize, lens: &mut [u8], scratch: &mut Scratch) {
    lens.fill(0);
    let Scratch { leaves, weight, parent, depth, count, .. } = scratch;
    leaves.clear();
    leaves.extend(freq.iter().enumerate().filter(|(_, &f)| f > 0).map(|(s, &f)| (f, s as u16)));
    let n = leaves.len();
    match n {
        0 => return,
        1 => {
            let s = leaves[0].1 as usize;
            lens[s] = 1;
            lens[if s == 0 { 1 } else { 0 }] = 1;
            return;
        }
        _ => {}
    }
    leaves.sort_unstable();
    // Node i < n is leaf i; node n + k is the k-th merge. Merged weights never decrease,
    // so the next two lightest are at the fronts of the leaves and of the merges.
    weight.clear();
    parent.clear();
    parent.resize(2 * n - 1, 0);
    let (mut next_leaf, mut next_merge) = (0, 0);
    for k in 0..n - 1 {
        let mut sum = 0;
        for _ in 0..2 {
            let node = if next_leaf < n && (next_merge >= k || leaves[next_leaf].0 as u64 <= weight[next_merge]) {
                sum += leaves[next_leaf].0 as u64;
                next_leaf += 1;
                next_leaf - 1
            } else {
                sum += weight[next_merge];
                next_merge += 1;
                n + next_merge - 1
            };
            parent[node] = n + k;
        }
        weight.push(sum);
    }
    // Depths: the root (the last merge) is 0; every parent comes after its children.
    depth.clear();
    depth.resize(2 * n - 1, 0);
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    let deepest = depth[..n].iter().copied().max().unwrap_or(0);
    count.clear();
    count.resize(deepest.max(limit) + 1, 0);
    for &d in &depth[..n] {
        count[d] += 1;
    }
    for i in (limit + 1..=deepest).rev() {
        while count[i] > 0 {
            let mut j = i - 2;
            while count[j] == 0 {
                j -= 1;
            }
            count[i] -= 2;
            count[i - 1] += 1;
            count[j + 1] += 2;
            count[j] -= 1;
        }
    }
    // The most used symbols get the shortest codes.
    let mut by_use = leaves.iter().rev();
    for (len, &c) in count.iter().enumerate().take(limit + 1) {
        for _ in 0..c {
            if let Some(&(_, s)) = by_use.next() {
                lens[s as usize] = len as u8;
            }
        }
    }
}

/// Canonical codes for `lens`, bit-reversed for DEFLATE's least-significant-first order.
fn codes<const N: usize>(lens: &[u8; N]) -> [u16; N] {
    let mut count = [0u16; 16];
    for &l in lens {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    let mut codes = [0u16; N];
    for (code, &l) in codes.iter_mut().zip(lens) {
        if l > 0 {
            *code = next[l as usize].reverse_bits() >> (16 - l);
            next[l as usize] += 1;
        }
    }
    codes
}

/// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
const CL_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Run-length codes of a code-length sequence: (symbol 0–18, extra bits value).
fn run_lengths(lens: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::with_capacity(lens.len());
    let mut i = 0;
    while i < lens.len() {
        let v = lens[i];
        let run = lens[i..].iter().take_while(|&&l| l == v).count();
        let mut left = run;
        if v == 0 {
            while left >= 11 {
                let k = left.min(138);
                out.push((18, (k - 11) as u8));
                left -= k;
            }
            if left >= 3 {
                out.push((17, (left - 3) as u8));
                left = 0;
            }
        } else {
            out.push((v, 0));
            left -= 1;
            while left >= 3 {
                let k = left.min(6);
                out.push((16, (k - 3) as u8));
                left -= k;
            }
        }
        out.extend(std::iter::repeat_n((v, 0), left));
        i += run;
    }
    out
}

/// One final dynamic-Huffman block holding `tokens` and the end-of-block symbol.
fn write_block(tokens: &[Token], bits: &mut BitWriter, scratch: &mut Scratch) {
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 30];
    for t in tokens {
        if t.dist == 0 {
            lit_freq[t.len as usize] += 1;
        } else {
            lit_freq[length_code(t.len as usize).0] += 1;
            dist_freq[distance_code(t.dist as usize).0] += 1;
        }
    }
    lit_freq[256] += 1;
    let mut lit_lens = [0u8; 286];
    let mut dist_lens = [0u8; 30];
    code_lengths(&lit_freq, 15, &mut lit_lens, scratch);
    code_lengths(&dist_freq, 15, &mut dist_lens, scratch);
    if dist_lens.iter().all(|&l| l == 0) {
        // No matches: one unused distance code, as zlib writes.
        dist_lens[0] = 1;
    }
    let hlit = 257.max(lit_lens.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
    let hdist = dist_lens.iter().rposition(|&l| l > 0).map_or(1, |i| i + 1);
    let mut all = [0u8; 286 + 30];
    all[..hlit].copy_from_slice(&lit_lens[..hlit]);
    all[hlit..hlit + hdist].copy_from_slice(&dist_lens[..hdist]);
    let runs = run_lengths(&all[..hlit + hdist]);
    let mut cl_freq = [0u32; 19];
    for &(s, _) in &runs {
        cl_freq[s as usize] += 1;
    }
    let mut cl_lens = [0u8; 19];
    code_lengths(&cl_freq, 7, &mut cl_lens, scratch);
    let hclen = 4.max(CL_ORDER.iter().rposition(|&s| cl_lens[s] > 0).map_or(0, |i| i + 1));

    bits.put(1, 1); // final block
    bits.put(2, 2); // dynamic Huffman codes
    bits.put((hlit - 257) as u64, 5);
    bits.put((hdist - 1) as u64, 5);
    bits.put((hclen - 4) as u64, 4);
    for &s in &CL_ORDER[..hclen] {
        bits.put(cl_lens[s] as u64, 3);
    }
    let cl_codes = codes(&cl_lens);
    for &(s, extra) in &runs {
        bits.put(cl_codes[s as usize] as u64, cl_lens[s as usize] as u32);
        match s {
            16 => bits.put(extra as u64, 2),
            17 => bits.put(extra as u64, 3),
            18 => bits.put(extra as u64, 7),
            _ => {}
        }
    }
    let (lit_codes, dist_codes) = (codes(&lit_lens), codes(&dist_lens));
    for t in tokens {
        if t.dist == 0 {
            let s = t.len as usize;
            bits.put(lit_codes[s] as u64, lit_lens[s] as u32);
        } else {
            let (s, n, v) = length_code(t.len as usize);
            bits.put(lit_codes[s] as u64, lit_lens[s] as u32);
            bits.put(v as u64, n);
            let (s, n, v) = distance_code(t.dist as usize);
            bits.put(dist_codes[s] as u64, dist_lens[s] as u32);
            bits.put(v as u64, n);
        }
    }
    bits.put(lit_codes[256] as u64, lit_lens[256] as u32);
}

/// Bits to bytes, least significant first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter<'_> {
    /// Appends the low `n` bits of `value` (n ≤ 32).
    fn put(&mut self, value: u64, n: u32) {
        self.acc |= value << self.n;
        self.n += n;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// Writes what is left, padded to a whole byte.
    fn flush(&mut self) {
        while self.n > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n = self.n.saturating_sub(8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inflate(z: &[u8]) -> Vec<u8> {
        let mut d = libdeflater::Decompressor::new();
        let mut out = vec![0u8; 1 << 22];
        let n = d.zlib_decompress(z, &mut out).expect("a valid zlib stream");
        out.truncate(n);
        out
    }

    fn round_trip(raw: &[u8], line: usize) -> usize {
        let mut z = Vec::new();
        zlib_rows(raw, line, &mut z);
        assert_eq!(inflate(&z), raw, "line {line}, {} bytes", raw.len());
        z.len()
    }

    #[test]
    fn length_and_distance_codes_match_the_tables() {
        // RFC 1951, 3.2.5: each code's base value, extra bits; checked at every length and
        // at every distance up to the window.
        const LEN_BASE: [usize; 29] = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ];
        const LEN_EXTRA: [u32; 29] =
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
        for len in 3..=258 {
            let i = if len == 258 { 28 } else { LEN_BASE.iter().rposition(|&b| b <= len).unwrap() };
            assert_eq!(length_code(len), (257 + i, LEN_EXTRA[i], (len - LEN_BASE[i]) as u32), "length {len}");
        }
        let mut base = 1;
        for code in 0..30 {
            let extra = if code < 4 { 0 } else { code / 2 - 1 };
            for d in base..base + (1 << extra) {
                assert_eq!(distance_code(d), (code as usize, extra as u32, (d - base) as u32), "distance {d}");
            }
            base += 1 << extra;
        }
        assert_eq!(base, 32_769);
    }

    #[test]
    fn code_lengths_are_complete_and_within_the_limit() {
        // Fibonacci weights make Huffman's depths as deep as they go: 285 symbols would
        // need 40-bit codes without the limit.
        let mut fib = vec![1u32, 1];
        while fib.len() < 40 {
            let n = fib.len();
            fib.push(fib[n - 1].saturating_add(fib[n - 2]));
        }
        let mut cases: Vec<Vec<u32>> = vec![fib.clone(), vec![5], vec![0, 0, 9], vec![1, 1], vec![3; 286]];
        let mut x = 7u32;
        cases.push(
            (0..286)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    if x >> 28 < 4 {
                        0
                    } else {
                        x >> 20
                    }
                })
                .collect(),
        );
        for freq in &cases {
            let used = freq.iter().filter(|&&f| f > 0).count();
            for limit in [7, 15].into_iter().filter(|&l| used <= 1 << l) {
                let mut lens = vec![0u8; freq.len().max(2)];
                code_lengths(freq, limit, &mut lens, &mut Scratch::default());
                let kraft: f64 = lens.iter().filter(|&&l| l > 0).map(|&l| 0.5f64.powi(l as i32)).sum();
                assert!(lens.iter().all(|&l| (l as usize) <= limit), "{lens:?}");
                assert!((kraft - 1.0).abs() < 1e-12, "incomplete code: {kraft} for {lens:?}");
                for (s, &f) in freq.iter().enumerate().filter(|_| used > 1) {
                    assert_eq!(f > 0, lens[s] > 0, "symbol {s}");
                }
            }
        }
    }

    #[test]
    fn rows_round_trip_through_a_real_inflater() {
        // Repeated rows, runs, literals only, one byte, lines longer than a match, and lines
        // at the window's edge.
        let mut x = 1u32;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (x >> 16) as u8
                })
                .collect()
        };
        round_trip(&[0], 1);
        round_trip(&[7, 7, 7, 7, 7], 5);
        round_trip(&noise(5000), 25);
        for line in [1, 2, 3, 25, 300, 4097, 32_768] {
            let mut raw = Vec::new();
            for k in 0..5 {
                let row = noise(line);
                raw.extend_from_slice(&row);
                raw.extend_from_slice(&row);
                raw.extend(std::iter::repeat_n(k as u8, line));
            }
            // A row's copy costs a few bits per 258 bytes, and so does a run: what is left is
            // the noise, a third of the bytes, as literals, and the codes' header.
            let n = round_trip(&raw, line);
            assert!(n < raw.len() / 3 * 103 / 100 + 200, "line {line}: {n} bytes for {}", raw.len());
        }
    }
}
