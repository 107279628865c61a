//! Image files and pixel buffers to the grey pixels `decode` reads, within a pixel budget that
//! is checked from the file's header before any pixel is allocated.

use super::{check_pixels, Grey};
use crate::error::{Error, Result};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use std::io::Cursor;

/// The formats `decode` reads, as its errors name them.
pub const FORMATS: &str = "a PNG, JPEG, WebP, GIF or BMP file";

/// Default `maxPixels`: 40 megapixels, above the largest phone photo's 12–48 MP... most of
/// them; its 8-bit RGBA pixels take 160 MB while they are converted to grey.
pub const DEFAULT_MAX_PIXELS: u64 = 40_000_000;

/// The largest `maxPixels` accepted: 2^30 pixels (4 GiB as RGBA).
pub const MAX_MAX_PIXELS: u64 = 1 << 30;

fn format_of(bytes: &[u8]) -> Result<ImageFormat> {
    match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP | ImageFormat::Gif | ImageFormat::Bmp)) => {
            Ok(f)
        }
        _ => Err(Error::invalid_value(format!(
            "The argument 'image' must be {FORMATS}; its first bytes are none of these"
        ))),
    }
}

fn malformed(format: ImageFormat, e: impl std::fmt::Display) -> Error {
    Error::invalid_value(format!("The argument 'image' is not a readable {} file: {e}", name(format)))
}

fn name(format: ImageFormat) -> &'static str {
    match format {
        ImageFormat::Png => "PNG",
        ImageFormat::Jpeg => "JPEG",
        ImageFormat::WebP => "WebP",
        ImageFormat::Gif => "GIF",
        _ => "BMP",
    }
}

fn decoder_of(bytes: &[u8], max_pixels: u64) -> Result<(impl ImageDecoder + '_, ImageFormat)> {
    let format = format_of(bytes)?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    // 16-bit RGBA is the widest pixel the five formats produce; the decoders check this
    // against the header's dimensions before they allocate.
    limits.max_alloc = Some(max_pixels.saturating_mul(8).max(1 << 20));
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(|e| malformed(format, e))?;
    let (w, h) = decoder.dimensions();
    check_pixels(w as u64, h as u64, max_pixels)?;
    if w == 0 || h == 0 {
        return Err(malformed(format, "it has no pixels"));
    }
    Ok((decoder, format))
}

/// Width and height from the file's header, checked against `max_pixels`. Reads no pixel data.
pub fn dimensions(bytes: &[u8], max_pixels: u64) -> Result<(u32, u32)> {
    if format_of(bytes)? == ImageFormat::Png {
        let info = png_reader(bytes, max_pixels)?;
        let i = info.info();
        return Ok((i.width, i.height));
    }
    decoder_of(bytes, max_pixels).map(|(d, _)| d.dimensions())
}

/// Decodes a file (the first frame of an animation) to grey: its header first, refused over
/// `max_pixels` before any pixel is allocated; transparent pixels count as white. A JPEG or
/// a plain lossy WebP is read straight to its luma (`luma`).
pub fn read(bytes: &[u8], max_pixels: u64) -> Result<Grey> {
    let straight = match format_of(bytes)? {
        ImageFormat::Png => return read_png(bytes, max_pixels),
        ImageFormat::Jpeg => super::luma::jpeg(bytes, max_pixels)?,
        ImageFormat::WebP => super::luma::webp(bytes, max_pixels)?,
        _ => None,
    };
    if let Some(grey) = straight {
        return Ok(grey);
    }
    let (decoder, format) = decoder_of(bytes, max_pixels)?;
    let image = DynamicImage::from_decoder(decoder).map_err(|e| malformed(format, e))?;
    let (width, height) = (image.width(), image.height());
    let pixels = if image.color().has_alpha() {
        grey_of_rgba(image.into_rgba8().as_raw())
    } else {
        image.into_luma8().into_raw()
    };
    Ok(Grey { width, height, pixels })
}

