//! The Reed–Solomon budget of a logo: how many codewords of each block a box over the symbol
//! hides, against what that block can spare.
//!
//! A block of `e` error-correction codewords corrects `(e − p) / 2` wrong codewords, where
//! `p` is the standard's misdecode protection (ISO/IEC 18004 table 9: 3, 2, 1, 1 for
//! version 1 L, M, Q, H; 2 for 2-L; 1 for 3-L; else 0). A logo may hide at most half of that
//! in every block, leaving the other half for what printing, light and the camera spoil. A
//! codeword counts as hidden when any one of its eight modules is. Function modules
//! (finders, timing, alignment, format, version) are never hidden: the renderer draws them
//! over the logo.

use super::matrix::template;
use super::{tables, EcLevel};

/// The misdecode-protection codewords of `version` at `level`.
fn misdecode_protection(version: u8, level: EcLevel) -> usize {
    match (version, level) {
        (1, EcLevel::L) => 3,
        (1, EcLevel::M) | (2, EcLevel::L) => 2,
        (1, _) | (3, EcLevel::L) => 1,
        _ => 0,
    }
}

/// Codewords a logo may hide in each block of `version` at `level`.
pub fn allowed_per_block(version: u8, level: EcLevel) -> usize {
    let blocks = tables::ec_blocks(version, level);
    let ec = tables::ec_codewords(version, level) / blocks;
    (ec - misdecode_protection(version, level)) / 2 / 2
}

/// The block of each codeword, in the order the codewords are placed (interleaved).
fn block_of_position(version: u8, level: EcLevel) -> Vec<u16> {
    let total = tables::total_codewords(version);
    let blocks = tables::ec_blocks(version, level);
    let data_len = total - tables::ec_codewords(version, level);
    let group2 = data_len % blocks;
    let group1 = blocks - group2;
    let data_g1 = data_len / blocks;
    let mut out = vec![0u16; total];
    // The same interleaving `codewords` in mod.rs writes: data codeword i of block b at
    // i * blocks + b (the long blocks' last one after all the others), then EC alike.
    for b in 0..blocks {
        let size = if b < group1 { data_g1 } else { data_g1 + 1 };
        for i in 0..size {
            let pos = if i < data_g1 { i * blocks + b } else { data_g1 * blocks + (b - group1) };
            out[pos] = b as u16;
        }
    }
    for (i, slot) in out[data_len..].iter_mut().enumerate() {
        *slot = (i % blocks) as u16;
    }
    out
}

/// For each block, how many of its codewords have a module where `hidden(row, col)`.
pub fn hidden_per_block(version: u8, level: EcLevel, hidden: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let t = template(version);
    let blocks = block_of_position(version, level);
    let mut counted = vec![false; blocks.len()];
    let mut per_block = vec![0usize; tables::ec_blocks(version, level)];
    for (bit, &cell) in t.order.iter().enumerate() {
        let codeword = bit / 8;
        if codeword >= blocks.len() || counted[codeword] {
            continue;
        }
        let (row, col) = (cell as usize / t.size, cell as usize % t.size);
        if hidden(row, col) {
            counted[codeword] = true;
            per_block[blocks[codeword] as usize] += 1;
        }
    }
    per_block
}

/// Whether a box hiding the modules where `hidden(row, col)` fits the budget.
pub fn fits(version: u8, level: EcLevel, hidden: impl Fn(usize, usize) -> bool) -> bool {
    let allowed = allowed_per_block(version, level);
    hidden_per_block(version, level, hidden).iter().all(|&n| n <= allowed)
}

