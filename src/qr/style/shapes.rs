//! The figures of a styled code as outlines of lines and cubic Béziers, in image pixels.
//!
//! Every figure is qr-code-styling's: a module is a square, a circle, a square with one
//! side or one or two corners rounded, picked from its four neighbours by the same rules,
//! and turned by quarter turns the same way. All outlines wind the same way, so one fill of
//! many touching figures leaves no seams; holes (the inside of a finder ring) wind the
//! other way.

use super::spec::{CentreShape, DotShape, Point, RingShape};

/// One piece of a contour, ending at its last point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    Line(Point),
    Cubic(Point, Point, Point),
}

/// A closed contour.
#[derive(Clone, Debug, PartialEq)]
pub struct Contour {
    pub start: Point,
    pub segs: Vec<Seg>,
}

impl Contour {
    /// The same contour traced the other way (a hole in a figure traced forwards).
    fn reversed(&self) -> Contour {
        let mut ends = vec![self.start];
        ends.extend(self.segs.iter().map(|s| match *s {
            Seg::Line(p) | Seg::Cubic(_, _, p) => p,
        }));
        let mut segs = Vec::with_capacity(self.segs.len());
        for (i, s) in self.segs.iter().enumerate().rev() {
            let to = ends[i];
            segs.push(match *s {
                Seg::Line(_) => Seg::Line(to),
                Seg::Cubic(c1, c2, _) => Seg::Cubic(c2, c1, to),
            });
        }
        Contour { start: *ends.last().unwrap_or(&self.start), segs }
    }
}

/// Many contours filled together (non-zero winding).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outline {
    pub contours: Vec<Contour>,
}

impl Outline {
    pub fn append(&mut self, other: Outline) {
        self.contours.extend(other.contours);
    }

    pub fn is_empty(&self) -> bool {
        self.contours.is_empty()
    }
}

/// Builds one contour in a unit square, then maps it into the image.
struct Pen {
    start: Point,
    segs: Vec<Seg>,
    at: Point,
}

impl Pen {
    fn new(x: f64, y: f64) -> Pen {
        let p = Point { x, y };
        Pen { start: p, segs: Vec::with_capacity(8), at: p }
    }

    fn line(&mut self, x: f64, y: f64) {
        self.at = Point { x, y };
        self.segs.push(Seg::Line(self.at));
    }

    /// An arc of the circle at (`cx`, `cy`) of radius `r` from the pen's angle `from` to
    /// `to` (radians, y pointing down), as cubics of at most a quarter turn each.
    fn arc(&mut self, cx: f64, cy: f64, r: f64, from: f64, to: f64) {
        let turn = to - from;
        let pieces = (turn.abs() / std::f64::consts::FRAC_PI_2 - 1e-9).ceil().max(1.0) as usize;
        let step = turn / pieces as f64;
        let k = 4.0 / 3.0 * (step / 4.0).tan();
        let mut a = from;
        for _ in 0..pieces {
            let b = a + step;
            let (sa, ca, sb, cb) = (a.sin(), a.cos(), b.sin(), b.cos());
            let c1 = Point { x: cx + r * (ca - k * sa), y: cy + r * (sa + k * ca) };
            let c2 = Point { x: cx + r * (cb + k * sb), y: cy + r * (sb - k * cb) };
            self.at = Point { x: cx + r * cb, y: cy + r * sb };
            self.segs.push(Seg::Cubic(c1, c2, self.at));
            a = b;
        }
    }

    /// The contour turned `quarters` quarter turns clockwise about the unit square's
    /// centre, scaled by `size` and moved to `at`.
    fn place(&self, at: Point, size: f64, quarters: u8) -> Contour {
        let map = |p: Point| {
            let (u, v) = match quarters % 4 {
                0 => (p.x, p.y),
                1 => (1.0 - p.y, p.x),
                2 => (1.0 - p.x, 1.0 - p.y),
                _ => (p.y, 1.0 - p.x),
            };
            Point { x: at.x + u * size, y: at.y + v * size }
        };
        Contour {
            start: map(self.start),
            segs: self
                .segs
                .iter()
                .map(|&s| match s {
                    Seg::Line(p) => Seg::Line(map(p)),
                    Seg::Cubic(a, b, c) => Seg::Cubic(map(a), map(b), map(c)),
                })
                .collect(),
        }
    }
}

