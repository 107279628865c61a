//! The styled renderer's tests: shapes, scenes, logos and the encoders, each stage on its own.

use super::scene::scene;
use super::shapes::{Outline, Seg};
use super::*;
use crate::error::ErrorKind;
use crate::qr::render::Colour;
use crate::qr::{encode, EncodeOptions, QrInput};

fn matrix(text: &str) -> QrMatrix {
    encode(&QrInput::Text(text), &EncodeOptions::default()).unwrap()
}

fn red() -> Colour {
    Colour::parse("#c00").unwrap()
}

/// Twice the signed area of a contour's polygon of end points (y down: negative is the
/// way every figure here is traced).
fn area(c: &shapes::Contour) -> f64 {
    let mut pts = vec![c.start];
    pts.extend(c.segs.iter().map(|s| match *s {
        Seg::Line(p) | Seg::Cubic(_, _, p) => p,
    }));
    let mut a = 0.0;
    for i in 0..pts.len() {
        let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
        a += p.x * q.y - q.x * p.y;
    }
    a
}

#[test]
fn every_module_figure_winds_the_same_way() {
    for shape in DotShape::NAMES.iter().map(|n| DotShape::parse(n).unwrap()) {
        // All 16 neighbour sets.
        for bits in 0..16u8 {
            let mut out = Outline::default();
            shapes::dot(&mut out, shape, Point { x: 10.0, y: 20.0 }, 8.0, |dr, dc| match (dr, dc) {
                (0, -1) => bits & 1 != 0,
                (0, 1) => bits & 2 != 0,
                (-1, 0) => bits & 4 != 0,
                _ => bits & 8 != 0,
            });
            assert_eq!(out.contours.len(), 1);
            let a = area(&out.contours[0]);
            assert!(a < 0.0, "{shape:?} with neighbours {bits:04b}: area {a}");
        }
    }
}

#[test]
fn a_ring_hole_winds_against_its_outside() {
    for shape in [RingShape::Square, RingShape::Dot, RingShape::ExtraRounded] {
        let mut out = Outline::default();
        shapes::ring(&mut out, shape, Point { x: 0.0, y: 0.0 }, 10.0);
        assert_eq!(out.contours.len(), 2);
        assert!(area(&out.contours[0]) < 0.0 && area(&out.contours[1]) > 0.0, "{shape:?}");
    }
}

#[test]
fn rounded_uses_qr_code_styling_rules() {
    // One neighbour to the left: a half disc facing right, so no point lies right of the
    // centre at the top-right corner.
    let mut out = Outline::default();
    shapes::dot(&mut out, DotShape::Rounded, Point { x: 0.0, y: 0.0 }, 1.0, |dr, dc| (dr, dc) == (0, -1));
    let ends: Vec<_> = out.contours[0]
        .segs
        .iter()
        .map(|s| match *s {
            Seg::Line(p) | Seg::Cubic(_, _, p) => p,
        })
        .collect();
    assert!(
        ends.iter().any(|p| (p.x - 1.0).abs() < 1e-9 && (p.y - 0.5).abs() < 1e-9),
        "reaches the right edge's middle"
    );
    assert!(!ends.iter().any(|p| (p.x - 1.0).abs() < 1e-9 && p.y.abs() < 1e-9), "top-right corner is rounded away");
}

#[test]
fn plain_style_png_has_two_colours() {
    let m = matrix("hello");
    let layout = Layout::new(m.size, 4, 4.0, None, false).unwrap();
    let png = draw(&m, &Style::plain(Colour::BLACK, Colour::WHITE), layout, ImageFormat::Png, 90).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    assert_eq!(info.bit_depth, png::BitDepth::One);
    assert_eq!(info.width, ((m.size + 8) * 4) as u32);
}

