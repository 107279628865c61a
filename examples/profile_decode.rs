//! `decode` on image files, for profilers: `cargo build --release --no-default-features
//! --example profile_decode`, then `perf record` (or `valgrind --tool=callgrind`) on
//! `target/release/examples/profile_decode FILE… [--rounds N]`. Prints, per file, the time
//! to read the file into grey pixels and the time to find and read its codes.
use qr_native::decode::{decode, image, DecodeOptions};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.iter().position(|a| a == "--rounds").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok());
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--") && a.parse::<u32>().is_err()).collect();
    for path in files {
        let bytes = std::fs::read(path).expect("read the file");
        let (mut read_ms, mut decode_ms, mut found) = (Vec::new(), Vec::new(), 0);
        for _ in 0..rounds.unwrap_or(5) {
            let t = Instant::now();
            let grey = image::read(&bytes, image::DEFAULT_MAX_PIXELS).expect("an image");
            read_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            found = decode(&grey, &DecodeOptions::default()).len();
            decode_ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{path}: read {:.2} ms, decode {:.2} ms, {found} code(s)",
            median(&mut read_ms),
            median(&mut decode_ms)
        );
    }
}