use std::f64::consts::{FRAC_PI_2 as QUARTER, PI};

/// The unit square, traced down the left side first (the way every figure here goes).
fn square() -> Pen {
    let mut p = Pen::new(0.0, 0.0);
    p.line(0.0, 1.0);
    p.line(1.0, 1.0);
    p.line(1.0, 0.0);
    p
}

/// The circle inscribed in the unit square, from its top, through its left.
fn circle() -> Pen {
    let mut p = Pen::new(0.5, 0.0);
    p.arc(0.5, 0.5, 0.5, -QUARTER, -QUARTER - 2.0 * PI);
    p
}

/// Left half square, right half disc.
fn side_rounded() -> Pen {
    let mut p = Pen::new(0.0, 0.0);
    p.line(0.0, 1.0);
    p.line(0.5, 1.0);
    p.arc(0.5, 0.5, 0.5, QUARTER, -QUARTER);
    p
}

/// The top-right corner rounded with half the side.
fn corner_rounded() -> Pen {
    let mut p = Pen::new(0.0, 0.0);
    p.line(0.0, 1.0);
    p.line(1.0, 1.0);
    p.line(1.0, 0.5);
    p.arc(0.5, 0.5, 0.5, 0.0, -QUARTER);
    p
}

/// A quarter disc: the top-right corner rounded with the whole side.
fn corner_extra_rounded() -> Pen {
    let mut p = Pen::new(0.0, 0.0);
    p.line(0.0, 1.0);
    p.line(1.0, 1.0);
    p.arc(0.0, 1.0, 1.0, 0.0, -QUARTER);
    p
}

/// The bottom-left and top-right corners rounded with half the side.
fn corners_rounded() -> Pen {
    let mut p = Pen::new(0.0, 0.0);
    p.line(0.0, 0.5);
    p.arc(0.5, 0.5, 0.5, PI, QUARTER);
    p.line(1.0, 1.0);
    p.line(1.0, 0.5);
    p.arc(0.5, 0.5, 0.5, 0.0, -QUARTER);
    p
}

/// Appends the figure of one dark module at `at`, `size` px, in `shape`; `dark(dr, dc)`
/// says whether the neighbour `dr` rows and `dc` columns away is drawn dark.
/// The module figures, each traced once in the unit square.
#[derive(Clone, Copy)]
enum Figure {
    Square,
    Circle,
    SideRounded,
    CornerRounded,
    CornerExtraRounded,
    CornersRounded,
}

/// `figure`'s outline, built on first use (its arcs cost trigonometry a code's thousand
/// modules should not repeat).
fn unit(figure: Figure) -> &'static Pen {
    static FIGURES: std::sync::OnceLock<[Pen; 6]> = std::sync::OnceLock::new();
    &FIGURES.get_or_init(|| {
        [square(), circle(), side_rounded(), corner_rounded(), corner_extra_rounded(), corners_rounded()]
    })[figure as usize]
}

pub fn dot(out: &mut Outline, shape: DotShape, at: Point, size: f64, dark: impl Fn(isize, isize) -> bool) {
    let (left, right, top, bottom) = (dark(0, -1), dark(0, 1), dark(-1, 0), dark(1, 0));
    let count = left as u8 + right as u8 + top as u8 + bottom as u8;
    let (figure, quarters) = match shape {
        DotShape::Square => (Figure::Square, 0),
        DotShape::Dots => (Figure::Circle, 0),
        DotShape::Rounded | DotShape::ExtraRounded => {
            if count == 0 {
                (Figure::Circle, 0)
            } else if count > 2 || (left && right) || (top && bottom) {
                (Figure::Square, 0)
            } else if count == 2 {
                let q = if left && top {
                    1
                } else if top && right {
                    2
                } else if right && bottom {
                    3
                } else {
                    0
                };
                (if shape == DotShape::Rounded { Figure::CornerRounded } else { Figure::CornerExtraRounded }, q)
            } else {
                (
                    Figure::SideRounded,
                    if top {
                        1
                    } else if right {
                        2
                    } else if bottom {
                        3
                    } else {
                        0
                    },
                )
            }
        }
        DotShape::Classy | DotShape::ClassyRounded => {
            let corner = || if shape == DotShape::Classy { Figure::CornerRounded } else { Figure::CornerExtraRounded };
            if count == 0 {
                (Figure::CornersRounded, 1)
            } else if !left && !top {
                (corner(), 3)
            } else if !right && !bottom {
                (corner(), 1)
            } else {
                (Figure::Square, 0)
            }
        }
    };
    out.contours.push(unit(figure).place(at, size, quarters));
}

