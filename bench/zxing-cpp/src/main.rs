//! zxing-cpp, the C++ library itself (v3.1.1 in the `zxing-cpp` crate 0.5.3), against
//! `decode` on the committed image set, both given the same grey pixels (files read by our
//! reader, untimed), so the times compare the engines alone: `cargo run --release` here,
//! `HARDER=1` for zxing-cpp's `tryHarder`. Each image's time is the best of three.
//! An image counts as read when every code in it is read with the encoded bytes, and no
//! other.
use std::time::Instant;
use zxingcpp::{BarcodeFormat, ImageFormat, ImageView};

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../decode-images");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/manifest.json")).expect("the manifest"))
            .expect("JSON");
    let harder = std::env::var_os("HARDER").is_some();
    let reader =
        zxingcpp::read().formats([BarcodeFormat::QRCode]).try_harder(harder).try_invert(true).max_number_of_symbols(16);
    let (mut read_zx, mut read_ours, mut ms_zx, mut ms_ours, mut n) = (0, 0, 0.0, 0.0, 0);
    for entry in manifest.as_array().expect("a list") {
        let file = entry["file"].as_str().expect("a file name");
        let want: Vec<Vec<u8>> = entry["texts"]
            .as_array()
            .expect("texts")
            .iter()
            .map(|t| t.as_str().unwrap_or("").as_bytes().to_vec())
            .collect();
        let bytes = std::fs::read(format!("{dir}/{file}")).expect("the image");
        let grey =
            qr_native::decode::image::read(&bytes, qr_native::decode::image::DEFAULT_MAX_PIXELS).expect("pixels");
        let (mut best_zx, mut best_ours) = (f64::MAX, f64::MAX);
        let (mut got_zx, mut got_ours) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            let t = Instant::now();
            let view = ImageView::from_slice(&grey.pixels, grey.width, grey.height, ImageFormat::Lum).expect("a view");
            got_zx = reader
                .from(view)
                .expect("zxing-cpp reads")
                .into_iter()
                .filter(|b| b.is_valid())
                .map(|b| b.bytes())
                .collect();
            best_zx = best_zx.min(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            got_ours = qr_native::decode::decode(&grey, &Default::default()).into_iter().map(|c| c.bytes).collect();
            best_ours = best_ours.min(t.elapsed().as_secs_f64() * 1e3);
        }
        let read = |got: &Vec<Vec<u8>>| want.iter().all(|w| got.contains(w)) && got.iter().all(|g| want.contains(g));
        read_zx += read(&got_zx) as usize;
        read_ours += read(&got_ours) as usize;
        ms_zx += best_zx;
        ms_ours += best_ours;
        n += 1;
    }
    println!("zxing-cpp (tryHarder {harder}): {read_zx} of {n} read, {:.3} ms per image", ms_zx / n as f64);
    println!("qr-native decode: {read_ours} of {n} read, {:.3} ms per image", ms_ours / n as f64);
}
