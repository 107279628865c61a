//! Decoding engines side by side on codes we generate and then distort as a camera would
//! (rotation, perspective, blur, noise, low contrast, uneven light, small codes in large
//! images, inverted codes, JPEG artefacts, three codes in one image), for choosing `decode`'s engine by measurement (#17).
//!
//! `cargo run --release -- [IMAGES_PER_DISTORTION] [--write DIR]` in this directory (its own
//! workspace). Prints, per distortion and engine: codes read, wrong texts (a decode that
//! disagrees with what was encoded), and ms per image. Every image is decoded once per engine
//! from the same greyscale pixels. With `--write DIR`, each image is also saved (a greyscale
//! PNG, or the JPEG itself) with `manifest.json` (file, distortion, texts, what each engine
//! read): `--write ../decode-images` makes the set `bench/decode.js` runs the JavaScript
//! decoders and the package on (`npm run bench -- --only decode`).

use qr_native::qr::{encode, EcLevel, EncodeOptions, QrInput, QrMatrix};
use std::time::Instant;

/// xorshift64*: reproducible images without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// A greyscale image, row-major.
struct Grey {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

#[derive(Clone, Copy, Debug)]
enum Distortion {
    Clean,
    Rotate,
    Perspective,
    Blur,
    Noise,
    LowContrast,
    UnevenLight,
    SmallInLarge,
    Inverted,
    /// Saved as a JPEG of quality 20–50 and read back: the file is that JPEG.
    Jpeg,
    /// Three codes side by side in one image: read when all three are.
    Several,
    All,
}

const DISTORTIONS: [Distortion; 12] = [
    Distortion::Clean,
    Distortion::Rotate,
    Distortion::Perspective,
    Distortion::Blur,
    Distortion::Noise,
    Distortion::LowContrast,
    Distortion::UnevenLight,
    Distortion::SmallInLarge,
    Distortion::Inverted,
    Distortion::Jpeg,
    Distortion::Several,
    Distortion::All,
];

/// Renders `m` through the projective map `h` (output pixel → module coordinates), sampling
/// 4×4 points per pixel, on a `w`×`w` canvas.
fn render(m: &QrMatrix, w: usize, h: &[f64; 9]) -> Grey {
    let size = m.size as f64;
    let mut px = vec![0u8; w * w];
    for y in 0..w {
        for x in 0..w {
            let mut dark = 0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let (fx, fy) = (x as f64 + (sx as f64 + 0.5) / 4.0, y as f64 + (sy as f64 + 0.5) / 4.0);
                    let z = h[6] * fx + h[7] * fy + h[8];
                    let (u, v) = ((h[0] * fx + h[1] * fy + h[2]) / z, (h[3] * fx + h[4] * fy + h[5]) / z);
                    if u >= 0.0 && v >= 0.0 && u < size && v < size && m.is_dark(v as usize, u as usize) {
                        dark += 1;
                    }
                }
            }
            px[y * w + x] = (255 - dark * 255 / 16) as u8;
        }
    }
    Grey { w, h: w, px }
}

/// The map from canvas pixels to modules for a code of `size` modules, `scale` px each,
/// centred at (`cx`, `cy`), rotated by `angle`, with a keystone `tilt` (0 = none).
fn placement(size: usize, scale: f64, cx: f64, cy: f64, angle: f64, tilt: f64) -> [f64; 9] {
    let half = size as f64 / 2.0;
    let (s, c) = angle.sin_cos();
    // Inverse of: module (u, v) → centred (u - half, v - half) → scale → rotate → shift.
    // Keystone: divide by 1 + tilt·(y offset), applied on the canvas side.
    let a = c / scale;
    let b = s / scale;
    [
        a,
        b,
        -a * cx - b * cy + half,
        -b,
        a,
        b * cx - a * cy + half,
        0.0,
        tilt / scale / size as f64,
        1.0 - tilt * cy / scale / size as f64,
    ]
}