/// A rectangle `w` × `h` at `at` with corners of radius `r`, traced forwards.
fn rounded_rect(at: Point, w: f64, h: f64, r: f64) -> Contour {
    let (x, y) = (at.x, at.y);
    let mut p = Pen::new(x, y + r);
    p.line(x, y + h - r);
    p.arc(x + r, y + h - r, r, PI, QUARTER);
    p.line(x + w - r, y + h);
    p.arc(x + w - r, y + h - r, r, QUARTER, 0.0);
    p.line(x + w, y + r);
    p.arc(x + w - r, y + r, r, 0.0, -QUARTER);
    p.line(x + r, y);
    p.arc(x + r, y + r, r, -QUARTER, -PI);
    Contour { start: p.start, segs: p.segs }
}

/// A square background of `side` px with corners of radius `r` (for `background.round`).
pub fn background(side: f64, r: f64) -> Outline {
    let at = Point { x: 0.0, y: 0.0 };
    let contour = if r > 0.0 { rounded_rect(at, side, side, r) } else { square().place(at, side, 0) };
    Outline { contours: vec![contour] }
}

/// Whether cell (`r`, `c`) of a 7×7 finder belongs to its ring.
fn ring_cell(r: isize, c: isize) -> bool {
    (0..7).contains(&r) && (0..7).contains(&c) && (r == 0 || r == 6 || c == 0 || c == 6)
}

/// Appends a finder's outer ring, 7 modules of `m` px a side, at `at`.
pub fn ring(out: &mut Outline, shape: RingShape, at: Point, m: f64) {
    let inner_at = Point { x: at.x + m, y: at.y + m };
    let (outer, inner) = match shape {
        RingShape::Square => (square().place(at, 7.0 * m, 0), square().place(inner_at, 5.0 * m, 0)),
        RingShape::Dot => (circle().place(at, 7.0 * m, 0), circle().place(inner_at, 5.0 * m, 0)),
        RingShape::ExtraRounded => {
            (rounded_rect(at, 7.0 * m, 7.0 * m, 2.5 * m), rounded_rect(inner_at, 5.0 * m, 5.0 * m, 1.5 * m))
        }
        RingShape::Modules(d) => {
            for r in 0..7isize {
                for c in 0..7isize {
                    if ring_cell(r, c) {
                        let cell = Point { x: at.x + c as f64 * m, y: at.y + r as f64 * m };
                        dot(out, d, cell, m, |dr, dc| ring_cell(r + dr, c + dc));
                    }
                }
            }
            return;
        }
    };
    out.contours.push(outer);
    out.contours.push(inner.reversed());
}

/// Appends a finder's centre, 3 modules of `m` px a side, at `at`.
pub fn centre(out: &mut Outline, shape: CentreShape, at: Point, m: f64) {
    match shape {
        CentreShape::Square => out.contours.push(square().place(at, 3.0 * m, 0)),
        CentreShape::Dot => out.contours.push(circle().place(at, 3.0 * m, 0)),
        CentreShape::Modules(d) => {
            let inside = |r: isize, c: isize| (0..3).contains(&r) && (0..3).contains(&c);
            for r in 0..3isize {
                for c in 0..3isize {
                    let cell = Point { x: at.x + c as f64 * m, y: at.y + r as f64 * m };
                    dot(out, d, cell, m, |dr, dc| inside(r + dr, c + dc));
                }
            }
        }
    }
}
