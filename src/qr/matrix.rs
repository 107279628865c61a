//! The module grid: function patterns, format and version information, and data placement,
//! laid out as `qrcode`'s `lib/core/qrcode.js` lays them out.

use super::{tables, EcLevel};

/// A square grid of modules with a flag per module for function patterns (not masked).
pub struct ModuleGrid {
    pub size: usize,
    /// Row-major, 1 = dark.
    pub modules: Vec<u8>,
    /// Row-major, 1 = function module (finder, timing, alignment, format, version).
    pub reserved: Vec<u8>,
}

impl ModuleGrid {
    /// A grid for `version` with every function pattern in place and format bits reserved.
    pub fn new(version: u8) -> Self {
        let size = tables::symbol_size(version);
        let mut grid = Self { size, modules: vec![0; size * size], reserved: vec![0; size * size] };
        grid.place_finders();
        grid.place_timing();
        grid.place_alignment(version);
        grid.place_format(EcLevel::M, 0); // placeholder bits, only to reserve the area
        if version >= 7 {
            grid.place_version(version);
        }
        grid
    }

    fn set_function(&mut self, row: usize, col: usize, dark: bool) {
        let i = row * self.size + col;
        self.modules[i] = dark as u8;
        self.reserved[i] = 1;
    }

    fn place_finders(&mut self) {
        let size = self.size as isize;
        for (row, col) in [(0isize, 0isize), (size - 7, 0), (0, size - 7)] {
            for r in -1..=7isize {
                if row + r <= -1 || size <= row + r {
                    continue;
                }
                for c in -1..=7isize {
                    if col + c <= -1 || size <= col + c {
                        continue;
                    }
                    let dark = ((0..=6).contains(&r) && (c == 0 || c == 6))
                        || ((0..=6).contains(&c) && (r == 0 || r == 6))
                        || ((2..=4).contains(&r) && (2..=4).contains(&c));
                    self.set_function((row + r) as usize, (col + c) as usize, dark);
                }
            }
        }
    }

    fn place_timing(&mut self) {
        for r in 8..self.size - 8 {
            let dark = r % 2 == 0;
            self.set_function(r, 6, dark);
            self.set_function(6, r, dark);
        }
    }

    fn place_alignment(&mut self, version: u8) {
        let pos = tables::alignment_positions(version);
        let last = pos.len().wrapping_sub(1);
        for (i, &row) in pos.iter().enumerate() {
            for (j, &col) in pos.iter().enumerate() {
                // The three corners with finder patterns carry no alignment pattern.
                if (i == 0 && (j == 0 || j == last)) || (i == last && j == 0) {
                    continue;
                }
                for r in -2..=2isize {
                    for c in -2..=2isize {
                        let dark = r == -2 || r == 2 || c == -2 || c == 2 || (r == 0 && c == 0);
                        self.set_function((row as isize + r) as usize, (col as isize + c) as usize, dark);
                    }
                }
            }
        }
    }

    fn place_version(&mut self, version: u8) {
        let bits = version_bits(version);
        for i in 0..18 {
            let row = i / 3;
            let col = i % 3 + self.size - 11;
            let dark = (bits >> i) & 1 == 1;
            self.set_function(row, col, dark);
            self.set_function(col, row, dark);
        }
    }

    /// Writes the 15 format bits for `level` and `mask` (and the fixed dark module).
    pub fn place_format(&mut self, level: EcLevel, mask: u8) {
        let bits = format_bits(level, mask);
        for i in 0..15 {
            let dark = (bits >> i) & 1 == 1;
            let [a, b] = format_cells(self.size, i);
            self.set_function(a.0, a.1, dark);
            self.set_function(b.0, b.1, dark);
        }
        self.set_function(self.size - 8, 8, true);
    }

    /// Places codewords in the zig-zag order of the standard, skipping function modules.
    pub fn place_data(&mut self, data: &[u8]) {
        let size = self.size;
        let mut upward = true;
        let mut bit = 0usize;
        let total_bits = data.len() * 8;
        let mut col = size as isize - 1;
        while col > 0 {
            if col == 6 {
                col -= 1;
            }
            for step in 0..size {
                let row = if upward { size - 1 - step } else { step };
                for c in 0..2 {
                    let i = row * size + (col as usize - c);
                    if self.reserved[i] == 0 {
                        let dark = bit < total_bits && (data[bit / 8] >> (7 - bit % 8)) & 1 == 1;
                        self.modules[i] = dark as u8;
                        bit += 1;
                    }
                }
            }
            upward = !upward;
            col -= 2;
        }
    }
}

/// The two (row, col) cells that carry format bit `i` (0 = least significant).
pub fn format_cells(size: usize, i: usize) -> [(usize, usize); 2] {
    let vertical = if i < 6 {
        i
    } else if i < 8 {
        i + 1
    } else {
        size - 15 + i
    };
    let horizontal = if i < 8 {
        size - i - 1
    } else if i < 9 {
        15 - i
    } else {
        15 - i - 1
    };
    [(vertical, 8), (8, horizontal)]
}

/// BCH remainder of `value` by `poly` (degree given by its highest bit).
fn bch_remainder(value: u32, poly: u32) -> u32 {
    let degree = 31 - poly.leading_zeros();
    let mut d = value;
    while d != 0 && 31 - d.leading_zeros() >= degree {
        d ^= poly << (31 - d.leading_zeros() - degree);
    }
    d
}

/// The 15 format bits (level, mask, BCH code, XOR mask) as the standard defines them.
pub fn format_bits(level: EcLevel, mask: u8) -> u32 {
    let level_bits = match level {
        EcLevel::L => 1,
        EcLevel::M => 0,
        EcLevel::Q => 3,
        EcLevel::H => 2,
    };
    let data = (level_bits << 3) | mask as u32;
    ((data << 10) | bch_remainder(data << 10, 0x537)) ^ 0x5412
}

/// The 18 version bits (version, BCH code) for versions 7 and up.
pub fn version_bits(version: u8) -> u32 {
    let v = version as u32;
    (v << 12) | bch_remainder(v << 12, 0x1F25)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_bits_match_the_standard_table() {
        // ISO/IEC 18004 Table C.1: level M mask 0 and level L mask 4.
        assert_eq!(format_bits(EcLevel::M, 0), 0x5412);
        assert_eq!(format_bits(EcLevel::L, 4), 0b110011000101111);
    }

    #[test]
    fn version_bits_match_the_standard_table() {
        assert_eq!(version_bits(7), 0x07C94);
        assert_eq!(version_bits(40), 0x28C69);
    }

    #[test]
    fn a_version_1_grid_reserves_all_but_208_modules() {
        let grid = ModuleGrid::new(1);
        let free = grid.reserved.iter().filter(|&&r| r == 0).count();
        assert_eq!(free, 26 * 8);
    }
}
