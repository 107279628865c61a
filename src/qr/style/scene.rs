//! A styled code laid out: which figures go where, in which paint, in drawing order.

use super::logo::{LogoImage, Placement};
use super::shapes::{self, Outline};
use super::spec::{DotShape, Layout, Paint, PaintBox, Point, Style};
use crate::qr::{ec_budget, QrMatrix};

/// One filled outline: what both writers draw, in order.
pub struct Layer<'a> {
    pub outline: Outline,
    pub paint: &'a Paint,
    pub area: PaintBox,
}

/// A logo where it is drawn, in image pixels (its aspect kept).
pub struct SceneLogo {
    pub image: std::sync::Arc<LogoImage>,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The whole picture: background, layers, the logo, then the layers drawn over the logo
/// (the function modules under its box, light ones in the background's paint).
pub struct Scene<'a> {
    pub layout: Layout,
    pub background: &'a Paint,
    pub round: f64,
    pub layers: Vec<Layer<'a>>,
    pub logo: Option<SceneLogo>,
    pub over: Vec<Layer<'a>>,
}

/// A logo to lay out: its pixels and the box the budget allowed.
pub struct LogoInput {
    pub image: std::sync::Arc<LogoImage>,
    pub placement: Placement,
    /// qr-code-styling's rule: the image at this rect (x, y, w, h px), every module under the
    /// box hidden, function modules too, and none drawn again over the logo.
    pub qr_code_styling: Option<[f64; 4]>,
}

/// Top-left module of each finder pattern and the rotation qr-code-styling gives its paint.
fn finders(count: usize) -> [(usize, usize, f64); 3] {
    use std::f64::consts::FRAC_PI_2;
    [(0, 0, 0.0), (0, count - 7, FRAC_PI_2), (count - 7, 0, -FRAC_PI_2)]
}

/// Whether (`row`, `col`) lies in a finder pattern's 7×7 (its ring or its centre).
fn in_finder(count: usize, row: usize, col: usize) -> bool {
    let near = |v: usize| v < 7;
    let far = |v: usize| v + 7 >= count;
    (near(row) && near(col)) || (near(row) && far(col)) || (far(row) && near(col))
}