fn blur(img: &mut Grey, r: usize) {
    let (w, h) = (img.w, img.h);
    let src = img.px.clone();
    let mut tmp = vec![0u32; w * h];
    for y in 0..h {
        for x in 0..w {
            let (lo, hi) = (x.saturating_sub(r), (x + r).min(w - 1));
            tmp[y * w + x] = (lo..=hi).map(|i| src[y * w + i] as u32).sum::<u32>() / (hi - lo + 1) as u32;
        }
    }
    for y in 0..h {
        for x in 0..w {
            let (lo, hi) = (y.saturating_sub(r), (y + r).min(h - 1));
            img.px[y * w + x] = ((lo..=hi).map(|i| tmp[i * w + x]).sum::<u32>() / (hi - lo + 1) as u32) as u8;
        }
    }
}

fn noise(img: &mut Grey, rng: &mut Rng, sigma: f64) {
    for p in &mut img.px {
        // Sum of four uniforms: close enough to a normal for image noise.
        let n: f64 = (0..4).map(|_| rng.unit() - 0.5).sum::<f64>() * sigma * 1.7;
        *p = (*p as f64 + n).clamp(0.0, 255.0) as u8;
    }
}

fn contrast(img: &mut Grey, lo: f64, hi: f64) {
    for p in &mut img.px {
        *p = (lo + (hi - lo) * *p as f64 / 255.0) as u8;
    }
}

fn uneven(img: &mut Grey, rng: &mut Rng) {
    let (gx, gy) = (rng.range(-0.6, 0.6), rng.range(-0.6, 0.6));
    let (w, h) = (img.w as f64, img.h as f64);
    for y in 0..img.h {
        for x in 0..img.w {
            let f = 1.0 + gx * (x as f64 / w - 0.5) + gy * (y as f64 / h - 0.5);
            let p = &mut img.px[y * img.w + x];
            *p = (*p as f64 * f * 0.85).clamp(0.0, 255.0) as u8;
        }
    }
}

fn make(m: &QrMatrix, d: Distortion, rng: &mut Rng) -> Grey {
    let modules = (m.size + 8) as f64;
    let scale = rng.range(3.0, 6.0);
    let side = (modules * scale).ceil() as usize;
    let centre = side as f64 / 2.0;
    let straight = placement(m.size, scale, centre, centre, 0.0, 0.0);
    match d {
        Distortion::Clean => render(m, side, &straight),
        Distortion::Rotate => {
            let side = (side as f64 * 1.45) as usize;
            let c = side as f64 / 2.0;
            render(m, side, &placement(m.size, scale, c, c, rng.range(0.1, 6.2), 0.0))
        }
        Distortion::Perspective => {
            let side = (side as f64 * 1.6) as usize;
            let c = side as f64 / 2.0;
            render(m, side, &placement(m.size, scale, c, c, rng.range(-0.3, 0.3), rng.range(-0.35, 0.35)))
        }
        Distortion::Blur => {
            let mut g = render(m, side, &straight);
            blur(&mut g, (scale / 3.0).round().max(1.0) as usize);
            g
        }
        Distortion::Noise => {
            let mut g = render(m, side, &straight);
            noise(&mut g, rng, 50.0);
            g
        }
        Distortion::LowContrast => {
            let mut g = render(m, side, &straight);
            contrast(&mut g, 90.0, 150.0);
            g
        }
        Distortion::UnevenLight => {
            let mut g = render(m, side, &straight);
            uneven(&mut g, rng);
            g
        }
        Distortion::SmallInLarge => {
            let scale = rng.range(2.0, 3.0);
            let big = 1000;
            let (cx, cy) = (rng.range(150.0, 850.0), rng.range(150.0, 850.0));
            let mut g = render(m, big, &placement(m.size, scale, cx, cy, rng.range(-0.2, 0.2), 0.0));
            noise(&mut g, rng, 12.0);
            g
        }
        // Compressed by `main`, which keeps the file.
        Distortion::Jpeg => render(m, side, &placement(m.size, scale, centre, centre, rng.range(-0.1, 0.1), 0.0)),
        // Drawn by `several`, which has the three codes.
        Distortion::Several => render(m, side, &straight),
        Distortion::Inverted => {
            let mut g = render(m, side, &straight);
            g.px.iter_mut().for_each(|p| *p = 255 - *p);
            g
        }
        Distortion::All => {
            let side = (side as f64 * 1.6) as usize;
            let c = side as f64 / 2.0;
            let mut g = render(m, side, &placement(m.size, scale, c, c, rng.range(0.0, 6.2), rng.range(-0.25, 0.25)));
            blur(&mut g, 1);
            uneven(&mut g, rng);
            contrast(&mut g, 40.0, 200.0);
            noise(&mut g, rng, 25.0);
            g
        }
    }
}

