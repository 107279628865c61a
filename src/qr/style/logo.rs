//! A logo in the middle of a styled code: read from its file (PNG, JPEG, WebP, GIF or BMP,
//! size checked from the header before any pixel is decoded), then sized so that the
//! modules it hides stay within every Reed–Solomon block's budget (`qr::budget`).

use super::spec::LogoSpec;
use crate::error::{Error, ErrorKind, Result};
use crate::qr::{budget, EcLevel};

/// Most bytes a logo file may have.
pub const MAX_FILE_BYTES: usize = 16 << 20;
/// Most pixels a logo may have once decoded (refused from the header).
pub const MAX_PIXELS: u64 = 16_000_000;
/// The largest size a caller may give.
pub const MAX_SIZE: f64 = 0.5;
/// The size chosen at most when the caller gives none.
pub const DEFAULT_MAX_SIZE: f64 = 0.3;

/// A decoded logo: straight RGBA, row-major.
#[derive(Clone, Debug)]
pub struct LogoImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// The file as given, with its MIME type, when it is small enough for an SVG to embed as
    /// it is (it decoded, so it is the image it claims to be); else SVG embeds a new PNG.
    pub original: Option<(&'static str, Vec<u8>)>,
}

impl LogoImage {
    /// The logo resized to `w × h` (straight RGBA), read in place: no copy of the pixels.
    pub fn resized(&self, w: u32, h: u32) -> Option<Vec<u8>> {
        if (w, h) == (self.width, self.height) {
            return Some(self.rgba.clone());
        }
        let view = image::ImageBuffer::<image::Rgba<u8>, &[u8]>::from_raw(self.width, self.height, &self.rgba[..])?;
        Some(image::imageops::resize(&view, w, h, image::imageops::FilterType::Triangle).into_raw())
    }
}

/// Largest logo file an SVG embeds as given.
pub const EMBED_AS_GIVEN: usize = 64 << 10;

/// `decode`, keeping the file for SVG when it is at most `EMBED_AS_GIVEN` bytes.
pub fn decode_for_embedding(file: &[u8]) -> Result<LogoImage> {
    let mut image = decode(file)?;
    if file.len() <= EMBED_AS_GIVEN {
        let mime = match image::guess_format(file) {
            Ok(image::ImageFormat::Png) => Some("image/png"),
            Ok(image::ImageFormat::Jpeg) => Some("image/jpeg"),
            Ok(image::ImageFormat::WebP) => Some("image/webp"),
            Ok(image::ImageFormat::Gif) => Some("image/gif"),
            _ => None,
        };
        image.original = mime.map(|m| (m, file.to_vec()));
    }
    Ok(image)
}

fn unreadable(detail: impl std::fmt::Display) -> Error {
    Error::invalid_value(format!("The argument 'options.style.logo.image' could not be read as an image: {detail}"))
}

/// Whether `file` looks like SVG text (an XML or `<svg` start after spaces and a BOM).
fn looks_like_svg(file: &[u8]) -> bool {
    let text = file.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(file);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let head = &text[start..text.len().min(start + 256)];
    head.starts_with(b"<?xml") || head.starts_with(b"<svg") || head.starts_with(b"<!DOCTYPE svg")
}

/// Decodes a logo file, refusing past `MAX_PIXELS` from its header.
pub fn decode(file: &[u8]) -> Result<LogoImage> {
    use image::ImageFormat as F;
    use std::io::Cursor;
    if looks_like_svg(file) {
        return Err(Error::invalid_value(
            "The argument 'options.style.logo.image' is an SVG file: SVG logos are not supported yet; \
             give the logo as a PNG, JPEG, WebP, GIF or BMP file",
        ));
    }
    let reader = image::ImageReader::new(Cursor::new(file)).with_guessed_format().map_err(unreadable)?;
    match reader.format() {
        // PNG through decode's reader, which skips ICC profiles and text chunks unread (a
        // small file whose `iCCP` inflates to a gigabyte otherwise costs that much).
        Some(F::Png) => return read_png(file),
        Some(F::Jpeg | F::WebP | F::Gif | F::Bmp) => {}
        _ => return Err(unreadable("not a PNG, JPEG, WebP, GIF or BMP file")),
    }
    let (w, h) = reader.into_dimensions().map_err(unreadable)?;
    let pixels = w as u64 * h as u64;
    if pixels > MAX_PIXELS || w == 0 || h == 0 {
        return Err(Error::out_of_range(format!(
            "The logo in 'options.style.logo.image' is {w} × {h} px ({pixels} pixels); the limit is {MAX_PIXELS} pixels"
        )));
    }
    let mut reader = image::ImageReader::new(Cursor::new(file)).with_guessed_format().map_err(unreadable)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    limits.max_alloc = Some(pixels * 16 + (1 << 20));
    reader.limits(limits);
    let img = reader.decode().map_err(unreadable)?.into_rgba8();
    Ok(LogoImage { width: img.width(), height: img.height(), rgba: img.into_raw(), original: None })
}

