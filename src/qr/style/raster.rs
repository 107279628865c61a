//! Styled codes in pixels: the scene's outlines filled by tiny-skia (anti-aliased, with its
//! gradients), then written as PNG (a palette where the image has few colours), JPEG or
//! lossless WebP.

use super::scene::{Scene, SceneLogo};
use super::shapes::{self, Outline, Seg};
use super::spec::{linear_ends, GradientKind, Paint, PaintBox};
use crate::error::{Error, ErrorKind, Result};
use crate::qr::png::{chunk, zlib};
use rustc_hash::FxHashMap;
use tiny_skia::{
    Color, FillRule, GradientStop, LinearGradient, Pixmap, Point as SkPoint, RadialGradient, Shader, SpreadMode,
    Transform,
};

fn internal(what: &str) -> Error {
    Error::new(ErrorKind::Internal, format!("styled code: {what}"))
}

fn path(outline: &Outline) -> Option<tiny_skia::Path> {
    let mut b = tiny_skia::PathBuilder::new();
    for c in &outline.contours {
        b.move_to(c.start.x as f32, c.start.y as f32);
        for s in &c.segs {
            match *s {
                Seg::Line(p) => b.line_to(p.x as f32, p.y as f32),
                Seg::Cubic(a, c2, p) => {
                    b.cubic_to(a.x as f32, a.y as f32, c2.x as f32, c2.y as f32, p.x as f32, p.y as f32)
                }
            }
        }
        b.close();
    }
    b.finish()
}

fn colour(c: &crate::qr::render::Colour) -> Color {
    Color::from_rgba8(c.r, c.g, c.b, c.a)
}

fn shader(paint: &Paint, area: &PaintBox) -> Shader<'static> {
    let g = match paint {
        Paint::Solid(c) => return Shader::SolidColor(colour(c)),
        Paint::Gradient(g) => g,
    };
    let stops: Vec<GradientStop> = g.stops.iter().map(|s| GradientStop::new(s.offset, colour(&s.colour))).collect();
    let fallback = Shader::SolidColor(colour(&g.stops[g.stops.len() - 1].colour));
    let made = match g.kind {
        GradientKind::Linear => {
            let (a, b) = linear_ends(g.rotation, area);
            LinearGradient::new(
                SkPoint::from_xy(a.x as f32, a.y as f32),
                SkPoint::from_xy(b.x as f32, b.y as f32),
                stops,
                SpreadMode::Pad,
                Transform::identity(),
            )
        }
        GradientKind::Radial => {
            let centre = SkPoint::from_xy((area.x + area.w / 2.0) as f32, (area.y + area.h / 2.0) as f32);
            let radius = (area.w.max(area.h) / 2.0) as f32;
            RadialGradient::new(centre, centre, radius, stops, SpreadMode::Pad, Transform::identity())
        }
    };
    made.unwrap_or(fallback)
}

fn fill(pixmap: &mut Pixmap, outline: &Outline, paint: &Paint, area: &PaintBox) {
    let Some(p) = path(outline) else { return };
    let paint = tiny_skia::Paint { shader: shader(paint, area), anti_alias: true, ..Default::default() };
    pixmap.fill_path(&p, &paint, FillRule::Winding, Transform::identity(), None);
}

/// Paints the scene. Memory: 4 bytes a pixel (256 MiB at the 8192 px limit).
pub fn paint(scene: &Scene) -> Result<Pixmap> {
    let side = scene.layout.side;
    let mut pixmap = Pixmap::new(side, side).ok_or_else(|| internal("no pixmap of that size"))?;
    let s = side as f64;
    let whole = PaintBox { x: 0.0, y: 0.0, w: s, h: s, rotation: 0.0 };
    fill(&mut pixmap, &shapes::background(s, scene.round.clamp(0.0, 1.0) * s / 2.0), scene.background, &whole);
    for layer in &scene.layers {
        fill(&mut pixmap, &layer.outline, layer.paint, &layer.area);
    }
    if let Some(logo) = &scene.logo {
        draw_logo(&mut pixmap, logo)?;
    }
    for layer in &scene.over {
        fill(&mut pixmap, &layer.outline, layer.paint, &layer.area);
    }
    Ok(pixmap)
}

