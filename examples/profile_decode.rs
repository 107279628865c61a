//! `decode` on image files, for profilers: `cargo build --release --no-default-features
//! --example profile_decode`, then `perf record` (or `valgrind --tool=callgrind`) on
//! `target/release/examples/profile_decode FILE… [--rounds N]`. Prints, per file, the time
//! to read the file into grey pixels and the time to find and read its codes (medians, and
//! the best round: on a shared machine the best is the steadier figure to compare builds by).
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
        read_ms.sort_by(f64::total_cmp);
        decode_ms.sort_by(f64::total_cmp);
        let median = |v: &[f64]| v[v.len() / 2];
        println!(
            "{path}: read {:.2} ms, decode {:.2} ms, {found} code(s); best read {:.2}, decode {:.2}",
            median(&read_ms),
            median(&decode_ms),
            read_ms[0],
            decode_ms[0]
        );
    }
}
