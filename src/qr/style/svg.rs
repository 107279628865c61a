//! Styled codes as SVG: the scene's outlines as one `<path>` a layer, gradients as
//! `<linearGradient>`/`<radialGradient>` in user space, so browsers, resvg and librsvg draw
//! the same picture the rasteriser draws.

use super::scene::{Scene, SceneLogo};
use super::shapes::{Outline, Seg};
use super::spec::{linear_ends, GradientKind, Paint, PaintBox};
use crate::qr::render::Colour;
use std::fmt::Write;

/// A coordinate with at most two decimals, without trailing zeros.
fn num(out: &mut String, v: f64) {
    hundredths(out, to_hundredths(v));
}

/// `v` in hundredths of a pixel (0 for what no image holds).
fn to_hundredths(v: f64) -> i64 {
    let h = (v * 100.0).round();
    if h.is_finite() && h.abs() < 1e15 {
        h as i64
    } else {
        0
    }
}

/// Writes `n` hundredths as a decimal number without trailing zeros, digit by digit (a path
/// has thousands of numbers, and `{}` of an `f64` was the slow part of the document).
fn hundredths(out: &mut String, n: i64) {
    let mut n = n;
    if n < 0 {
        out.push('-');
        n = -n;
    }
    let (whole, frac) = (n / 100, n % 100);
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut w = whole;
    loop {
        digits[len] = b'0' + (w % 10) as u8;
        len += 1;
        w /= 10;
        if w == 0 {
            break;
        }
    }
    for &d in digits[..len].iter().rev() {
        out.push(d as char);
    }
    if frac != 0 {
        out.push('.');
        out.push((b'0' + (frac / 10) as u8) as char);
        if frac % 10 != 0 {
            out.push((b'0' + (frac % 10) as u8) as char);
        }
    }
}

/// Writes a pair of hundredths: a space between them unless the second is negative.
fn pair(s: &mut String, (x, y): (i64, i64)) {
    hundredths(s, x);
    if y >= 0 {
        s.push(' ');
    }
    hundredths(s, y);
}

/// A path's `d`: each contour from an absolute `M`, then relative commands whose steps are
/// differences of positions rounded to hundredths (so rounding never drifts along a
/// contour), lines along an axis as `h`/`v`. Steps within a module are short numbers, so the
/// document is smaller and quicker to write than in absolute coordinates.
fn d(outline: &Outline) -> String {
    let mut s = String::with_capacity(outline.contours.len() * 40);
    let at = |p: super::spec::Point| (to_hundredths(p.x), to_hundredths(p.y));
    let step = |from: (i64, i64), to: (i64, i64)| (to.0 - from.0, to.1 - from.1);
    for c in &outline.contours {
        let mut pen = at(c.start);
        s.push('M');
        pair(&mut s, pen);
        for seg in &c.segs {
            match *seg {
                Seg::Line(p) => {
                    let q = at(p);
                    match step(pen, q) {
                        (0, 0) => {}
                        (dx, 0) => {
                            s.push('h');
                            hundredths(&mut s, dx);
                        }
                        (0, dy) => {
                            s.push('v');
                            hundredths(&mut s, dy);
                        }
                        d => {
                            s.push('l');
                            pair(&mut s, d);
                        }
                    }
                    pen = q;
                }
                Seg::Cubic(a, b, p) => {
                    let q = at(p);
                    s.push('c');
                    for (i, point) in [at(a), at(b), q].into_iter().enumerate() {
                        let d = step(pen, point);
                        if i > 0 && d.0 >= 0 {
                            s.push(' ');
                        }
                        pair(&mut s, d);
                    }
                    pen = q;
                }
            }
        }
        s.push('Z');
    }
    s
}

/// ` name="value"` for each pair, numbers as `num` writes them.
fn attrs(out: &mut String, pairs: &[(&str, f64)]) {
    for &(name, v) in pairs {
        let _ = write!(out, " {name}=\"");
        num(out, v);
        out.push('"');
    }
}

/// `fill="…"` (and `fill-opacity`) for a colour.
fn solid(out: &mut String, attr: &str, c: &Colour) {
    let _ = write!(out, " {attr}=\"{}\"", c.hex_str());
    if c.a != 255 {
        let _ = write!(out, " {attr}-opacity=\"{:.3}\"", c.a as f64 / 255.0);
    }
}