/// Whether (`row`, `col`) is a function module of `version` (never hidden by a logo).
pub fn is_function(version: u8, row: usize, col: usize) -> bool {
    let t = template(version);
    t.reserved[row * t.size + col] == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qr::QrInput;

    #[test]
    fn every_position_belongs_to_a_block_of_the_right_length() {
        for version in 1..=40u8 {
            for level in [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H] {
                let blocks = tables::ec_blocks(version, level);
                let total = tables::total_codewords(version);
                let map = block_of_position(version, level);
                let mut count = vec![0usize; blocks];
                for &b in &map {
                    count[b as usize] += 1;
                }
                // Every block has total / blocks codewords, or one more.
                for &c in &count {
                    assert!(c == total / blocks || c == total / blocks + 1, "v{version} {level:?}: {count:?}");
                }
            }
        }
    }

    /// The map agrees with the encoder: the codewords it assigns to each block, data then
    /// error correction, are a valid Reed–Solomon codeword of that block.
    #[test]
    fn positions_agree_with_the_encoder() {
        for (version, level) in [(5u8, EcLevel::Q), (7, EcLevel::H), (13, EcLevel::M), (40, EcLevel::L)] {
            let input = QrInput::Text("budget check: which block is each codeword in?");
            let words = crate::qr::codewords_for_test(&input, version, level);
            let map = block_of_position(version, level);
            let data_len = tables::total_codewords(version) - tables::ec_codewords(version, level);
            let ec_len = tables::ec_codewords(version, level) / tables::ec_blocks(version, level);
            for b in 0..tables::ec_blocks(version, level) as u16 {
                let data: Vec<u8> = (0..data_len).filter(|&p| map[p] == b).map(|p| words[p]).collect();
                let ec: Vec<u8> = (data_len..words.len()).filter(|&p| map[p] == b).map(|p| words[p]).collect();
                let mut expected = Vec::new();
                crate::qr::reed_solomon::encode_into(&data, ec_len, &mut expected);
                assert_eq!(ec, expected, "v{version} {level:?} block {b}");
            }
        }
    }

    #[test]
    fn the_budget_is_half_of_what_each_block_corrects() {
        // Version 1-H: 17 EC codewords, p = 1, corrects 8, a logo may hide 4.
        assert_eq!(allowed_per_block(1, EcLevel::H), 4);
        // Version 5-H: 4 blocks of 22 EC codewords: corrects 11, may hide 5.
        assert_eq!(allowed_per_block(5, EcLevel::H), 5);
        // Version 1-L: 7 EC codewords, p = 3: corrects 2, may hide 1.
        assert_eq!(allowed_per_block(1, EcLevel::L), 1);
    }

    /// Off by one codeword: hiding the modules of exactly `allowed` codewords of one block
    /// fits; one more codeword of that block does not.
    #[test]
    fn one_codeword_past_the_budget_is_refused() {
        for (version, level) in [(1u8, EcLevel::H), (5, EcLevel::H), (10, EcLevel::Q), (40, EcLevel::M)] {
            let t = template(version);
            let map = block_of_position(version, level);
            let allowed = allowed_per_block(version, level);
            let block0: Vec<usize> = (0..map.len()).filter(|&p| map[p] == 0).collect();
            let cells_of = |words: &[usize]| -> Vec<usize> {
                words.iter().flat_map(|&w| t.order[w * 8..w * 8 + 8].iter().map(|&c| c as usize)).collect()
            };
            let at = cells_of(&block0[..allowed]);
            let past = cells_of(&block0[..allowed + 1]);
            let hide = |cells: &[usize]| {
                let cells = cells.to_vec();
                move |r: usize, c: usize| cells.contains(&(r * t.size + c))
            };
            assert!(fits(version, level, hide(&at)), "v{version} {level:?}: {allowed} codewords fit");
            assert!(!fits(version, level, hide(&past)), "v{version} {level:?}: {} do not", allowed + 1);
            // One module of each codeword is enough to count it.
            let one_each: Vec<usize> = block0[..allowed + 1].iter().map(|&w| t.order[w * 8 + 3] as usize).collect();
            assert!(!fits(version, level, hide(&one_each)));
        }
    }
}
