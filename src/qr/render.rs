//! What every image format shares: colours and the geometry that maps pixels to modules,
//! computed in floating point exactly as `qrcode`'s `lib/renderer/utils.js` computes it, so
//! that the same options light the same pixels.

use super::QrMatrix;
use crate::error::{Error, Result};

/// Largest image side, in pixels, any option may produce.
pub const MAX_SIDE: usize = 8192;

/// An RGBA colour parsed from `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
    /// `#rrggbb` with the caller's letter case, as SVG output repeats it.
    pub hex: [u8; 7],
}

impl Colour {
    pub const BLACK: Colour = Colour { r: 0, g: 0, b: 0, a: 255, hex: *b"#000000" };
    pub const WHITE: Colour = Colour { r: 255, g: 255, b: 255, a: 255, hex: *b"#ffffff" };

    /// Parses a hex colour; the leading `#` is optional, as in `qrcode`.
    pub fn parse(text: &str) -> Option<Colour> {
        let digits = text.strip_prefix('#').unwrap_or(text).as_bytes();
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let mut full = [b'f'; 8];
        match digits.len() {
            3 | 4 => {
                for (i, &d) in digits.iter().enumerate() {
                    full[2 * i] = d;
                    full[2 * i + 1] = d;
                }
            }
            6 | 8 => full[..digits.len()].copy_from_slice(digits),
            _ => return None,
        }
        let byte = |i: usize| {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            hex(full[2 * i]) * 16 + hex(full[2 * i + 1])
        };
        let mut hex = [b'#'; 7];
        hex[1..].copy_from_slice(&full[..6]);
        Some(Colour { r: byte(0), g: byte(1), b: byte(2), a: byte(3), hex })
    }

    pub fn hex_str(&self) -> &str {
        std::str::from_utf8(&self.hex).unwrap_or("#000000")
    }

    pub fn rgba(&self) -> [u8; 4] {
        [self.r, self.g, self.b, self.a]
    }
}

/// Options shared by the image and text renderers.
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions {
    /// Quiet zone in modules.
    pub margin: u32,
    /// Pixels per module (may be fractional through the compat layer).
    pub scale: f64,
    /// Requested image side in pixels; used when it leaves at least one pixel per module.
    pub width: Option<f64>,
    /// Make a `width` image exactly `width` pixels wide even where `qrcode`'s floating point
    /// would make it one pixel narrower.
    pub exact_width: bool,
    pub dark: Colour,
    pub light: Colour,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self { margin: 4, scale: 4.0, width: None, exact_width: true, dark: Colour::BLACK, light: Colour::WHITE }
    }
}

/// Pixel geometry of one image: its side and the module under each pixel column (and row,
/// since the image is square).
pub struct Geometry {
    pub side: usize,
    /// For each pixel coordinate, the module coordinate, or `None` in the quiet zone.
    pub module_at: Vec<Option<usize>>,
}

impl Geometry {
    /// The geometry `qrcode` would use for a symbol of `size` modules.
    pub fn new(size: usize, opts: &RenderOptions) -> Result<Geometry> {
        let modules = (size + 2 * opts.margin as usize) as f64;
        // qrcode ignores widths under 21 and widths that leave less than a pixel per module.
        let width = opts.width.filter(|&w| w >= 21.0 && w >= modules);
        let scale = width.map_or(opts.scale, |w| w / modules);
        let mut side = (modules * scale).floor();
        if let (Some(w), true) = (width, opts.exact_width) {
            side = w;
        }
        if !(side >= 1.0 && side <= MAX_SIDE as f64) {
            return Err(Error::out_of_range(format!(
                "the image would be {side} px wide ({} modules with margin × scale {scale}); \
                 the limit is {MAX_SIDE} px: lower scale, margin or width",
                modules
            )));
        }
        let side = side as usize;
        let margin_px = opts.margin as f64 * scale;
        let end = side as f64 - margin_px;
        let module_at = (0..side)
            .map(|i| {
                let p = i as f64;
                (p >= margin_px && p < end).then(|| ((p - margin_px) / scale).floor() as usize)
            })
            .collect();
        Ok(Geometry { side, module_at })
    }