fn jpeg(g: &Grey, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
        .encode(&g.px, g.w as u32, g.h as u32, image::ExtendedColorType::L8)
        .expect("encode a JPEG");
    out
}

/// `ms` drawn side by side (each straight, 3–4 px a module, 24 px apart) on one light canvas
/// with a little noise.
fn several(ms: &[QrMatrix], rng: &mut Rng) -> Grey {
    let tiles: Vec<Grey> = ms
        .iter()
        .map(|m| {
            let scale = rng.range(3.0, 4.0);
            let side = ((m.size + 8) as f64 * scale).ceil() as usize;
            let c = side as f64 / 2.0;
            render(m, side, &placement(m.size, scale, c, c, rng.range(-0.15, 0.15), 0.0))
        })
        .collect();
    let h = tiles.iter().map(|t| t.h).max().unwrap_or(0);
    let w = tiles.iter().map(|t| t.w + 24).sum::<usize>();
    let mut g = Grey { w, h, px: vec![255; w * h] };
    let mut x0 = 0;
    for t in &tiles {
        for y in 0..t.h {
            g.px[y * w + x0..][..t.w].copy_from_slice(&t.px[y * t.w..][..t.w]);
        }
        x0 += t.w + 24;
    }
    noise(&mut g, rng, 10.0);
    g
}

/// An engine: the texts it found in an image.
type Engine = fn(&Grey) -> Vec<String>;

/// The texts each engine found, or none.
fn rqrr_decode(g: &Grey) -> Vec<String> {
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(g.w, g.h, |x, y| g.px[y * g.w + x]);
    img.detect_grids().iter().filter_map(|grid| grid.decode().ok().map(|(_, text)| text)).collect()
}

fn rxing_decode(g: &Grey) -> Vec<String> {
    let mut hints = rxing::DecodeHints { TryHarder: Some(true), ..Default::default() };
    match rxing::helpers::detect_in_luma_with_hints(
        g.px.clone(),
        g.w as u32,
        g.h as u32,
        Some(rxing::BarcodeFormat::QR_CODE),
        &mut hints,
    ) {
        Ok(result) => vec![result.getText().to_string()],
        Err(_) => Vec::new(),
    }
}

/// `decode` as the package ships it (default options), from the same grey pixels.
fn qr_native_decode(g: &Grey) -> Vec<String> {
    let grey = qr_native::decode::Grey { width: g.w as u32, height: g.h as u32, pixels: g.px.clone() };
    qr_native::decode::decode(&grey, &Default::default()).into_iter().filter_map(|c| c.text).collect()
}

/// rxing's reader (QR only), with each binarizer on the pixels and on their inverse, in turn,
/// until one reads a code: the passes `decode` would combine.
fn rxing_passes(g: &Grey) -> Vec<String> {
    use rxing::common::{GlobalHistogramBinarizer, HybridBinarizer};
    use rxing::{BinaryBitmap, Luma8LuminanceSource, Reader};
    let hints = rxing::DecodeHints {
        TryHarder: Some(true),
        PossibleFormats: Some(std::collections::HashSet::from([rxing::BarcodeFormat::QR_CODE])),
        ..Default::default()
    };
    let source = || Luma8LuminanceSource::new(g.px.clone(), g.w as u32, g.h as u32).expect("valid size");
    let mut reader = rxing::MultiFormatReader::default();
    for inverted in [false, true] {
        let mut hybrid = BinaryBitmap::new(HybridBinarizer::new(source()));
        if inverted {
            hybrid.invert();
        }
        if let Ok(r) = reader.decode_with_hints(&mut hybrid, &hints) {
            return vec![r.getText().to_string()];
        }
        let mut global = BinaryBitmap::new(GlobalHistogramBinarizer::new(source()));
        if inverted {
            global.invert();
        }
        if let Ok(r) = reader.decode_with_hints(&mut global, &hints) {
            return vec![r.getText().to_string()];
        }
    }
    Vec::new()
}

fn write_png(path: &std::path::Path, g: &Grey) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).expect("create the image file"));
    let mut encoder = png::Encoder::new(file, g.w as u32, g.h as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().and_then(|mut w| w.write_image_data(&g.px)).expect("write the image");
}