/// The `png` crate's reader, past the header, with the pixels' budget checked (the plain
/// PNG's image data is then read by `png_rows`, the rest by this reader). PNG goes to
/// the `png` crate directly, not through `image`: `image` decompresses the ICC profile
/// (`iCCP`) and text chunks, so a 1 MB file whose `iCCP` inflates to 1 GB kept a thread
/// busy in the header alone. Here those chunks are skipped unread.
pub fn png_reader(bytes: &[u8], max_pixels: u64) -> Result<png::Reader<Cursor<&[u8]>>> {
    let limits =
        png::Limits { bytes: usize::try_from(max_pixels.saturating_mul(8).max(1 << 20)).unwrap_or(usize::MAX) };
    // A whole IHDR's claim first (its CRC holds): the `png` crate sizes its buffers from it
    // in `read_info`, and on a 32-bit target (wasm32) a claim of billions of pixels
    // overflows there and would be refused as malformed rather than as too large. A header
    // that is not whole is left to the crate, which calls it malformed.
    let ihdr = bytes.get(12..29).filter(|chunk| chunk.starts_with(b"IHDR"));
    if let (Some(chunk), Some(crc)) = (ihdr, be_u32(bytes, 29)) {
        if libdeflater::crc32(chunk) == crc {
            check_pixels(be_u32(chunk, 4).unwrap_or(0) as u64, be_u32(chunk, 8).unwrap_or(0) as u64, max_pixels)?;
        }
    }
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), limits);
    decoder.set_ignore_iccp_chunk(true);
    decoder.set_ignore_text_chunk(true);
    // Palettes and transparency to RGB(A), 1–4-bit grey to 8-bit, 16-bit to 8-bit.
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let reader = decoder.read_info().map_err(|e| malformed(ImageFormat::Png, e))?;
    let (w, h) = (reader.info().width, reader.info().height);
    check_pixels(w as u64, h as u64, max_pixels)?;
    if w == 0 || h == 0 {
        return Err(malformed(ImageFormat::Png, "it has no pixels"));
    }
    Ok(reader)
}

fn be_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn read_png(bytes: &[u8], max_pixels: u64) -> Result<Grey> {
    let mut reader = png_reader(bytes, max_pixels)?;
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    // The plain case read faster (`png_rows`); the rest, and anything irregular, by the
    // `png` crate.
    let fast = super::png_rows::read(bytes, info, |r, g, b, a| over_white(luma(r, g, b), a as u32));
    let (buf, width, height, color_type) = match fast {
        Some((buf, color_type)) => (buf, width, height, color_type),
        None => {
            let size = reader.output_buffer_size().ok_or_else(|| malformed(ImageFormat::Png, "its size overflows"))?;
            let mut buf = vec![0u8; size];
            let out = reader.next_frame(&mut buf).map_err(|e| malformed(ImageFormat::Png, e))?;
            buf.truncate(out.line_size * out.height as usize);
            (buf, out.width, out.height, out.color_type)
        }
    };
    let rows = |channels: usize| buf.chunks_exact(channels);
    let pixels = match color_type {
        png::ColorType::Grayscale => buf,
        png::ColorType::GrayscaleAlpha => rows(2).map(|p| over_white(p[0] as u32, p[1] as u32)).collect(),
        png::ColorType::Rgb => rows(3).map(|p| luma(p[0], p[1], p[2]) as u8).collect(),
        png::ColorType::Rgba => grey_of_rgba(&buf),
        png::ColorType::Indexed => return Err(malformed(ImageFormat::Png, "its palette was not expanded")),
    };
    if pixels.len() as u64 != width as u64 * height as u64 {
        return Err(malformed(ImageFormat::Png, "its rows are not whole"));
    }
    Ok(Grey { width, height, pixels })
}

/// Whether `len` bytes are `width × height` pixels, grey (1 byte each, `Ok(false)`) or RGBA
/// (4 bytes each, `Ok(true)`); checked before the bytes are copied, and again on them.
pub fn check_pixel_len(len: usize, width: u32, height: u32) -> Result<bool> {
    let n = width as u64 * height as u64;
    match len as u64 {
        l if l == n => Ok(false),
        l if l == n * 4 => Ok(true),
        _ => Err(Error::invalid_value(format!(
            "The argument 'image.data' must hold width × height bytes (grey) or 4 × width × height (RGBA): {n} or {}. Received {len} bytes",
            n * 4
        ))),
    }
}

/// Pixels from `{ data, width, height }`: grey when there is one byte a pixel, RGBA when four.
pub fn from_pixels(data: Vec<u8>, width: u32, height: u32) -> Result<Grey> {
    let pixels = if check_pixel_len(data.len(), width, height)? { grey_of_rgba(&data) } else { data };
    Ok(Grey { width, height, pixels })
}

/// Rec. 709 luma, from 8-bit channels.
fn luma(r: u8, g: u8, b: u8) -> u32 {
    (54 * r as u32 + 183 * g as u32 + 19 * b as u32 + 128) >> 8
}

/// A grey value `y` at opacity `a` (0–255) over white.
fn over_white(y: u32, a: u32) -> u8 {
    ((y * a + 255 * (255 - a) + 127) / 255) as u8
}

/// Rec. 709 luma of each RGBA pixel, composited over white by its alpha.
fn grey_of_rgba(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4).map(|p| over_white(luma(p[0], p[1], p[2]), p[3] as u32)).collect()
}