fn read_png(file: &[u8]) -> Result<LogoImage> {
    let mut reader = crate::decode::image::png_reader(file, MAX_PIXELS).map_err(|e| match e.kind {
        ErrorKind::OutOfRange => {
            Error::out_of_range(format!("The logo in 'options.style.logo.image' is too large: {}", e.message))
        }
        _ => unreadable(e.message),
    })?;
    let size = reader.output_buffer_size().ok_or_else(|| unreadable("its size overflows"))?;
    let mut buf = vec![0u8; size];
    let out = reader.next_frame(&mut buf).map_err(unreadable)?;
    buf.truncate(out.line_size * out.height as usize);
    let rgba = match out.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err(unreadable("its palette was not expanded")),
    };
    if rgba.len() as u64 != out.width as u64 * out.height as u64 * 4 {
        return Err(unreadable("its rows are not whole"));
    }
    Ok(LogoImage { width: out.width, height: out.height, rgba, original: None })
}

/// Where the logo's box lies, in modules from the symbol's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub size: f64,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

impl Placement {
    /// The box of a logo `aspect` (height / width) times as tall as wide, whose longer side
    /// is `size` of the symbol's `count` modules, centred.
    pub fn new(count: usize, aspect: f64, size: f64) -> Placement {
        let n = count as f64;
        let (w, h) = if aspect <= 1.0 { (size * n, size * n * aspect) } else { (size * n / aspect, size * n) };
        Placement { size, x0: (n - w) / 2.0, x1: (n + w) / 2.0, y0: (n - h) / 2.0, y1: (n + h) / 2.0 }
    }

    /// Whether the box overlaps module (`row`, `col`) (touching its edge is not overlapping).
    pub fn covers(&self, row: usize, col: usize) -> bool {
        let (r, c) = (row as f64, col as f64);
        c + 1.0 > self.x0 && c < self.x1 && r + 1.0 > self.y0 && r < self.y1
    }
}

/// Whether the box stays off the finder patterns and their separators (8 × 8 at three
/// corners) and within the budget (function modules it covers are drawn over it).
fn fits(version: u8, level: EcLevel, p: &Placement) -> bool {
    let n = crate::qr::tables::symbol_size(version) as f64;
    let near = |lo: f64| lo < 8.0;
    let far = |hi: f64| hi > n - 8.0;
    let on_finder = (near(p.y0) && near(p.x0)) || (near(p.y0) && far(p.x1)) || (far(p.y1) && near(p.x0));
    !on_finder && budget::fits(version, level, |r, c| p.covers(r, c) && !budget::is_function(version, r, c))
}