/// `s` as a JSON string.
fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let per = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40usize);
    let write_dir =
        args.iter().position(|a| a == "--write").and_then(|i| args.get(i + 1)).map(std::path::PathBuf::from);
    if let Some(dir) = &write_dir {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    let mut manifest: Vec<String> = Vec::new();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let alphabet: Vec<char> =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ./:?=&-_é€".chars().collect();
    let engines: [(&str, Engine); 4] = [
        ("rqrr", rqrr_decode),
        ("rxing", rxing_decode),
        ("rxing, both binarizers, both polarities", rxing_passes),
        ("qr-native decode", qr_native_decode),
    ];
    println!("| distortion | images | engine | read | wrong | ms per image |");
    println!("|---|---|---|---|---|---|");
    let mut totals = [(0usize, 0usize, 0f64); 4];
    let mut images = 0;
    for d in DISTORTIONS {
        let mut stats = [(0usize, 0usize, 0f64); 4];
        for _ in 0..per {
            let count = if matches!(d, Distortion::Several) { 3 } else { 1 };
            let mut texts = Vec::new();
            let mut matrices = Vec::new();
            for _ in 0..count {
                let len = [8usize, 30, 80, 200, 400][rng.below(if count > 1 { 3 } else { 5 }) as usize];
                let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]).collect();
                let level = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H][rng.below(4) as usize];
                matrices
                    .push(encode(&QrInput::Text(&text), &EncodeOptions { level, ..Default::default() }).expect("fits"));
                texts.push(text);
            }
            let mut g = if count > 1 { several(&matrices, &mut rng) } else { make(&matrices[0], d, &mut rng) };
            let mut jpeg_file = None;
            if matches!(d, Distortion::Jpeg) {
                let file = jpeg(&g, rng.range(20.0, 50.0) as u8);
                g.px = image::load_from_memory(&file).expect("our own JPEG").into_luma8().into_raw();
                jpeg_file = Some(file);
            }
            let mut outcomes = Vec::new();
            for (k, (name, run)) in engines.iter().enumerate() {
                let t = Instant::now();
                let found = run(&g);
                let ms = t.elapsed().as_secs_f64() * 1e3;
                stats[k].2 += ms;
                let outcome = if found.iter().any(|f| !texts.contains(f)) {
                    stats[k].1 += 1;
                    "wrong"
                } else if texts.iter().all(|t| found.contains(t)) {
                    stats[k].0 += 1;
                    "read"
                } else {
                    "none"
                };
                outcomes.push(format!("{}:{{\"outcome\":\"{outcome}\",\"ms\":{ms:.3}}}", json(name)));
            }
            if let Some(dir) = &write_dir {
                // The JPEG distortion's file is a real JPEG: the bytes its pixels came from.
                let ext = if jpeg_file.is_some() { "jpg" } else { "png" };
                let file = format!("{:04}-{d:?}.{ext}", manifest.len());
                match &jpeg_file {
                    Some(bytes) => std::fs::write(dir.join(&file), bytes).expect("write the image"),
                    None => write_png(&dir.join(&file), &g),
                }
                let texts: Vec<String> = texts.iter().map(|t| json(t)).collect();
                manifest.push(format!(
                    "{{\"file\":{},\"distortion\":\"{d:?}\",\"texts\":[{}],\"engines\":{{{}}}}}",
                    json(&file),
                    texts.join(","),
                    outcomes.join(",")
                ));
            }
        }
        for (k, (name, _)) in engines.iter().enumerate() {
            let (read, wrong, ms) = stats[k];
            println!("| {d:?} | {per} | {name} | {read} | {wrong} | {:.2} |", ms / per as f64);
            totals[k].0 += read;
            totals[k].1 += wrong;
            totals[k].2 += ms;
        }
        images += per;
    }
    for (k, (name, _)) in engines.iter().enumerate() {
        let (read, wrong, ms) = totals[k];
        println!(
            "| all | {images} | {name} | {read} ({:.0} %) | {wrong} | {:.2} |",
            100.0 * read as f64 / images as f64,
            ms / images as f64
        );
    }
    if let Some(dir) = &write_dir {
        std::fs::write(dir.join("manifest.json"), format!("[\n{}\n]\n", manifest.join(",\n")))
            .expect("write the manifest");
    }
}
