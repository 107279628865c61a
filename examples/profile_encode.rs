//! A fixed workload for `valgrind --tool=callgrind` (instruction counts are repeatable on a
//! noisy machine): `cargo build --release --no-default-features --example profile_encode`,
//! then `valgrind --tool=callgrind target/release/examples/profile_encode [png LEVEL]`
//! (LEVEL: a libdeflate level, or `rows` for the row writer, or `auto` for what ships).

use qr_native::qr::png::{Deflate, PngWriter};
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let png_level: Option<Deflate> = (args.get(1).map(String::as_str) == Some("png")).then(|| match args[2].as_str() {
        "rows" => Deflate::Rows,
        "auto" => Deflate::Auto,
        level => Deflate::Level(level.parse().unwrap_or(9)),
    });
    let opts = EncodeOptions { level: EcLevel::L, ..Default::default() };
    let render = RenderOptions { width: Some(200.0), ..Default::default() };
    let m = encode(&QrInput::Text("https://example.com/some/path?query=value&x"), &opts).unwrap();
    for _ in 0..200 {
        match png_level {
            Some(deflate) => {
                let writer = PngWriter { deflate, ..Default::default() };
                std::hint::black_box(writer.write(&m, &render).unwrap());
            }
            None => {
                std::hint::black_box(
                    encode(&QrInput::Text("https://example.com/some/path?query=value&x"), &opts).unwrap(),
                );
            }
        }
    }
}
