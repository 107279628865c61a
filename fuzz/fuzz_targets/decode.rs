//! The decode path on any bytes: as data codewords for the segment reader, as an image file (PNG, JPEG, WebP, GIF, BMP, or anything
//! else) under a small pixel budget, and as grey pixels of any shape. No panic may escape
//! `decode` or the image reader; every refusal is one of the two documented kinds; every
//! code read has a version, level and mask that a QR code can have.
//!
//! `decode` runs rxing inside `catch_unwind` per pass (a panic there loses that pass, not
//! the process), so the hook libfuzzer installs, which aborts on any panic even a caught
//! one, is replaced by a quiet one unless QR_NATIVE_FUZZ_STRICT is set: strict runs find
//! the reader's own panics, the default runs check our contract.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qr_native::decode::{self, image, segments, DecodeOptions, Grey};
use qr_native::error::ErrorKind;

/// Segments, when there are any, tile the payload in order.
fn tiles(list: &[segments::Segment], len: usize) {
    let mut at = 0;
    for s in list {
        assert_eq!(s.range.start, at, "{list:?}");
        at = s.range.end;
    }
    assert!(list.is_empty() || at == len, "{list:?} over {len} bytes");
}

fn check(grey: &Grey, flags: u8) {
    let options = DecodeOptions {
        inverted: [None, Some(false), Some(true)][(flags % 3) as usize],
        try_harder: flags & 8 != 0,
        pure: flags & 16 != 0,
    };
    for code in decode::decode(grey, &options) {
        assert!((1..=40).contains(&code.version) && code.mask < 8, "{code:?}");
        tiles(&code.segments, code.bytes.len());
        assert!(code.corners.iter().all(|p| p.x.is_finite() && p.y.is_finite()), "{code:?}");
    }
}

fuzz_target!(
    init: {
        if std::env::var_os("QR_NATIVE_FUZZ_STRICT").is_none() {
            std::panic::set_hook(Box::new(|_| {}));
        }
    },
    |data: &[u8]| {
        let Some((&flags, rest)) = data.split_first() else { return };
        // The segment reader on any data codewords, at any version.
        if let Some(content) = segments::parse(rest, flags % 40 + 1) {
            tiles(&content.segments, content.bytes.len());
            let _ = content.text();
        }
        if flags & 128 != 0 {
            match image::read(rest, 1 << 16) {
                Ok(grey) => check(&grey, flags),
                Err(e) => assert!(matches!(e.kind, ErrorKind::InvalidArgValue | ErrorKind::OutOfRange), "{e}"),
            }
        } else if let Some((&w, pixels)) = rest.split_first() {
            let width = (w as usize).max(1);
            let height = pixels.len() / width;
            if height > 0 {
                let pixels = pixels[..width * height].to_vec();
                check(&Grey { width: width as u32, height: height as u32, pixels }, flags);
            }
        }
    }
);
