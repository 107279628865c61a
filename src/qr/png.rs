//! PNG output at one bit per pixel: greyscale for black on white (or the reverse), a
//! two-entry palette (with `tRNS` for alpha) for any other colours.
//!
//! The chunks are written here (they are a few fixed fields and a CRC); the pixels are
//! compressed by the row writer (`deflate.rs`) for small codes, else by libdeflate with a
//! compressor kept per thread (`rows_pay` says which). The `png` crate builds a new
//! zlib stream per image, several times the cost of the whole write here
//! (`cargo run --release --no-default-features --example png_settings`).

use super::deflate::{fits_window, zlib_rows};
use super::render::{Colour, Geometry, RenderOptions};
use super::QrMatrix;
use crate::error::{Error, ErrorKind, Result};
use libdeflater::{CompressionLvl, Compressor};
use std::cell::RefCell;

/// libdeflate level and row filter, chosen by measurement (see `examples/png_settings.rs`).
pub const DEFLATE_LEVEL: i32 = 9;
pub const FILTER: Filter = Filter::None;

/// How the scanlines are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deflate {
    /// libdeflate at this level (1–12).
    Level(i32),
    /// `deflate::zlib_rows`: matches only with the byte before and the row above.
    Rows,
    /// `Rows` where it measured no larger than libdeflate level 9, else level 9 (`rows_pay`).
    Auto,
}

/// PNG row filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// Rows as they are: repeated rows become long deflate matches.
    None,
    /// Each byte minus the byte above: repeated rows become runs of zeros.
    Up,
}

/// Writes PNG images of QR matrices.
#[derive(Clone, Copy, Debug)]
pub struct PngWriter {
    pub deflate: Deflate,
    pub filter: Filter,
}

impl Default for PngWriter {
    fn default() -> Self {
        Self { deflate: Deflate::Auto, filter: FILTER }
    }
}

thread_local! {
    /// One compressor per thread and level: libdeflate's set-up is the costly part.
    static COMPRESSORS: RefCell<Vec<(i32, Compressor)>> = const { RefCell::new(Vec::new()) };
}

/// Appends the zlib stream of `data` at `level` to `out`, with this thread's compressor.
pub fn zlib(level: i32, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
    COMPRESSORS.with(|cell| {
        let mut list = cell.borrow_mut();
        let index = match list.iter().position(|(l, _)| *l == level) {
            Some(i) => i,
            None => {
                let lvl = CompressionLvl::new(level)
                    .map_err(|_| Error::new(ErrorKind::Internal, format!("invalid deflate level {level}")))?;
                list.push((level, Compressor::new(lvl)));
                list.len() - 1
            }
        };
        let compressor = &mut list[index].1;
        let start = out.len();
        out.resize(start + compressor.zlib_compress_bound(data.len()), 0);
        let written = compressor
            .zlib_compress(data, &mut out[start..])
            .map_err(|e| Error::new(ErrorKind::Internal, format!("deflate failed: {e:?}")))?;
        out.truncate(start + written);
        Ok(())
    })
}

/// Whether `Deflate::Auto` uses the row writer for a symbol of `size` modules drawn with
/// `geometry`: versions 1–3 at 2 to 6 pixels a module. There it measured no larger than
/// libdeflate level 9 in total and at most 3 % larger on any image, at a third of the time
/// or less; on larger versions and scales level 9's fuller search pays, and at one pixel a
/// module no row repeats (`cargo run --release --no-default-features --example png_settings
/// sweep`; the README's "PNG settings").
pub fn rows_pay(geometry: &Geometry, size: usize) -> bool {
    let version = size.saturating_sub(17) / 4;
    let drawn = geometry.module_at.iter().filter(|m| m.is_some()).count();
    let per_module = drawn as f64 / size as f64;
    version <= 3 && (2.0..6.0).contains(&per_module)
}

/// Appends the zlib stream of the scanlines `raw` (rows of `line` bytes, filter byte
/// included) to `out`, compressed as `deflate` says.
pub fn compress(
    deflate: Deflate,
    geometry: &Geometry,
    size: usize,
    raw: &[u8],
    line: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let rows = match deflate {
        Deflate::Level(level) => return zlib(level, raw, out),
        Deflate::Rows => true,
        Deflate::Auto => rows_pay(geometry, size),
    };
    if rows && fits_window(line) {
        zlib_rows(raw, line, out);
        Ok(())
    } else {
        zlib(DEFLATE_LEVEL, raw, out)
    }
}