/// The logo resized to the pixels it covers (so a large file costs one resize, not a
/// filtered draw per pixel), premultiplied, and drawn at its place.
fn draw_logo(pixmap: &mut Pixmap, logo: &SceneLogo) -> Result<()> {
    let (w, h) = (logo.w.round().max(1.0) as u32, logo.h.round().max(1.0) as u32);
    if logo.w < 0.5 || logo.h < 0.5 {
        return Ok(());
    }
    let logo_pixmap = match &logo.image.vector {
        // An SVG is drawn at the size it covers, already premultiplied.
        Some(tree) => super::logo::render_svg(tree, w, h).ok_or_else(|| internal("logo pixmap"))?,
        None => {
            let mut data = logo.image.resized(w, h).ok_or_else(|| internal("logo pixels of the wrong length"))?;
            for px in data.chunks_exact_mut(4) {
                let a = px[3] as u32;
                for c in &mut px[..3] {
                    *c = ((*c as u32 * a + 127) / 255) as u8;
                }
            }
            let size = tiny_skia::IntSize::from_wh(w, h).ok_or_else(|| internal("logo of no size"))?;
            Pixmap::from_vec(data, size).ok_or_else(|| internal("logo pixmap"))?
        }
    };
    let paint = tiny_skia::PixmapPaint { quality: tiny_skia::FilterQuality::Bilinear, ..Default::default() };
    pixmap.draw_pixmap(
        0,
        0,
        logo_pixmap.as_ref(),
        &paint,
        Transform::from_translate(
            (logo.x + (logo.w - w as f64) / 2.0) as f32,
            (logo.y + (logo.h - h as f64) / 2.0) as f32,
        ),
        None,
    );
    Ok(())
}

