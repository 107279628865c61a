//! Every renderer on any symbol and any options the binding lets through: no panic, and a
//! PNG that decodes to the side the geometry promises, with the same pixels from either
//! compressor (the row writer and libdeflate).
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::qr::png::{Deflate, PngWriter};
use qr_native::qr::render::{Colour, Geometry, RenderOptions};
use qr_native::qr::{encode, svg, text, EcLevel, EncodeOptions, QrInput};

#[derive(Arbitrary, Debug)]
struct Case {
    version: u8,
    mask: u8,
    margin: u16,
    /// Integer scales as the API takes them; fractional ones as the compat layer passes.
    scale: u16,
    fractional: bool,
    width: Option<u16>,
    exact_width: bool,
    dark: String,
    light: String,
    inverse: bool,
}

fuzz_target!(|case: Case| {
    let options = EncodeOptions { level: EcLevel::L, version: Some(case.version % 40 + 1), mask: Some(case.mask % 8) };
    let Ok(matrix) = encode(&QrInput::Text("fuzz"), &options) else { panic!("a short text always fits") };
    let scale = if case.fractional { case.scale as f64 / 97.0 } else { (case.scale % 256 + 1) as f64 };
    let render = RenderOptions {
        margin: case.margin as u32 % 257,
        scale,
        width: case.width.map(|w| (w % 8193) as f64),
        exact_width: case.exact_width,
        dark: Colour::parse(&case.dark).unwrap_or(Colour::BLACK),
        light: Colour::parse(&case.light).unwrap_or(Colour::WHITE),
    };
    // Images past 2048 px are correct but slow to fuzz; the limit itself is still crossed.
    let modules = (matrix.size + 2 * render.margin as usize) as f64;
    let big = render.width.map_or(modules * scale, |w| w.max(modules * scale)) > 2048.0;
    match Geometry::new(matrix.size, &render) {
        Ok(geometry) if !big => {
            let pixels = |deflate| {
                let png = PngWriter { deflate, ..Default::default() }.write(&matrix, &render).expect("renders");
                let decoder = png::Decoder::new(std::io::Cursor::new(png));
                let mut reader = decoder.read_info().expect("our PNG decodes");
                let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
                let info = reader.next_frame(&mut pixels).expect("one frame");
                assert_eq!((info.width as usize, info.height as usize), (geometry.side, geometry.side));
                pixels
            };
            assert!(pixels(Deflate::Rows) == pixels(Deflate::Level(1)), "the two compressors' pixels differ");
        }
        Ok(_) => {}
        Err(_) => assert!(PngWriter::default().write(&matrix, &render).is_err()),
    }
    if !big {
        let svg = svg::write(&matrix, render.margin, render.width, &render.dark, &render.light);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n") || svg.ends_with("</svg>"));
    }
    let utf8 = text::utf8(&matrix, render.margin.min(16), &render.dark, &render.light);
    assert!(!utf8.is_empty());
    assert!(!text::terminal(&matrix).is_empty());
    assert!(!text::terminal_small(&matrix, case.inverse).is_empty());
});