#[test]
fn every_format_writes_its_signature() {
    let m = matrix("https://example.com");
    let mut style = Style::plain(red(), Colour::WHITE);
    style.dots = DotShape::Rounded;
    style.ring = RingShape::ExtraRounded;
    style.centre = CentreShape::Dot;
    style.dots_paint = Paint::Gradient(
        Gradient::new(
            GradientKind::Linear,
            0.7,
            vec![Stop { offset: 0.0, colour: red() }, Stop { offset: 1.0, colour: Colour::BLACK }],
        )
        .unwrap(),
    );
    let layout = Layout::new(m.size, 2, 6.0, None, false).unwrap();
    let png = draw(&m, &style, layout, ImageFormat::Png, 90).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let jpeg = draw(&m, &style, layout, ImageFormat::Jpeg, 90).unwrap();
    assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
    let webp = draw(&m, &style, layout, ImageFormat::Webp, 90).unwrap();
    assert_eq!(&webp[8..12], b"WEBP");
    let svg = String::from_utf8(draw(&m, &style, layout, ImageFormat::Svg, 90).unwrap()).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<linearGradient") && svg.trim_end().ends_with("</svg>"));
}

#[test]
fn gradients_check_their_stops() {
    let stop = |offset| Stop { offset, colour: red() };
    assert!(Gradient::new(GradientKind::Linear, 0.0, vec![stop(0.0)]).is_err());
    assert!(Gradient::new(GradientKind::Linear, 0.0, vec![stop(0.0); 17]).is_err());
    assert!(Gradient::new(GradientKind::Linear, 0.0, vec![stop(0.5), stop(0.2)]).is_err());
    assert!(Gradient::new(GradientKind::Linear, 0.0, vec![stop(0.0), stop(f32::NAN)]).is_err());
    assert!(Gradient::new(GradientKind::Linear, f64::INFINITY, vec![stop(0.0), stop(1.0)]).is_err());
    assert!(Gradient::new(GradientKind::Radial, 0.0, vec![stop(0.0), stop(1.0)]).is_ok());
}

#[test]
fn linear_ends_follow_the_rotation() {
    let area = PaintBox { x: 0.0, y: 0.0, w: 100.0, h: 100.0, rotation: 0.0 };
    let (a, b) = linear_ends(0.0, &area);
    assert_eq!((a.x, a.y, b.x, b.y), (0.0, 50.0, 100.0, 50.0));
    let (a, b) = linear_ends(std::f64::consts::FRAC_PI_2, &area);
    assert!((a.y - 0.0).abs() < 1e-9 && (b.y - 100.0).abs() < 1e-9 && (a.x - 50.0).abs() < 1e-6);
}

#[test]
fn a_dots_centre_is_refused_and_others_are_not() {
    let mut style = Style::plain(Colour::BLACK, Colour::WHITE);
    style.centre = CentreShape::Modules(DotShape::Dots);
    let err = style.check_readable().unwrap_err();
    assert_eq!(err.kind, ErrorKind::StyleUnreadable);
    assert!(err.message.contains("'dot'"));
    style.centre = CentreShape::Dot;
    assert!(style.check_readable().is_ok());
    style.ring = RingShape::Dot;
    assert!(style.check_readable().is_ok());
    style.centre = CentreShape::Square;
    assert_eq!(style.check_readable().unwrap_err().kind, ErrorKind::StyleUnreadable);
    style.centre = CentreShape::Modules(DotShape::Rounded);
    assert!(style.check_readable().is_ok());
}

#[test]
fn circle_layout_shrinks_the_symbol_into_the_disc() {
    let square = Layout::new(25, 4, 10.0, None, false).unwrap();
    let circle = Layout::new(25, 4, 10.0, None, true).unwrap();
    assert_eq!(square.side, circle.side);
    assert!((circle.module * 25.0 * std::f64::consts::SQRT_2 - 250.0).abs() < 1e-9);
    let m = matrix("circle");
    let mut style = Style::plain(Colour::BLACK, Colour::WHITE);
    style.circle = true;
    let flat = Style::plain(Colour::BLACK, Colour::WHITE);
    let plain = scene(&m, &flat, Layout::new(m.size, 4, 10.0, None, true).unwrap(), None);
    let disc = scene(&m, &style, Layout::new(m.size, 4, 10.0, None, true).unwrap(), None);
    let (a, b) = (disc.layers[0].outline.contours.len(), plain.layers[0].outline.contours.len());
    assert!(a > b + 20, "{a} figures with the disc, {b} without");
}

#[test]
fn a_side_over_the_limit_is_refused() {
    assert!(Layout::new(177, 4, 256.0, None, false).is_err());
}