/// The largest size in thousandths, at most `cap`, whose box fits; `None` if none does.
fn largest_fitting(version: u8, level: EcLevel, count: usize, aspect: f64, cap: f64) -> Option<f64> {
    let (mut lo, mut hi) = (0u32, (cap * 1000.0).floor() as u32);
    let at = |k: u32| Placement::new(count, aspect, k as f64 / 1000.0);
    if hi == 0 || !fits(version, level, &at(1)) {
        return None;
    }
    lo = lo.max(1);
    if fits(version, level, &at(hi)) {
        return Some(hi as f64 / 1000.0);
    }
    // Invariant: `lo` fits, `hi` does not (the box only grows with the size).
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(version, level, &at(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo as f64 / 1000.0)
}

/// Places the logo: at the caller's size if it fits the budget, else `ERR_QR_LOGO_TOO_LARGE`
/// naming the largest size that fits; without a size, the largest that fits, at most 0.3.
pub fn place(spec: &LogoSpec, version: u8, level: EcLevel, count: usize, image: &LogoImage) -> Result<Placement> {
    let aspect = image.height as f64 / image.width as f64;
    let best = largest_fitting(version, level, count, aspect, MAX_SIZE);
    let too_large = |asked: String| {
        let fit = match best {
            Some(s) => format!("the largest size that fits is {s}"),
            None => "no logo fits: use errorCorrectionLevel 'H' or more data room".to_string(),
        };
        Error::new(
            ErrorKind::LogoTooLarge,
            format!(
                "The logo hides more of the code than its error correction can spare ({asked}, version {version}, level '{}'): {fit}",
                level.letter()
            ),
        )
    };
    match spec.size {
        Some(size) => {
            let p = Placement::new(count, aspect, size);
            if fits(version, level, &p) {
                Ok(p)
            } else {
                Err(too_large(format!("size {size}")))
            }
        }
        None => match largest_fitting(version, level, count, aspect, DEFAULT_MAX_SIZE) {
            Some(s) => Ok(Placement::new(count, aspect, s)),
            None => Err(too_large("any size".into())),
        },
    }
}

/// What qr-code-styling's logo rule gives: the hidden modules' box and the image's place.
pub struct QrCodeStylingLogo {
    pub hidden: Placement,
    /// x, y, width, height in px.
    pub rect: [f64; 4],
}

/// qr-code-styling's own logo sizing (its `calculateImageSize`): at most `imageSize` times its
/// level's share (L 7 %, M 15 %, Q 25 %, H 30 %) of the modules hidden, an odd number of them
/// on each axis, at most `count − 14` on either, the image as many module widths wide as it
/// hides, its height from its aspect. `round` floors pixel positions as `roundSize` does.
pub fn place_qr_code_styling(
    image_size: f64,
    margin: f64,
    level: EcLevel,
    layout: &super::spec::Layout,
    image: &LogoImage,
    round: bool,
) -> QrCodeStylingLogo {
    let n = layout.count as f64;
    let dot = layout.module;
    let share = match level {
        EcLevel::L => 0.07,
        EcLevel::M => 0.15,
        EcLevel::Q => 0.25,
        EcLevel::H => 0.3,
    };
    let max_hidden = (image_size * share * n * n).floor();
    let max_axis = n - 14.0;
    let (w, h) = (image.width as f64, image.height as f64);
    let (mut width, mut height, mut hide_x, mut hide_y) = (0.0, 0.0, 0.0, 0.0);
    if w > 0.0 && h > 0.0 && max_hidden > 0.0 && dot > 0.0 {
        let a = h / w;
        let mut ox = (max_hidden / a).sqrt().floor();
        if ox <= 0.0 {
            ox = 1.0;
        }
        if max_axis > 0.0 && max_axis < ox {
            ox = max_axis;
        }
        if ox % 2.0 == 0.0 {
            ox -= 1.0;
        }
        let mut sx = ox * dot;
        let mut oy = 1.0 + 2.0 * ((ox * a - 1.0) / 2.0).ceil();
        let mut sy = (sx * a).round();
        if oy * ox > max_hidden || (max_axis > 0.0 && max_axis < oy) {
            // (qr-code-styling also steps `ox` down here when `oy` is even; `ox` is
            // recomputed just below, so that step changes nothing.)
            if max_axis > 0.0 && max_axis < oy {
                oy = max_axis;
            } else {
                oy -= 2.0;
            }
            sy = oy * dot;
            ox = 1.0 + 2.0 * ((oy / a - 1.0) / 2.0).ceil();
            sx = (sy / a).round();
        }
        (width, height, hide_x, hide_y) = (sx, sy, ox, oy);
    }
    let none = Placement { size: 0.0, x0: -1.0, x1: -1.0, y0: -1.0, y1: -1.0 };
    let hidden = if hide_x > 0.0 && hide_y > 0.0 {
        Placement {
            size: 0.0,
            x0: (n - hide_x) / 2.0,
            x1: (n + hide_x) / 2.0,
            y0: (n - hide_y) / 2.0,
            y1: (n + hide_y) / 2.0,
        }
    } else {
        none
    };
    let r = |v: f64| if round { v.floor() } else { v };
    let x = layout.origin + r(margin + (n * dot - width) / 2.0);
    let y = layout.origin + r(margin + (n * dot - height) / 2.0);
    QrCodeStylingLogo { hidden, rect: [x, y, width - 2.0 * margin, height - 2.0 * margin] }
}
