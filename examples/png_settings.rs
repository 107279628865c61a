//! Size and time of the PNG for each zlib level and row filter, to choose `png.rs`'s
//! settings by measurement: `cargo run --release --no-default-features --example png_settings`.

use qr_native::qr::png::{Filter, PngWriter};
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};
use std::time::Instant;

fn main() {
    let url = "https://example.com/some/path?query=value&x";
    let c500: String = (0..500).map(|i| (b'A' + (i * 11 % 58) as u8) as char).collect();
    let filters = [("none", Filter::None), ("up", Filter::Up)];
    for (name, text) in [("url44", url), ("text500", c500.as_str())] {
        let m = encode(&QrInput::Text(text), &EncodeOptions { level: EcLevel::L, ..Default::default() }).unwrap();
        for width in [200.0, 500.0] {
            let render = RenderOptions { width: Some(width), ..Default::default() };
            for (fname, filter) in filters {
                for level in [1, 3, 6, 9, 12] {
                    let writer = PngWriter { level, filter };
                    let iters = 300;
                    let bytes = writer.write(&m, &render).unwrap();
                    let t = Instant::now();
                    for _ in 0..iters {
                        std::hint::black_box(writer.write(&m, &render).unwrap());
                    }
                    let us = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
                    println!("{name} w{width} filter={fname:<8} level={level} bytes={:>5} us={us:>8.1}", bytes.len());
                }
            }
        }
    }
}
