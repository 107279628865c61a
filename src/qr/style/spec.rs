//! What a styled code is drawn with, checked: shapes, paints, the layout. No drawing here.

use crate::error::{Error, ErrorKind, Result};
use crate::qr::render::{Colour, MAX_SIDE};

/// A point in image pixels (y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// The shape of each dark module outside the finder patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotShape {
    Square,
    Dots,
    Rounded,
    ExtraRounded,
    Classy,
    ClassyRounded,
}

impl DotShape {
    pub const NAMES: [&'static str; 6] = ["square", "dots", "rounded", "extra-rounded", "classy", "classy-rounded"];

    pub fn parse(name: &str) -> Option<DotShape> {
        Some(match name {
            "square" => DotShape::Square,
            "dots" => DotShape::Dots,
            "rounded" => DotShape::Rounded,
            "extra-rounded" => DotShape::ExtraRounded,
            "classy" => DotShape::Classy,
            "classy-rounded" => DotShape::ClassyRounded,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The outer 7×7 ring of a finder pattern: one figure, or its 24 modules in a dot shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingShape {
    Square,
    Dot,
    ExtraRounded,
    Modules(DotShape),
}

impl RingShape {
    pub const NAMES: [&'static str; 7] =
        ["square", "dot", "extra-rounded", "dots", "rounded", "classy", "classy-rounded"];

    pub fn parse(name: &str) -> Option<RingShape> {
        Some(match name {
            "square" => RingShape::Square,
            "dot" => RingShape::Dot,
            "extra-rounded" => RingShape::ExtraRounded,
            other => RingShape::Modules(DotShape::parse(other)?),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            RingShape::Square => "square",
            RingShape::Dot => "dot",
            RingShape::ExtraRounded => "extra-rounded",
            RingShape::Modules(d) => d.name(),
        }
    }
}

/// The 3×3 centre of a finder pattern: one figure, or its 9 modules in a dot shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CentreShape {
    Square,
    Dot,
    Modules(DotShape),
}

impl CentreShape {
    pub const NAMES: [&'static str; 7] =
        ["square", "dot", "dots", "rounded", "extra-rounded", "classy", "classy-rounded"];

    pub fn parse(name: &str) -> Option<CentreShape> {
        Some(match name {
            "square" => CentreShape::Square,
            "dot" => CentreShape::Dot,
            other => CentreShape::Modules(DotShape::parse(other)?),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            CentreShape::Square => "square",
            CentreShape::Dot => "dot",
            CentreShape::Modules(d) => d.name(),
        }
    }
}

/// Most colour stops one gradient takes.
pub const MAX_STOPS: usize = 16;

/// One colour stop: `offset` in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    pub offset: f32,
    pub colour: Colour,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GradientKind {
    Linear,
    Radial,
}

/// A gradient as qr-code-styling describes one: linear at `rotation` radians, or radial
/// from the centre of the box it paints.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient {
    pub kind: GradientKind,
    pub rotation: f64,
    pub stops: Vec<Stop>,
}

impl Gradient {
    /// Checks what the parser cannot: 2..=16 stops, finite offsets in 0..=1, ascending.
    pub fn new(kind: GradientKind, rotation: f64, stops: Vec<Stop>) -> Result<Gradient> {
        if !(2..=MAX_STOPS).contains(&stops.len()) {
            return Err(Error::out_of_range(format!(
                "a gradient takes 2 to {MAX_STOPS} colorStops. Received {}",
                stops.len()
            )));
        }
        if !rotation.is_finite() {
            return Err(Error::out_of_range(format!(
                "a gradient's rotation must be a finite number. Received {rotation}"
            )));
        }
        let mut last = 0.0f32;
        for (i, s) in stops.iter().enumerate() {
            if !(s.offset.is_finite() && (0.0..=1.0).contains(&s.offset) && s.offset >= last) {
                return Err(Error::out_of_range(format!(
                    "colorStops[{i}].offset must be a number from 0 to 1, not below the offset before it. Received {}",
                    s.offset
                )));
            }
            last = s.offset;
        }
        Ok(Gradient { kind, rotation, stops })
    }
}

/// A colour or a gradient.
#[derive(Clone, Debug, PartialEq)]
pub enum Paint {
    Solid(Colour),
    Gradient(Gradient),
}

/// A logo as the caller gives it: the file (decoded on the worker), its size as a share of
/// the symbol's side (`None`: the largest that fits, at most 0.3), a clear margin in px, and
/// whether the modules under it are left out.
#[derive(Clone, Debug, PartialEq)]
pub struct LogoSpec {
    pub file: Vec<u8>,
    pub size: Option<f64>,
    pub margin: f64,
    pub hide_dots: bool,
    /// `Some((imageSize, roundSize))`: sized by qr-code-styling's own rule instead of the
    /// budget (its drop-in draws what it draws, readable or not).
    pub qr_code_styling: Option<(f64, bool)>,
}

/// Everything a styled code is drawn with.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub dots: DotShape,
    pub dots_paint: Paint,
    pub ring: RingShape,
    /// `None`: the ring is painted as the dots are.
    pub ring_paint: Option<Paint>,
    pub centre: CentreShape,
    /// `None`: the centre is painted as the ring is.
    pub centre_paint: Option<Paint>,
    pub background: Paint,
    /// Background corner radius as a share of half the side, 0..=1.
    pub round: f64,
    /// The symbol inside a disc, as qr-code-styling draws `shape: 'circle'`.
    pub circle: bool,
    pub logo: Option<LogoSpec>,
}

impl Style {
    /// The style of a plain code in `dark` on `light`.
    pub fn plain(dark: Colour, light: Colour) -> Style {
        Style {
            dots: DotShape::Square,
            dots_paint: Paint::Solid(dark),
            ring: RingShape::Square,
            ring_paint: None,
            centre: CentreShape::Square,
            centre_paint: None,
            background: Paint::Solid(light),
            round: 0.0,
            circle: false,
            logo: None,
        }
    }

    /// Refuses the finder combinations that zxing-cpp was measured not to read
    /// (`__test__/styled-matrix.spec.js`; docs/styles.md, "Combinations refused"): a centre
    /// of nine separate dots, and a round ring around a centre with square corners (along
    /// the diagonal its runs are far from 1:1:3:1:1), and a ring of dots among dots.
    pub fn check_readable(&self) -> Result<()> {
        let refuse = |why: &str, instead: &str| {
            Err(Error::new(
                ErrorKind::StyleUnreadable,
                format!(
                    "The style dots '{}', cornersSquare '{}', cornersDot '{}' makes codes that decoders do not read ({why}): \
                     use {instead} instead",
                    self.dots.name(),
                    self.ring.name(),
                    self.centre.name()
                ),
            ))
        };
        match (self.dots, self.ring, self.centre) {
            (_, _, CentreShape::Modules(DotShape::Dots)) => {
                refuse("zxing-cpp misses almost every code whose finder centres are nine dots", "cornersDot 'dot'")
            }
            (
                _,
                RingShape::Dot,
                CentreShape::Square
                | CentreShape::Modules(DotShape::Square | DotShape::Classy | DotShape::ClassyRounded),
            ) => refuse("zxing-cpp misses a round ring around a centre with square corners", "cornersDot 'dot'"),
            (DotShape::Dots, RingShape::Modules(DotShape::Dots), _) => {
                refuse("zxing-cpp misses a ring of dots among dots in some codes", "cornersSquare 'rounded'")
            }
            _ => Ok(()),
        }
    }
}

/// Where the symbol sits in the image: `side` px square, module `count` modules of
/// `module` px from `origin` px on both axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub side: u32,
    pub origin: f64,
    pub module: f64,
    pub count: usize,
    /// With `shape: 'circle'`: modules of room added on each side of the symbol, and the
    /// disc's centre and radius, in those modules.
    pub disc: (isize, f64),
    /// The disc borrows module (column, row) for position (row, column), as qr-code-styling
    /// 1.9 does; the native layout borrows (row, column).
    pub disc_transposed: bool,
}

/// Room around the symbol for the circle's borrowed modules, and the disc's centre.
fn disc(count: usize, inner_modules: f64, round: impl Fn(f64) -> f64) -> (isize, f64) {
    let extra = round((inner_modules - count as f64) / 2.0) as isize;
    let total = count as isize + 2 * extra;
    (extra, round(total as f64 / 2.0))
}

impl Layout {
    /// The layout of plain codes (`render::Geometry`): `margin` modules of quiet zone,
    /// `scale` px a module, or `width` px in all when it leaves a pixel a module. With
    /// `circle`, the symbol shrinks to fit the disc, as qr-code-styling shrinks it.
    pub fn new(count: usize, margin: u32, scale: f64, width: Option<f64>, circle: bool) -> Result<Layout> {
        let modules = (count + 2 * margin as usize) as f64;
        let width = width.filter(|&w| w >= 21.0 && w >= modules);
        let scale = width.map_or(scale, |w| w / modules);
        let side = width.unwrap_or((modules * scale).floor());
        if !(side >= 1.0 && side <= MAX_SIDE as f64) {
            return Err(Error::out_of_range(format!(
                "the image would be {side} px wide ({modules} modules with margin × scale {scale}); \
                 the limit is {MAX_SIDE} px: lower scale, margin or width"
            )));
        }
        let margin_px = margin as f64 * scale;
        let inner = side - 2.0 * margin_px;
        let module = if circle { inner / std::f64::consts::SQRT_2 / count as f64 } else { scale };
        let origin = (side - module * count as f64) / 2.0;
        let disc = disc(count, inner / module, f64::floor);
        Ok(Layout { side: side as u32, origin, module, count, disc, disc_transposed: false })
    }

    /// qr-code-styling's layout: a `side` px image, `margin` px of it left clear, modules of
    /// `(side − 2 margin) / count` px (÷ √2 in a circle), floored to whole pixels with
    /// `round` as its `dotsOptions.roundSize` does, and the symbol centred.
    pub fn qr_code_styling(count: usize, side: f64, margin: f64, circle: bool, round: bool) -> Result<Layout> {
        if !(side >= count as f64 && side <= MAX_SIDE as f64) {
            return Err(Error::range("width", format_args!(">= {count} (the code's modules) and <= {MAX_SIDE}"), side));
        }
        let r = |v: f64| if round { v.floor() } else { v };
        let min_size = side - 2.0 * margin.clamp(0.0, side);
        let real = if circle { min_size / std::f64::consts::SQRT_2 } else { min_size };
        let module = r(real / count as f64);
        if module.is_nan() || module <= 0.0 {
            return Err(Error::out_of_range(format!(
                "The value of \"margin\" is out of range: it leaves no pixel for a module of the {count}. Received {margin}"
            )));
        }
        let origin = r((side - count as f64 * module) / 2.0);
        Ok(Layout {
            side: side as u32,
            origin,
            module,
            count,
            disc: disc(count, min_size / module, r),
            disc_transposed: true,
        })
    }

    pub fn at(&self, row: usize, col: usize) -> Point {
        Point { x: self.origin + col as f64 * self.module, y: self.origin + row as f64 * self.module }
    }
}

/// A box a paint is laid out in (gradients span it) and the extra rotation of its gradient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaintBox {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub rotation: f64,
}

/// The ends of a linear gradient over `area`, as qr-code-styling computes them: through the
/// box's centre at `rotation` (plus the box's own), reaching the box's edges.
pub fn linear_ends(rotation: f64, area: &PaintBox) -> (Point, Point) {
    use std::f64::consts::PI;
    let rot = (rotation + area.rotation) % (2.0 * PI);
    let positive = (rot + 2.0 * PI) % (2.0 * PI);
    let (cx, cy) = (area.x + area.w / 2.0, area.y + area.h / 2.0);
    let (hw, hh) = (area.w / 2.0, area.h / 2.0);
    let (mut x0, mut y0, mut x1, mut y1) = (cx, cy, cx, cy);
    if positive <= 0.25 * PI || positive > 1.75 * PI {
        x0 -= hw;
        y0 -= hh * rot.tan();
        x1 += hw;
        y1 += hh * rot.tan();
    } else if positive <= 0.75 * PI {
        y0 -= hh;
        x0 -= hw / rot.tan();
        y1 += hh;
        x1 += hw / rot.tan();
    } else if positive <= 1.25 * PI {
        x0 += hw;
        y0 += hh * rot.tan();
        x1 -= hw;
        y1 -= hh * rot.tan();
    } else {
        y0 += hh;
        x0 += hw / rot.tan();
        y1 -= hh;
        x1 -= hw / rot.tan();
    }
    (Point { x: x0, y: y0 }, Point { x: x1, y: y1 })
}
