//! The styled renderer on any style, layout and logo file the binding lets through: no panic;
//! a PNG that decodes to the promised side, JPEG and WebP that start as they must, an SVG
//! that ends; the logo either placed within the budget or refused.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::qr::render::Colour;
use qr_native::qr::style::{
    self, CentreShape, DotShape, Gradient, GradientKind, ImageFormat, Layout, LogoSpec, Paint, RingShape, Stop, Style,
};
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};

#[derive(Arbitrary, Debug)]
struct Case {
    version: u8,
    level: u8,
    dots: u8,
    ring: u8,
    centre: u8,
    gradient: Option<(bool, f32, Vec<(f32, u32)>)>,
    ring_paint: Option<u32>,
    round: f32,
    circle: bool,
    margin: u8,
    width: u16,
    format: u8,
    quality: u8,
    logo: Option<(Vec<u8>, Option<f32>, u8, bool)>,
    /// qr-code-styling's layout and logo rule (the drop-in's), with `roundSize`.
    qr_code_styling: Option<bool>,
}

fn colour(v: u32) -> Colour {
    let hex = format!("#{v:08x}");
    Colour::parse(&hex).unwrap_or(Colour::BLACK)
}

fuzz_target!(|case: Case| {
    let level = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H][case.level as usize % 4];
    let options = EncodeOptions { level, version: Some(case.version % 12 + 1), mask: None };
    let Ok(matrix) = encode(&QrInput::Text("fuzz"), &options) else { panic!("a short text always fits") };
    let mut s = Style::plain(Colour::BLACK, Colour::WHITE);
    s.dots = DotShape::parse(DotShape::NAMES[case.dots as usize % 6]).unwrap();
    s.ring = RingShape::parse(RingShape::NAMES[case.ring as usize % 7]).unwrap();
    s.centre = CentreShape::parse(CentreShape::NAMES[case.centre as usize % 7]).unwrap();
    if let Some((radial, rotation, stops)) = case.gradient {
        let kind = if radial { GradientKind::Radial } else { GradientKind::Linear };
        let stops = stops.into_iter().take(20).map(|(offset, c)| Stop { offset, colour: colour(c) }).collect();
        // Whatever `Gradient::new` accepts must draw; what it refuses, the binding refuses.
        if let Ok(g) = Gradient::new(kind, rotation as f64, stops) {
            s.dots_paint = Paint::Gradient(g);
        }
    }
    s.ring_paint = case.ring_paint.map(|c| Paint::Solid(colour(c)));
    s.round = if case.round.is_finite() { (case.round as f64).clamp(0.0, 1.0) } else { 0.0 };
    s.circle = case.circle;
    s.logo = case.logo.map(|(file, size, margin, hide_dots)| LogoSpec {
        file,
        size: size.filter(|v| v.is_finite() && *v > 0.0 && *v <= 0.5).map(|v| v as f64),
        margin: margin as f64,
        hide_dots,
        qr_code_styling: case.qr_code_styling.map(|round| (size.map_or(0.4, |v| v as f64), round)),
    });
    let width = (case.width % 600) as f64;
    let layout = match case.qr_code_styling {
        Some(round) => Layout::qr_code_styling(matrix.size, width, case.margin as f64, s.circle, round),
        None => Layout::new(matrix.size, case.margin as u32 % 9, 2.0, Some(width), s.circle),
    };
    let Ok(layout) = layout else { return };
    let format = [ImageFormat::Png, ImageFormat::Svg, ImageFormat::Jpeg, ImageFormat::Webp][case.format as usize % 4];
    match style::draw(&matrix, &s, layout, format, case.quality % 100 + 1) {
        Ok(out) => match format {
            ImageFormat::Png => {
                let reader = png::Decoder::new(std::io::Cursor::new(out)).read_info().expect("our PNG decodes");
                assert_eq!(reader.info().width, layout.side);
            }
            ImageFormat::Svg => assert!(out.starts_with(b"<svg") && out.ends_with(b"</svg>\n")),
            ImageFormat::Jpeg => assert!(out.starts_with(&[0xFF, 0xD8, 0xFF])),
            ImageFormat::Webp => assert_eq!(&out[8..12], b"WEBP"),
        },
        // Only a logo can be refused at this point: unreadable, too many pixels, too large.
        Err(e) => assert!(s.logo.is_some(), "refused without a logo: {e}"),
    }
});
