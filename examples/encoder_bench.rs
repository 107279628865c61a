//! Encoder and PNG cost, ours next to the `qrcode` and `fast_qr` crates, in one run, and
//! where a 200 px PNG's time goes by stage.
//! `cargo run --release --no-default-features --example encoder_bench` (printed as JSON
//! lines for bench/).

use qr_native::qr::matrix::ModuleGrid;
use qr_native::qr::png::{self, PngWriter};
use qr_native::qr::render::{Geometry, RenderOptions};
use qr_native::qr::{encode, mask, EcLevel, EncodeOptions, QrInput, QrMatrix};
use std::hint::black_box;
use std::time::Instant;

/// µs per call: the median of seven rounds of `iters / 7` calls (the machine is shared: a
/// round that another process interrupted does not move the median).
fn time_us(iters: u32, mut f: impl FnMut()) -> f64 {
    f();
    let per_round = (iters / 7).max(1);
    let mut rounds: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_round {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / per_round as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[3]
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
        let stages = stages(text, &m, &render, iters);
        println!(
            "{{\"input\":\"{name}\",\"chars\":{},\"version\":{},\"encode_us\":{{\"qr-native\":{ours:.2},\"qrcode-crate\":{qrcode_crate:.2},\"fast_qr\":{fast:.2}}},\"png200_us\":{png:.2},\"png200_bytes\":{png_len},\"stages_us\":{stages}}}",
            text.len(),
            m.version
        );
    }
}

/// The PNG pipeline stage by stage, as a JSON object of µs per code:
/// - `matrix_mask_given`: segments, codewords, error correction, placement and the mask
///   applied, with the mask given (so no choice);
/// - `mask_choice`: scoring the eight masks on the unmasked grid;
/// - `render`: the 1-bit pixel rows (`png::scanlines`, as the writer builds them);
/// - `deflate`: `png::compress` (the writer's choice: the row writer or libdeflate level 9)
///   over those rows;
/// - `total`: text to PNG, both steps as the package runs them.
fn stages(text: &str, m: &QrMatrix, render: &RenderOptions, iters: u32) -> String {
    let given = EncodeOptions { level: m.level, mask: Some(m.mask), ..Default::default() };
    let matrix_mask_given = time_us(iters, || {
        black_box(encode(&QrInput::Text(black_box(text)), &given).unwrap());
    });
    // The grid as it was before masking: the template, with the data modules unmasked.
    let mut grid = ModuleGrid::new(m.version);
    for r in 0..m.size {
        for c in 0..m.size {
            let i = r * m.size + c;
            if grid.reserved[i] == 0 {
                grid.modules[i] = m.modules[i] ^ mask::flips(m.mask, r, c) as u8;
            }
        }
    }
    let mask_choice = time_us(iters, || {
        black_box(mask::best(black_box(&grid), m.level));
    });
    let geometry = Geometry::new(m.size, render).unwrap();
    let render_us = time_us(iters, || {
        black_box(png::scanlines(&geometry, black_box(m), true));
    });
    let raw = png::scanlines(&geometry, m, true);
    let mut out = Vec::new();
    let deflate = time_us(iters, || {
        out.clear();
        png::compress(png::Deflate::Auto, &geometry, m.size, black_box(&raw), geometry.side.div_ceil(8) + 1, &mut out)
            .unwrap();
        black_box(libdeflater::crc32(&out));
    });
    let opts = EncodeOptions { level: m.level, ..Default::default() };
    let total = time_us(iters, || {
        let m = encode(&QrInput::Text(black_box(text)), &opts).unwrap();
        black_box(PngWriter::default().write(&m, render).unwrap());
    });
    format!(
        "{{\"matrix_mask_given\":{matrix_mask_given:.2},\"mask_choice\":{mask_choice:.2},\"render\":{render_us:.2},\"deflate\":{deflate:.2},\"total\":{total:.2}}}"
    )
}
