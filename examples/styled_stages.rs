//! Where a styled code's time goes, stage by stage: encode, layout (shapes), raster, logo,
//! compress. `cargo run --release --no-default-features --example styled_stages [logo.png]`
use qr_native::qr::style::{self, scene, CentreShape, DotShape, Layout, LogoSpec, RingShape, Style};
use qr_native::qr::{encode, render::Colour, EcLevel, EncodeOptions, QrInput};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let logo = std::env::args().nth(1).map(|p| std::fs::read(p).unwrap());
    let text = "https://example.com/products/12345?ref=qr-1";
    let mut st = Style::plain(Colour::parse("#263238").unwrap(), Colour::WHITE);
    st.dots = DotShape::Rounded;
    st.ring = RingShape::ExtraRounded;
    st.centre = CentreShape::Square;
    st.logo = logo.map(|file| LogoSpec { file, size: None, margin: 4.0, hide_dots: true, qr_code_styling: None });
    let level = if st.logo.is_some() { EcLevel::H } else { EcLevel::M };
    let mut t = [vec![], vec![], vec![], vec![], vec![]];
    let mut bytes = 0;
    for _ in 0..200 {
        let a = Instant::now();
        let m = encode(&QrInput::Text(text), &EncodeOptions { level, ..Default::default() }).unwrap();
        let b = Instant::now();
        let logo = st.logo.as_ref().map(|spec| {
            let image = style::logo::decode_cached(&spec.file).unwrap();
            let placement = style::logo::place(spec, m.version, m.level, m.size, &image).unwrap();
            scene::LogoInput { image, placement, qr_code_styling: None }
        });
        let c = Instant::now();
        let layout = Layout::new(m.size, 0, 1.0, Some(300.0), false).unwrap();
        let sc = scene::scene(&m, &st, layout, logo);
        let d = Instant::now();
        let pixmap = style::raster::paint(&sc).unwrap();
        let e = Instant::now();
        let png = style::raster::png(pixmap).unwrap();
        let f = Instant::now();
        bytes = png.len();
        for (i, (x, y)) in [(a, b), (b, c), (c, d), (d, e), (e, f)].into_iter().enumerate() {
            t[i].push((y - x).as_secs_f64() * 1e6);
        }
    }
    let names = [
        "encode",
        "logo (decode, place)",
        "layout (shapes)",
        "raster (incl. logo draw)",
        "PNG (palette, filter, deflate)",
    ];
    for (name, v) in names.iter().zip(t) {
        println!("{name:32} {:8.1} µs", median(v));
    }
    println!("PNG bytes {bytes}");
}
