//! Size and time of the PNG for each compressor (libdeflate's levels, the row writer) and row
//! filter, to choose `png.rs`'s settings by measurement:
//! `cargo run --release --no-default-features --example png_settings [grid|sweep]`.

use qr_native::qr::png::{Deflate, Filter, PngWriter, FILTER};
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("grid") => return grid(),
        Some("sweep") => return sweep(),
        _ => {}
    }
    let url = "https://example.com/some/path?query=value&x";
    let c500: String = (0..500).map(|i| (b'A' + (i * 11 % 58) as u8) as char).collect();
    let filters = [("none", Filter::None), ("up", Filter::Up)];
    for (name, text) in [("url44", url), ("text500", c500.as_str())] {
        let m = encode(&QrInput::Text(text), &EncodeOptions { level: EcLevel::L, ..Default::default() }).unwrap();
        for width in [200.0, 500.0] {
            let render = RenderOptions { width: Some(width), ..Default::default() };
            for (fname, filter) in filters {
                let deflates = [1, 3, 6, 9, 12].map(Deflate::Level).into_iter().chain([Deflate::Rows]);
                for deflate in deflates {
                    let writer = PngWriter { deflate, filter };
                    let iters = 300;
                    let bytes = writer.write(&m, &render).unwrap();
                    let t = Instant::now();
                    for _ in 0..iters {
                        black_box(writer.write(&m, &render).unwrap());
                    }
                    let us = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
                    let deflate = format!("{deflate:?}");
                    println!("{name} w{width} filter={fname:<8} {deflate:<9} bytes={:>5} us={us:>8.1}", bytes.len());
                }
            }
        }
    }
}

fn time(writer: PngWriter, m: &qr_native::qr::QrMatrix, render: &RenderOptions) -> (usize, f64) {
    let bytes = writer.write(m, render).unwrap().len();
    let iters = (2_000_000 / (bytes * 40).max(1)).clamp(5, 2000);
    let t = Instant::now();
    for _ in 0..iters {
        black_box(writer.write(black_box(m), render).unwrap());
    }
    (bytes, t.elapsed().as_secs_f64() * 1e6 / iters as f64)
}

/// `png_settings grid`: the row writer against level 9 for a URL, 200 and 500 characters and
/// versions 1–40, at 200 and 400 px wide and 1–10 pixels a module: bytes and µs per image.
fn grid() {
    let mut x = 12345u32;
    let mut text = |n: usize| -> String {
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (b'a' + ((x >> 16) % 26) as u8) as char
            })
            .collect()
    };
    let url = "https://example.com/products/12345?ref=qr-1".to_string();
    let c200: String = (0..200).map(|i| (b'a' + (i * 7 % 26) as u8) as char).collect();
    let c500: String = (0..500).map(|i| (b'A' + (i * 11 % 58) as u8) as char).collect();
    let mut inputs = vec![("url44".to_string(), url, 0u8), ("text200".into(), c200, 0), ("text500".into(), c500, 0)];
    for v in [1u8, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40] {
        inputs.push((format!("v{v}"), text(v as usize * v as usize / 2 + 4), v));
    }
    println!("input,version,render,rows_bytes,l9_bytes,ratio,rows_us,l9_us");
    for (name, t, v) in &inputs {
        let opts = EncodeOptions { level: EcLevel::L, version: (*v > 0).then_some(*v), ..Default::default() };
        let m = encode(&QrInput::Text(t), &opts).unwrap();
        let renders: Vec<(String, RenderOptions)> = [200.0, 400.0]
            .iter()
            .map(|&w| (format!("w{w}"), RenderOptions { width: Some(w), ..Default::default() }))
            .chain((1..=10).map(|s| (format!("s{s}"), RenderOptions { scale: s as f64, ..Default::default() })))
            .collect();
        for (rname, render) in &renders {
            let (rb, rus) = time(PngWriter { deflate: Deflate::Rows, filter: FILTER }, &m, render);
            let (lb, lus) = time(PngWriter { deflate: Deflate::Level(9), filter: FILTER }, &m, render);
            println!("{name},{},{rname},{rb},{lb},{:.3},{rus:.1},{lus:.1}", m.version, rb as f64 / lb as f64);
        }
    }
}

/// `png_settings sweep`: versions 1–6, every level, texts of every length that fits, pixels per
/// module from 2 to 10: how often the row writer is larger than level 9, per version and scale.
fn sweep() {
    let levels = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H];
    println!("version,px_per_module,images,larger,worst_ratio,bytes_rows,bytes_l9");
    for v in 1u8..=6 {
        for px in 2..=10usize {
            let (mut n, mut larger, mut worst, mut rb, mut lb) = (0, 0, 0f64, 0, 0);
            for (li, level) in levels.iter().enumerate() {
                for len in (1..200).step_by(3 + li) {
                    let t: String = (0..len).map(|i| (b'a' + ((i * 7 + len * 3) % 26) as u8) as char).collect();
                    let opts = EncodeOptions { level: *level, version: Some(v), ..Default::default() };
                    let Ok(m) = encode(&QrInput::Text(&t), &opts) else { continue };
                    if m.version != v {
                        continue;
                    }
                    for render in [
                        RenderOptions { scale: px as f64, ..Default::default() },
                        RenderOptions { width: Some(((m.size + 8) * px + px / 2) as f64), ..Default::default() },
                    ] {
                        let r = PngWriter { deflate: Deflate::Rows, filter: FILTER }.write(&m, &render).unwrap().len();
                        let l =
                            PngWriter { deflate: Deflate::Level(9), filter: FILTER }.write(&m, &render).unwrap().len();
                        n += 1;
                        larger += (r > l) as usize;
                        worst = worst.max(r as f64 / l as f64);
                        rb += r;
                        lb += l;
                    }
                }
            }
            println!("{v},{px},{n},{larger},{worst:.3},{rb},{lb}");
        }
    }
}