/// Appends one chunk: length, type, data, CRC of type and data. Public for the fuzz target
/// that builds PNG files around any rows (`fuzz/fuzz_targets/png_rows.rs`).
pub fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = libdeflater::crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
const GREY: u8 = 0;
const INDEXED: u8 = 3;

impl PngWriter {
    /// Encodes `matrix` as a PNG with `opts`'s geometry and colours.
    /// Cost: one pass over the distinct pixel rows, then deflate of side²/8 bytes.
    pub fn write(&self, matrix: &QrMatrix, opts: &RenderOptions) -> Result<Vec<u8>> {
        let geometry = Geometry::new(matrix.size, opts)?;
        let side = geometry.side;
        let stride = side.div_ceil(8);
        // Bit 1 must mean the colour at grey level 1 (white) or palette index 1 (dark).
        let (invert, palette) = match (opts.light, opts.dark) {
            (l, d) if l.rgba() == Colour::WHITE.rgba() && d.rgba() == Colour::BLACK.rgba() => (true, None),
            (l, d) if l.rgba() == Colour::BLACK.rgba() && d.rgba() == Colour::WHITE.rgba() => (false, None),
            (l, d) => (false, Some((l, d))),
        };

        let mut raw = scanlines(&geometry, matrix, invert);
        if self.filter == Filter::Up {
            up_filter(&mut raw, stride + 1);
        }

        let mut out = Vec::with_capacity(64 + raw.len() / 4);
        out.extend_from_slice(&SIGNATURE);
        let mut ihdr = [0u8; 13];
        ihdr[0..4].copy_from_slice(&(side as u32).to_be_bytes());
        ihdr[4..8].copy_from_slice(&(side as u32).to_be_bytes());
        ihdr[8] = 1; // bit depth
        ihdr[9] = if palette.is_some() { INDEXED } else { GREY };
        chunk(&mut out, b"IHDR", &ihdr);
        if let Some((light, dark)) = palette {
            chunk(&mut out, b"PLTE", &[light.r, light.g, light.b, dark.r, dark.g, dark.b]);
            if light.a != 255 || dark.a != 255 {
                chunk(&mut out, b"tRNS", &[light.a, dark.a]);
            }
        }
        let idat_start = out.len();
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(b"IDAT");
        compress(self.deflate, &geometry, matrix.size, &raw, stride + 1, &mut out)?;
        let idat_len = (out.len() - idat_start - 8) as u32;
        out[idat_start..idat_start + 4].copy_from_slice(&idat_len.to_be_bytes());
        let crc = libdeflater::crc32(&out[idat_start + 4..]);
        out.extend_from_slice(&crc.to_be_bytes());
        chunk(&mut out, b"IEND", &[]);
        Ok(out)
    }
}

/// The image's scanlines before filtering: per pixel row a filter-type byte (0 = none), then
/// the row's bits, dark = 1 (or 0 with `invert`). Each distinct row is drawn once and copied.
pub fn scanlines(geometry: &Geometry, matrix: &QrMatrix, invert: bool) -> Vec<u8> {
    let stride = geometry.side.div_ceil(8);
    let mut raw = Vec::with_capacity((stride + 1) * geometry.side);
    geometry.for_each_row(matrix, |bits, repeat| {
        let start = raw.len();
        raw.push(0);
        raw.extend_from_slice(bits);
        if invert {
            raw[start + 1..].iter_mut().for_each(|b| *b = !*b);
        }
        for _ in 1..repeat {
            raw.extend_from_within(start..start + stride + 1);
        }
    });
    raw
}

