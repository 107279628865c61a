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
    /// A grid for `version` with every function pattern in place and format bits reserved:
    /// a copy of the version's template.
    pub fn new(version: u8) -> Self {
        let t = template(version);
        Self { size: t.size, modules: t.modules.clone(), reserved: t.reserved.clone() }
    }

    /// Builds the grid `new` copies.
    fn build(version: u8) -> Self {
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

    /// Places codewords in the zig-zag order of the standard, skipping function modules (the
    /// template's `order`). Modules past the last codeword stay light.
    pub fn place_data(&mut self, data: &[u8]) {
        let order = &template_for_size(self.size).order;
        for (cells, &byte) in order.chunks(8).zip(data) {
            for (k, &i) in cells.iter().enumerate() {
                self.modules[i as usize] = (byte >> (7 - k)) & 1;
            }
        }
    }

    /// The data modules in the standard's zig-zag order: two columns at a time from the
    /// right, up then down, skipping the timing column and every function module.
    fn placement_order(&self) -> Vec<u16> {
        let size = self.size;
        let mut order = Vec::with_capacity(size * size);
        let mut upward = true;
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
                        order.push(i as u16);
                    }
                }
            }
            upward = !upward;
            col -= 2;
        }
        order
    }
}

/// What every symbol of one version shares, built once per version and kept for the life of
/// the process (at most ~4 bytes per module: 125 KB for version 40): the function patterns,
/// the data modules in placement order (indices fit `u16`: 177² < 2¹⁶), and which modules a
/// mask may flip, by row and by column (bit `i` of line `k`, in three words).
pub struct Template {
    pub size: usize,
    pub modules: Vec<u8>,
    pub reserved: Vec<u8>,
    pub order: Vec<u16>,
    pub free_rows: Vec<[u64; 3]>,
    pub free_cols: Vec<[u64; 3]>,
}

/// The template of `version` (1–40).
pub fn template(version: u8) -> &'static Template {
    static TEMPLATES: [std::sync::OnceLock<Template>; 40] = [const { std::sync::OnceLock::new() }; 40];
    TEMPLATES[version as usize - 1].get_or_init(|| {
        let grid = ModuleGrid::build(version);
        let size = grid.size;
        let mut free_rows = vec![[0u64; 3]; size];
        let mut free_cols = vec![[0u64; 3]; size];
        for r in 0..size {
            for c in 0..size {
                if grid.reserved[r * size + c] == 0 {
                    free_rows[r][c / 64] |= 1 << (c % 64);
                    free_cols[c][r / 64] |= 1 << (r % 64);
                }
            }
        }
        let order = grid.placement_order();
        Template { size, modules: grid.modules, reserved: grid.reserved, order, free_rows, free_cols }
    })
}

/// The template of the version whose symbols are `size` modules wide.
pub fn template_for_size(size: usize) -> &'static Template {
    template(((size - 17) / 4) as u8)
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
    fn each_template_orders_every_free_module_once_and_holds_every_codeword() {
        // Remainder bits after the last codeword (ISO/IEC 18004 Table 1).
        let remainder = |v: u8| match v {
            2..=6 => 7,
            14..=20 | 28..=34 => 3,
            21..=27 => 4,
            _ => 0,
        };
        for version in 1..=40u8 {
            let t = template(version);
            let mut seen = vec![false; t.size * t.size];
            for &i in &t.order {
                assert_eq!(t.reserved[i as usize], 0, "v{version}: module {i} is a function module");
                assert!(!std::mem::replace(&mut seen[i as usize], true), "v{version}: module {i} twice");
            }
            let free = t.reserved.iter().filter(|&&r| r == 0).count();
            assert_eq!(t.order.len(), free, "v{version}");
            assert_eq!(free, tables::total_codewords(version) * 8 + remainder(version), "v{version}");
            let bits: u32 = t.free_rows.iter().flatten().map(|w| w.count_ones()).sum();
            let col_bits: u32 = t.free_cols.iter().flatten().map(|w| w.count_ones()).sum();
            assert_eq!((bits as usize, col_bits as usize), (free, free), "v{version}");
        }
    }

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
