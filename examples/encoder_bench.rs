//! Encoder and PNG cost, ours next to the `qrcode` and `fast_qr` crates, in one run.
//! `cargo run --release --example encoder_bench` (printed as JSON lines for bench/).

use qr_native::qr::png::PngWriter;
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};
use std::hint::black_box;
use std::time::Instant;

fn time_us(iters: u32, mut f: impl FnMut()) -> f64 {
    f();
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / iters as f64
}

fn main() {
    let url = "https://example.com/some/path?query=value&x";
    let c200: String = (0..200).map(|i| (b'a' + (i * 7 % 26) as u8) as char).collect();
    let c500: String = (0..500).map(|i| (b'A' + (i * 11 % 58) as u8) as char).collect();
    let opts = EncodeOptions { level: EcLevel::L, ..Default::default() };
    for (name, text) in [("url44", url), ("text200", c200.as_str()), ("text500", c500.as_str())] {
        let iters = 2000;
        let ours = time_us(iters, || {
            black_box(encode(&QrInput::Text(black_box(text)), &opts).unwrap());
        });
        let qrcode_crate = time_us(iters, || {
            black_box(qrcode::QrCode::with_error_correction_level(black_box(text), qrcode::EcLevel::L).unwrap());
        });
        let fast = time_us(iters, || {
            black_box(fast_qr::QRBuilder::new(black_box(text)).ecl(fast_qr::ECL::L).build().unwrap());
        });
        let m = encode(&QrInput::Text(text), &opts).unwrap();
        let render = RenderOptions { width: Some(200.0), ..Default::default() };
        let mut png_len = 0;
        let png = time_us(iters, || {
            let bytes = PngWriter::default().write(black_box(&m), &render).unwrap();
            png_len = bytes.len();
        });
        println!(
            "{{\"input\":\"{name}\",\"chars\":{},\"version\":{},\"encode_us\":{{\"qr-native\":{ours:.2},\"qrcode-crate\":{qrcode_crate:.2},\"fast_qr\":{fast:.2}}},\"png200_us\":{png:.2},\"png200_bytes\":{png_len}}}",
            text.len(),
            m.version
        );
    }
}