/// Straight (not premultiplied) RGBA of every pixel, in the pixmap's own memory.
fn rgba(pixmap: Pixmap) -> Vec<u8> {
    let mut data = pixmap.take();
    for px in data.chunks_exact_mut(4) {
        let a = px[3];
        if a != 255 && a != 0 {
            for c in &mut px[..3] {
                *c = ((*c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            }
        }
    }
    data
}

/// libdeflate's level for styled PNGs, chosen with `cargo run --release --no-default-features
/// --example styled_stages [logo.png]` and the level changed here: level 9 took several times
/// as long as 6 for files a few percent smaller. Anti-aliased edges leave long matches rare,
/// so the deeper search buys little.
const STYLED_DEFLATE_LEVEL: i32 = 6;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

fn ihdr(out: &mut Vec<u8>, side: u32, depth: u8, colour_type: u8) {
    let mut h = Vec::with_capacity(13);
    h.extend_from_slice(&side.to_be_bytes());
    h.extend_from_slice(&side.to_be_bytes());
    h.extend_from_slice(&[depth, colour_type, 0, 0, 0]);
    chunk(out, b"IHDR", &h);
}

/// The image's colours, if there are at most 256, and each pixel's index.
fn palette(pixels: &[u8]) -> Option<(Vec<[u8; 4]>, Vec<u8>)> {
    let mut index: FxHashMap<u32, u8> = FxHashMap::default();
    let mut colours: Vec<[u8; 4]> = Vec::new();
    let mut out = Vec::with_capacity(pixels.len() / 4);
    let mut last: Option<(u32, u8)> = None;
    for px in pixels.chunks_exact(4) {
        let key = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
        let i = match last {
            Some((k, i)) if k == key => i,
            _ => {
                let i = match index.get(&key) {
                    Some(&i) => i,
                    None => {
                        if colours.len() == 256 {
                            return None;
                        }
                        colours.push([px[0], px[1], px[2], px[3]]);
                        let i = (colours.len() - 1) as u8;
                        index.insert(key, i);
                        i
                    }
                };
                last = Some((key, i));
                i
            }
        };
        out.push(i);
    }
    Some((colours, out))
}

/// One PNG row filter for truecolour rows, picked per row by the smallest sum of absolute
/// values (the PNG specification's suggested heuristic). Each filter is its own plain loop
/// over the row, so the compiler vectorises all but Paeth.
fn filter_rows(data: &[u8], side: usize, bpp: usize) -> Vec<u8> {
    let line = side * bpp;
    let mut out = Vec::with_capacity((line + 1) * side);
    let zero = vec![0u8; line];
    let mut rows = [vec![0u8; line], vec![0u8; line], vec![0u8; line], vec![0u8; line], vec![0u8; line]];
    let cost = |v: &[u8]| -> u64 { v.iter().map(|&x| (x as i8).unsigned_abs() as u64).sum() };
    for y in 0..side {
        let row = &data[y * line..(y + 1) * line];
        let up = if y == 0 { &zero[..] } else { &data[(y - 1) * line..y * line] };
        let [none, sub, upf, avg, pae] = &mut rows;
        none.copy_from_slice(row);
        sub[..bpp].copy_from_slice(&row[..bpp]);
        for i in bpp..line {
            sub[i] = row[i].wrapping_sub(row[i - bpp]);
        }
        for i in 0..line {
            upf[i] = row[i].wrapping_sub(up[i]);
        }
        for i in 0..bpp {
            avg[i] = row[i].wrapping_sub(up[i] / 2);
            pae[i] = row[i].wrapping_sub(up[i]);
        }
        for i in bpp..line {
            avg[i] = row[i].wrapping_sub(((row[i - bpp] as u16 + up[i] as u16) / 2) as u8);
        }
        for i in bpp..line {
            pae[i] = row[i].wrapping_sub(paeth(row[i - bpp], up[i], up[i - bpp]));
        }
        let best = (0..5).min_by_key(|&k| cost(&rows[k])).unwrap_or(0);
        out.push(best as u8);
        out.extend_from_slice(&rows[best]);
    }
    out
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = a as i16 + b as i16 - c as i16;
    let (pa, pb, pc) = ((p - a as i16).abs(), (p - b as i16).abs(), (p - c as i16).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// The smallest PNG of the two kinds we write: indexed at 1, 2, 4 or 8 bits a pixel when
/// the image has at most 256 colours (with `tRNS` for alpha), else RGB or RGBA.
pub fn png(pixmap: Pixmap) -> Result<Vec<u8>> {
    let side = pixmap.width() as usize;
    let pixels = rgba(pixmap);
    let mut out = Vec::with_capacity(1024);
    out.extend_from_slice(&SIGNATURE);
    let raw = match palette(&pixels) {
        Some((colours, indices)) => {
            let depth: u8 = match colours.len() {
                0..=2 => 1,
                3..=4 => 2,
                5..=16 => 4,
                _ => 8,
            };
            ihdr(&mut out, side as u32, depth, 3);
            let plte: Vec<u8> = colours.iter().flat_map(|c| [c[0], c[1], c[2]]).collect();
            chunk(&mut out, b"PLTE", &plte);
            if let Some(last) = colours.iter().rposition(|c| c[3] != 255) {
                let trns: Vec<u8> = colours[..=last].iter().map(|c| c[3]).collect();
                chunk(&mut out, b"tRNS", &trns);
            }
            let per_byte = 8 / depth as usize;
            let line = side.div_ceil(per_byte);
            let mut raw = Vec::with_capacity((line + 1) * side);
            for row in indices.chunks_exact(side) {
                raw.push(0);
                for group in row.chunks(per_byte) {
                    let mut byte = 0u8;
                    for (k, &i) in group.iter().enumerate() {
                        byte |= i << (8 - depth as usize * (k + 1));
                    }
                    raw.push(byte);
                }
            }
            raw
        }
        None => {
            let opaque = pixels.chunks_exact(4).all(|p| p[3] == 255);
            if opaque {
                ihdr(&mut out, side as u32, 8, 2);
                let rgb: Vec<u8> = pixels.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
                filter_rows(&rgb, side, 3)
            } else {
                ihdr(&mut out, side as u32, 8, 6);
                filter_rows(&pixels, side, 4)
            }
        }
    };
    let mut idat = Vec::with_capacity(raw.len() / 4 + 64);
    zlib(STYLED_DEFLATE_LEVEL, &raw, &mut idat)?;
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// RGB with every pixel composed over white (JPEG has no alpha).
fn rgb_over_white(pixmap: &Pixmap) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixmap.pixels().len() * 3);
    for p in pixmap.pixels() {
        // Premultiplied: colour + (1 - alpha) · white.
        let rest = 255 - p.alpha();
        out.extend_from_slice(&[p.red() + rest, p.green() + rest, p.blue() + rest]);
    }
    out
}

/// Baseline JPEG at `quality` (1..=100), transparent parts on white.
pub fn jpeg(pixmap: &Pixmap, quality: u8) -> Result<Vec<u8>> {
    use image::ImageEncoder;
    let mut out = Vec::new();
    let rgb = rgb_over_white(pixmap);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100))
        .write_image(&rgb, pixmap.width(), pixmap.height(), image::ExtendedColorType::Rgb8)
        .map_err(|e| internal(&format!("JPEG encoder: {e}")))?;
    Ok(out)
}

/// Lossless WebP (RGBA).
pub fn webp(pixmap: Pixmap) -> Result<Vec<u8>> {
    use image::ImageEncoder;
    let mut out = Vec::new();
    let side = pixmap.width();
    let pixels = rgba(pixmap);
    image::codecs::webp::WebPEncoder::new_lossless(&mut out)
        .write_image(&pixels, side, side, image::ExtendedColorType::Rgba8)
        .map_err(|e| internal(&format!("WebP encoder: {e}")))?;
    Ok(out)
}