/// Lays out `matrix` in `style` at `layout`.
pub fn scene<'a>(matrix: &QrMatrix, style: &'a Style, layout: Layout, logo: Option<LogoInput>) -> Scene<'a> {
    let n = matrix.size;
    let m = layout.module;
    let whole = PaintBox { x: 0.0, y: 0.0, w: layout.side as f64, h: layout.side as f64, rotation: 0.0 };
    let cover = logo.as_ref().map(|l| l.placement);
    let hide_dots = style.logo.as_ref().is_some_and(|l| l.hide_dots);
    let keep_functions = logo.as_ref().is_some_and(|l| l.qr_code_styling.is_none());
    // Modules under the logo's box that are not drawn: data and error correction only
    // (qr-code-styling's rule hides the function modules too).
    let hidden = |r: usize, c: usize| {
        hide_dots
            && cover.is_some_and(|p| p.covers(r, c))
            && !(keep_functions && ec_budget::is_function(matrix.version, r, c))
    };
    let mut dots = Outline::default();
    let dark = |r: isize, c: isize| {
        r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n && {
            let (r, c) = (r as usize, c as usize);
            !in_finder(n, r, c) && !hidden(r, c) && matrix.is_dark(r, c)
        }
    };
    for r in 0..n {
        for c in 0..n {
            if in_finder(n, r, c) || hidden(r, c) || !matrix.is_dark(r, c) {
                continue;
            }
            let (ri, ci) = (r as isize, c as isize);
            shapes::dot(&mut dots, style.dots, layout.at(r, c), m, |dr, dc| dark(ri + dr, ci + dc));
        }
    }
    if style.circle {
        circle_dots(&mut dots, matrix, style.dots, &layout);
    }
    let mut layers = vec![];
    let mut ring_layers = vec![];
    let mut centre_layers = vec![];
    for (row, col, rotation) in finders(n) {
        let at = layout.at(row, col);
        let ring_box = PaintBox { x: at.x, y: at.y, w: 7.0 * m, h: 7.0 * m, rotation };
        let centre_at = Point { x: at.x + 2.0 * m, y: at.y + 2.0 * m };
        let centre_box = PaintBox { x: centre_at.x, y: centre_at.y, w: 3.0 * m, h: 3.0 * m, rotation };
        let mut ring = Outline::default();
        shapes::ring(&mut ring, style.ring, at, m);
        let mut centre = Outline::default();
        shapes::centre(&mut centre, style.centre, centre_at, m);
        // Unpainted parts go with what would paint them in qr-code-styling: the centre with
        // the ring, the ring with the dots.
        match (&style.ring_paint, &style.centre_paint) {
            (None, None) => {
                dots.append(ring);
                dots.append(centre);
            }
            (None, Some(p)) => {
                dots.append(ring);
                centre_layers.push(Layer { outline: centre, paint: p, area: centre_box });
            }
            (Some(p), None) => {
                ring.append(centre);
                ring_layers.push(Layer { outline: ring, paint: p, area: ring_box });
            }
            (Some(rp), Some(cp)) => {
                ring_layers.push(Layer { outline: ring, paint: rp, area: ring_box });
                centre_layers.push(Layer { outline: centre, paint: cp, area: centre_box });
            }
        }
    }
    layers.push(Layer { outline: dots, paint: &style.dots_paint, area: whole });
    layers.extend(ring_layers);
    layers.extend(centre_layers);
    let mut over = vec![];
    let scene_logo = logo.map(|l| {
        let p = l.placement;
        if let Some([x, y, w, h]) = l.qr_code_styling {
            return SceneLogo { image: l.image, x, y, w: w.max(0.0), h: h.max(0.0) };
        }
        // Function modules under the box (never finders: the budget keeps the box off them)
        // are drawn again over the logo, so timing and alignment patterns stay whole.
        let under = |r: usize, c: usize| p.covers(r, c) && ec_budget::is_function(matrix.version, r, c);
        let mut light = Outline::default();
        let mut dark_cells = Outline::default();
        let kept_dark = |r: isize, c: isize| {
            r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n && {
                let (r, c) = (r as usize, c as usize);
                under(r, c) && matrix.is_dark(r, c)
            }
        };
        for r in 0..n {
            for c in 0..n {
                if !under(r, c) {
                    continue;
                }
                if matrix.is_dark(r, c) {
                    let (ri, ci) = (r as isize, c as isize);
                    shapes::dot(&mut dark_cells, style.dots, layout.at(r, c), m, |dr, dc| kept_dark(ri + dr, ci + dc));
                } else {
                    shapes::dot(&mut light, DotShape::Square, layout.at(r, c), m, |_, _| false);
                }
            }
        }
        over.push(Layer { outline: light, paint: &style.background, area: whole });
        over.push(Layer { outline: dark_cells, paint: &style.dots_paint, area: whole });
        // The logo inside the box, `margin` px in from each side.
        let margin = style.logo.as_ref().map_or(0.0, |l| l.margin);
        let (bx, by) = (layout.origin + p.x0 * m, layout.origin + p.y0 * m);
        let (bw, bh) = ((p.x1 - p.x0) * m, (p.y1 - p.y0) * m);
        SceneLogo {
            image: l.image,
            x: bx + margin,
            y: by + margin,
            w: (bw - 2.0 * margin).max(0.0),
            h: (bh - 2.0 * margin).max(0.0),
        }
    });
    Scene { layout, background: &style.background, round: style.round, layers, logo: scene_logo, over }
}

/// `shape: 'circle'`: the disc around the symbol filled with modules borrowed from the
/// symbol itself, one module of light space left around the symbol, as qr-code-styling
/// fills it.
fn circle_dots(out: &mut Outline, matrix: &QrMatrix, shape: DotShape, layout: &Layout) {
    let n = matrix.size as isize;
    // Modules of room between the symbol and the disc's edge, on each side.
    let (extra, centre) = layout.disc;
    if extra <= 0 {
        return;
    }
    let total = n + 2 * extra;
    let filled = |i: isize, j: isize| -> bool {
        if i < 0 || j < 0 || i >= total || j >= total {
            return false;
        }
        // The symbol and a one-module band around it stay as they are.
        if i >= extra - 1 && i <= total - extra && j >= extra - 1 && j <= total - extra {
            return false;
        }
        let (di, dj) = (i as f64 - centre, j as f64 - centre);
        if (di * di + dj * dj).sqrt() > centre {
            return false;
        }
        // Borrow a module of the symbol: shift each coordinate back into it.
        let fold = |v: isize| {
            if v - 2 * extra < 0 {
                v
            } else if v >= n {
                v - 2 * extra
            } else {
                v - extra
            }
        };
        let (r, c) = if layout.disc_transposed { (fold(j), fold(i)) } else { (fold(i), fold(j)) };
        r >= 0 && c >= 0 && r < n && c < n && matrix.is_dark(r as usize, c as usize)
    };
    let start = layout.origin - extra as f64 * layout.module;
    for i in 0..total {
        for j in 0..total {
            if !filled(i, j) {
                continue;
            }
            let at = Point { x: start + j as f64 * layout.module, y: start + i as f64 * layout.module };
            shapes::dot(out, shape, at, layout.module, |dr, dc| filled(i + dr, j + dc));
        }
    }
}
