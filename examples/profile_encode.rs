//! A fixed workload for `valgrind --tool=callgrind` (instruction counts are repeatable on a
//! noisy machine): `cargo build --release --no-default-features --example profile_encode`,
//! then `valgrind --tool=callgrind target/release/examples/profile_encode [png LEVEL]`.

use qr_native::qr::png::PngWriter;
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let png_level: Option<i32> = (args.get(1).map(String::as_str) == Some("png")).then(|| args[2].parse().unwrap_or(9));
    let opts = EncodeOptions { level: EcLevel::L, ..Default::default() };
    let render = RenderOptions { width: Some(200.0), ..Default::default() };
    let m = encode(&QrInput::Text("https://example.com/some/path?query=value&x"), &opts).unwrap();
    for _ in 0..200 {
        match png_level {
            Some(level) => {
                let writer = PngWriter { level, ..Default::default() };
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