    /// Pixel spans `[x0, x1)` drawn from each module column, in order.
    fn spans(&self) -> Vec<(usize, usize, usize)> {
        let mut spans: Vec<(usize, usize, usize)> = Vec::new();
        for (x, m) in self.module_at.iter().enumerate() {
            let Some(m) = *m else { continue };
            match spans.last_mut() {
                Some(last) if last.0 == m && last.2 == x => last.2 = x + 1,
                _ => spans.push((m, x, x + 1)),
            }
        }
        spans
    }

    /// Calls `row` once per distinct pixel row, with the row's dark flags packed 1 bit per
    /// pixel (most significant first), and how many pixel rows repeat it.
    /// Cost: per distinct row, one bit-range fill per dark module span.
    pub fn for_each_row(&self, matrix: &QrMatrix, mut row: impl FnMut(&[u8], usize)) {
        let stride = self.side.div_ceil(8);
        let mut bits = vec![0u8; stride];
        let spans = self.spans();
        let size = matrix.size;
        let mut y = 0;
        while y < self.side {
            let my = self.module_at[y];
            let repeat = self.module_at[y..].iter().take_while(|&&m| m == my).count();
            bits.fill(0);
            if let Some(my) = my {
                // qrcode indexes the flat array, so a column one past the edge reads the
                // next row's first module: slice one module further where it exists.
                let start = my * size;
                let cells = &matrix.modules[start..(start + size + 1).min(matrix.modules.len())];
                for &(mx, x0, x1) in &spans {
                    if cells.get(mx) == Some(&1) {
                        fill_bits(&mut bits, x0, x1);
                    }
                }
            }
            row(&bits, repeat);
            y += repeat;
        }
    }
}

/// Sets bits `[x0, x1)` of a most-significant-first bit row.
fn fill_bits(bits: &mut [u8], x0: usize, x1: usize) {
    let (first, last) = (x0 / 8, (x1 - 1) / 8);
    let head = 0xFFu8 >> (x0 % 8);
    let tail = 0xFFu8 << (7 - (x1 - 1) % 8);
    if first == last {
        bits[first] |= head & tail;
    } else {
        bits[first] |= head;
        bits[first + 1..last].fill(0xFF);
        bits[last] |= tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_alpha_colours_expand() {
        let c = Colour::parse("#0F08").unwrap();
        assert_eq!(c.rgba(), [0x00, 0xFF, 0x00, 0x88]);
        assert_eq!(c.hex_str(), "#00FF00");
        assert!(Colour::parse("#12345").is_none());
        assert!(Colour::parse("#gggggg").is_none());
    }

    #[test]
    fn width_sets_the_exact_side() {
        let opts = RenderOptions { width: Some(51.0), margin: 0, ..Default::default() };
        assert_eq!(Geometry::new(21, &opts).unwrap().side, 51);
        let qrcode_like = RenderOptions { exact_width: false, ..opts };
        // 21 * (51 / 21) is 50.999… in floating point: qrcode draws 50 px.
        assert_eq!(Geometry::new(21, &qrcode_like).unwrap().side, 50);
    }

    #[test]
    fn bit_ranges_fill_exactly() {
        for x0 in 0..20 {
            for x1 in x0 + 1..=24 {
                let mut bits = [0u8; 3];
                fill_bits(&mut bits, x0, x1);
                for x in 0..24 {
                    assert_eq!((bits[x / 8] >> (7 - x % 8)) & 1 == 1, (x0..x1).contains(&x), "{x0}..{x1} at {x}");
                }
            }
        }
    }

    #[test]
    fn a_side_over_the_limit_is_out_of_range() {
        let opts = RenderOptions { scale: 256.0, ..Default::default() };
        assert!(Geometry::new(177, &opts).is_err());
    }
}