/// Applies the Up filter in place, bottom row first so each row above is still plain.
fn up_filter(raw: &mut [u8], line: usize) {
    for r in (1..raw.len() / line).rev() {
        let (above, row) = raw.split_at_mut(r * line);
        let above = &above[(r - 1) * line..];
        row[0] = 2;
        for i in 1..line {
            row[i] = row[i].wrapping_sub(above[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qr::{encode, EncodeOptions, QrInput};

    /// Decodes with the `png` crate (a reference we did not write) into RGBA.
    fn decode_rgba(png_bytes: &[u8]) -> (usize, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let rgba = buf
            .chunks(channels)
            .flat_map(|p| match channels {
                2 => [p[0], p[0], p[0], p[1]],
                4 => [p[0], p[1], p[2], p[3]],
                _ => unreachable!("EXPAND | ALPHA yields grey-alpha or RGBA"),
            })
            .collect();
        (info.width as usize, rgba)
    }

    fn hello() -> QrMatrix {
        encode(&QrInput::Text("hello"), &EncodeOptions::default()).unwrap()
    }

    #[test]
    fn the_row_writer_runs_where_it_measured_no_larger() {
        // `Auto` writes exactly what the row writer writes for versions 1–3 at 2 to 6 pixels a
        // module, and exactly what level 9 writes elsewhere; the bench's URL at 200 px is in
        // the first group and no larger than level 9 makes it.
        let write = |version: u8, render: &RenderOptions, deflate| {
            let opts = EncodeOptions { level: crate::qr::EcLevel::L, version: Some(version), ..Default::default() };
            let text = if version >= 3 { "https://example.com/products/12345?ref=qr-1" } else { "https://ex.co/1" };
            let m = encode(&QrInput::Text(text), &opts).unwrap();
            PngWriter { deflate, filter: FILTER }.write(&m, render).unwrap()
        };
        let scale = |s: f64| RenderOptions { scale: s, ..Default::default() };
        let width = |w: f64| RenderOptions { width: Some(w), ..Default::default() };
        for (version, render, rows) in [
            (3, width(200.0), true),
            (3, scale(2.0), true),
            (3, scale(5.0), true),
            (2, scale(4.0), true),
            (3, scale(1.0), false),
            (3, scale(6.0), false),
            (3, width(400.0), false),
            (4, scale(4.0), false),
            (10, scale(2.0), false),
        ] {
            let expect = if rows { Deflate::Rows } else { Deflate::Level(DEFLATE_LEVEL) };
            let auto = write(version, &render, Deflate::Auto);
            assert_eq!(auto, write(version, &render, expect), "version {version}, {render:?}");
        }
        let url = write(3, &width(200.0), Deflate::Auto);
        assert!(url.len() <= write(3, &width(200.0), Deflate::Level(9)).len());
    }

    #[test]
    fn black_on_white_decodes_with_modules_in_place() {
        let m = hello();
        let opts = RenderOptions { scale: 2.0, margin: 1, ..Default::default() };
        let (side, px) = decode_rgba(&PngWriter::default().write(&m, &opts).unwrap());
        assert_eq!(side, (m.size + 2) * 2);
        for y in 0..side {
            for x in 0..side {
                let (my, mx) = ((y / 2).wrapping_sub(1), (x / 2).wrapping_sub(1));
                let dark = my < m.size && mx < m.size && m.is_dark(my, mx);
                let expect = if dark { [0, 0, 0, 255] } else { [255, 255, 255, 255] };
                assert_eq!(px[(y * side + x) * 4..][..4], expect, "pixel {x},{y}");
            }
        }
    }

    #[test]
    fn colours_with_alpha_use_a_palette_with_transparency() {
        let opts = RenderOptions {
            dark: Colour::parse("#ff000080").unwrap(),
            light: Colour::parse("#00000000").unwrap(),
            ..Default::default()
        };
        let (side, px) = decode_rgba(&PngWriter::default().write(&hello(), &opts).unwrap());
        assert_eq!(px[..4], [0, 0, 0, 0]);
        let finder = (16 * side + 16) * 4;
        assert_eq!(px[finder..finder + 4], [255, 0, 0, 0x80]);
    }

    #[test]
    fn every_filter_and_level_decodes_to_the_same_pixels() {
        let m = hello();
        let opts = RenderOptions { width: Some(203.0), ..Default::default() };
        let reference = decode_rgba(&PngWriter::default().write(&m, &opts).unwrap());
        for filter in [Filter::None, Filter::Up] {
            for deflate in [Deflate::Level(1), Deflate::Level(6), Deflate::Level(12), Deflate::Rows, Deflate::Auto] {
                let png_bytes = PngWriter { deflate, filter }.write(&m, &opts).unwrap();
                assert_eq!(decode_rgba(&png_bytes), reference, "{filter:?} {deflate:?}");
            }
        }
    }
}