/// Writes the gradient `id` into `defs` if `paint` is one, and the fill attributes to `out`.
fn paint_attrs(out: &mut String, defs: &mut String, id: usize, paint: &Paint, area: &PaintBox) {
    let g = match paint {
        Paint::Solid(c) => return solid(out, "fill", c),
        Paint::Gradient(g) => g,
    };
    match g.kind {
        GradientKind::Linear => {
            let (a, b) = linear_ends(g.rotation, area);
            let _ = write!(defs, "<linearGradient id=\"g{id}\" gradientUnits=\"userSpaceOnUse\"");
            attrs(defs, &[("x1", a.x), ("y1", a.y), ("x2", b.x), ("y2", b.y)]);
            defs.push('>');
        }
        GradientKind::Radial => {
            let _ = write!(defs, "<radialGradient id=\"g{id}\" gradientUnits=\"userSpaceOnUse\"");
            let (cx, cy, r) = (area.x + area.w / 2.0, area.y + area.h / 2.0, area.w.max(area.h) / 2.0);
            attrs(defs, &[("cx", cx), ("cy", cy), ("r", r)]);
            defs.push('>');
        }
    }
    for s in &g.stops {
        let _ = write!(defs, "<stop offset=\"{}\"", s.offset);
        solid(defs, "stop-color", &s.colour);
        defs.push_str("/>");
    }
    defs.push_str(if g.kind == GradientKind::Linear { "</linearGradient>" } else { "</radialGradient>" });
    let _ = write!(out, " fill=\"url(#g{id})\"");
}

/// The logo as an `<image>` with a data URL: a small PNG, JPEG, WebP or GIF file as it came
/// (it decoded, so it is that image), a small SVG as usvg writes it back, else the decoded pixels written anew as PNG at twice
/// the drawn size at most (sharp when zoomed, and no 16 MiB file inside every SVG).
fn image(out: &mut String, logo: &SceneLogo) {
    use image::ImageEncoder;
    if logo.w < 0.5 || logo.h < 0.5 {
        return;
    }
    if let Some((mime, file)) = &logo.image.original {
        return embed(out, logo, mime, file);
    }
    let (iw, ih) = (logo.image.width, logo.image.height);
    // (An SVG logo has no pixels of its own to stay within: twice the drawn size.)
    let cap = if logo.image.vector.is_some() { f64::INFINITY } else { 1.0 };
    let scale = ((2.0 * logo.w / iw as f64).min(2.0 * logo.h / ih as f64)).min(cap);
    let (w, h) = (((iw as f64 * scale).round() as u32).max(1), ((ih as f64 * scale).round() as u32).max(1));
    let Some(sized) = logo.image.resized(w, h) else { return };
    let mut png = Vec::new();
    if image::codecs::png::PngEncoder::new(&mut png).write_image(&sized, w, h, image::ExtendedColorType::Rgba8).is_err()
    {
        return;
    }
    embed(out, logo, "image/png", &png);
}

/// `<image>` of `file` (a `mime` image) as a data URL over the logo's place.
fn embed(out: &mut String, logo: &SceneLogo, mime: &str, file: &[u8]) {
    use base64::Engine;
    out.push_str("<image");
    attrs(out, &[("x", logo.x), ("y", logo.y), ("width", logo.w), ("height", logo.h)]);
    let _ = write!(out, " preserveAspectRatio=\"none\" href=\"data:{mime};base64,");
    base64::engine::general_purpose::STANDARD.encode_string(file, out);
    out.push_str("\"/>");
}

/// The whole SVG document.
pub fn write(scene: &Scene) -> String {
    let side = scene.layout.side;
    let s = side as f64;
    let mut defs = String::new();
    let mut body = String::new();
    let whole = PaintBox { x: 0.0, y: 0.0, w: s, h: s, rotation: 0.0 };
    body.push_str("<rect width=\"100%\" height=\"100%\"");
    let r = scene.round.clamp(0.0, 1.0) * s / 2.0;
    if r > 0.0 {
        body.push_str(" rx=\"");
        num(&mut body, r);
        body.push('"');
    }
    paint_attrs(&mut body, &mut defs, 0, scene.background, &whole);
    body.push_str("/>");
    let mut id = 1;
    let mut layer_paths = |body: &mut String, defs: &mut String, layers: &[super::scene::Layer]| {
        for layer in layers {
            if layer.outline.is_empty() {
                continue;
            }
            body.push_str("<path");
            paint_attrs(body, defs, id, layer.paint, &layer.area);
            id += 1;
            body.push_str(" d=\"");
            body.push_str(&d(&layer.outline));
            body.push_str("\"/>");
        }
    };
    layer_paths(&mut body, &mut defs, &scene.layers);
    if let Some(logo) = &scene.logo {
        image(&mut body, logo);
    }
    layer_paths(&mut body, &mut defs, &scene.over);
    let mut out = String::with_capacity(body.len() + defs.len() + 160);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{side}\" viewBox=\"0 0 {side} {side}\">"
    );
    if !defs.is_empty() {
        out.push_str("<defs>");
        out.push_str(&defs);
        out.push_str("</defs>");
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_have_at_most_two_decimals() {
        let cases = [
            (0.0, "0"),
            (-0.001, "0"),
            (1.5, "1.5"),
            (2.25, "2.25"),
            (10.0, "10"),
            (-3.456, "-3.46"),
            (0.05, "0.05"),
            (123.999, "124"),
        ];
        for (v, want) in cases {
            let mut s = String::new();
            super::num(&mut s, v);
            assert_eq!(s, want, "{v}");
        }
    }
}
