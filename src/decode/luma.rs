//! JPEG and lossy WebP files read straight to their luma plane: the grey `decode` reads is
//! what these files store first, so the colour planes are not turned into RGB and back.
//!
//! A JPEG goes to `zune-jpeg` (the decoder the `image` crate itself uses, with its options)
//! asking for luma: it inverse-transforms only the Y component and skips upsampling and the
//! colour conversion. A plain lossy WebP (one `VP8 ` chunk, no alpha, no animation) goes to
//! `image-webp`'s VP8 decoder (the `image` crate's), whose Y plane is mapped through a table
//! to the grey the `image` crate's RGB would give for that Y with neutral chroma. On a neutral
//! pixel the grey is the same as through RGB; on a coloured one it is the file's own luma
//! (BT.601, as JPEG and WebP store it) instead of Rec. 709 of the RGB.
//!
//! Anything else (CMYK, an extended or lossless WebP, anything irregular or cut short) answers
//! `None`, and the `image` crate reads it or says what is wrong: its answers stay the answers.

use super::{check_pixels, Grey};
use crate::error::Result;
use std::sync::OnceLock;
use zune_core::{bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions};

/// A JPEG's luma; `None` when the `image` crate is to read it. The size is checked against
/// `max_pixels` from the header, before any pixel is allocated.
pub fn jpeg(bytes: &[u8], max_pixels: u64) -> Result<Option<Grey>> {
    // The `image` crate's options: lenient, no size limit of the decoder's own.
    let options = DecoderOptions::default().set_strict_mode(false).set_max_width(usize::MAX).set_max_height(usize::MAX);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    if decoder.decode_headers().is_err() {
        return Ok(None);
    }
    let (Some((width, height)), Some(ColorSpace::YCbCr | ColorSpace::Luma)) =
        (decoder.dimensions(), decoder.input_colorspace())
    else {
        return Ok(None);
    };
    check_pixels(width as u64, height as u64, max_pixels)?;
    if width == 0 || height == 0 {
        return Ok(None);
    }
    decoder.set_options(decoder.options().jpeg_set_out_colorspace(ColorSpace::Luma));
    match decoder.decode() {
        Ok(pixels) if pixels.len() == width * height => {
            Ok(Some(Grey { width: width as u32, height: height as u32, pixels }))
        }
        _ => Ok(None),
    }
}

/// A plain lossy WebP's luma; `None` when the `image` crate is to read it. The size is
/// checked against `max_pixels` from the VP8 header, before any pixel is allocated.
pub fn webp(bytes: &[u8], max_pixels: u64) -> Result<Option<Grey>> {
    let Some(frame) = vp8_payload(bytes) else { return Ok(None) };
    // The VP8 key frame header (RFC 6386, 9.1): a 3-byte tag (bit 0 clear: a key frame), the
    // start code, then 14-bit width and height.
    if frame.len() < 10 || frame[0] & 1 != 0 || frame[3..6] != [0x9d, 0x01, 0x2a] {
        return Ok(None);
    }
    let width = u16::from_le_bytes([frame[6], frame[7]]) & 0x3fff;
    let height = u16::from_le_bytes([frame[8], frame[9]]) & 0x3fff;
    check_pixels(width as u64, height as u64, max_pixels)?;
    if width == 0 || height == 0 {
        return Ok(None);
    }
    let Ok(decoded) = image_webp::vp8::Vp8Decoder::decode_frame(std::io::Cursor::new(frame)) else {
        return Ok(None);
    };
    if (decoded.width, decoded.height) != (width, height) {
        return Ok(None);
    }
    let (w, h) = (width as usize, height as usize);
    // The Y plane is whole macroblocks wide.
    let stride = w.div_ceil(16) * 16;
    if decoded.ybuf.len() < stride * h {
        return Ok(None);
    }
    let grey = neutral_grey();
    let mut pixels = Vec::with_capacity(w * h);
    for row in decoded.ybuf.chunks_exact(stride).take(h) {
        pixels.extend(row[..w].iter().map(|&y| grey[y as usize]));
    }
    Ok(Some(Grey { width: width as u32, height: height as u32, pixels }))
}

/// The payload of a WebP file that is one `VP8 ` chunk, whole: `RIFF`, its size, `WEBP`,
/// `VP8 `, the chunk's size, the chunk.
fn vp8_payload(bytes: &[u8]) -> Option<&[u8]> {
    if bytes.get(..4)? != b"RIFF" || bytes.get(8..12)? != b"WEBP" || bytes.get(12..16)? != b"VP8 " {
        return None;
    }
    let size = u32::from_le_bytes(bytes.get(16..20)?.try_into().ok()?) as usize;
    bytes.get(20..20usize.checked_add(size)?)
}

/// The grey of each VP8 luma value with neutral chroma: its RGB as `image-webp` computes it
/// (libwebp's fixed-point BT.601, studio range), then the `image` crate's luma of that RGB.
fn neutral_grey() -> &'static [u8; 256] {
    static TABLE: OnceLock<[u8; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mulhi = |v: u8, c: u32| ((v as u32 * c) >> 8) as i32;
        let clip = |v: i32| (v >> 6).clamp(0, 255) as u8;
        let rgb: Vec<u8> = (0..=255u8)
            .flat_map(|y| {
                let (u, v) = (128, 128);
                [
                    clip(mulhi(y, 19077) + mulhi(v, 26149) - 14234),
                    clip(mulhi(y, 19077) - mulhi(u, 6419) - mulhi(v, 13320) + 8708),
                    clip(mulhi(y, 19077) + mulhi(u, 33050) - 17685),
                ]
            })
            .collect();
        let rgb = image::RgbImage::from_raw(256, 1, rgb).expect("256 pixels");
        let luma = image::DynamicImage::ImageRgb8(rgb).into_luma8().into_raw();
        luma.try_into().expect("256 greys")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// zxing-cpp's sample files of one extension (`__test__/fixtures/zxing-cpp-qrcode`).
    fn samples(ext: &str) -> Vec<(String, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("__test__/fixtures/zxing-cpp-qrcode");
        let mut files = Vec::new();
        for dir in std::fs::read_dir(&root).unwrap().map(|d| d.unwrap().path()).filter(|d| d.is_dir()) {
            for file in std::fs::read_dir(dir).unwrap() {
                let path = file.unwrap().path();
                if path.extension().is_some_and(|e| e == ext) {
                    files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
                }
            }
        }
        files.sort();
        files
    }

    /// The `image` crate's RGB of a file, and its grey of that RGB.
    fn rgb(file: &[u8]) -> (image::RgbImage, Vec<u8>) {
        let rgb = image::load_from_memory(file).unwrap().into_rgb8();
        let luma = image::DynamicImage::ImageRgb8(rgb.clone()).into_luma8().into_raw();
        (rgb, luma)
    }

    #[test]
    fn a_lossy_webp_is_its_luma_and_a_neutral_pixel_the_grey_of_its_rgb() {
        let (mut plain, mut neutral) = (0, 0);
        for (name, file) in samples("webp") {
            let Some(grey) = webp(&file, 1 << 28).unwrap() else {
                assert_ne!(&file[12..16], b"VP8 ", "{name}: a plain lossy WebP left to the image crate");
                continue;
            };
            plain += 1;
            let (rgb, luma) = rgb(&file);
            assert_eq!((grey.width, grey.height), rgb.dimensions(), "{name}");
            // Where the chroma around a pixel (every sample the upsampling reads) is neutral, its
            // RGB is grey and the two greys are the same.
            let frame =
                image_webp::vp8::Vp8Decoder::decode_frame(std::io::Cursor::new(vp8_payload(&file).unwrap())).unwrap();
            let (cw, ch) = ((grey.width as usize).div_ceil(16) * 8, (grey.height as usize).div_ceil(16) * 8);
            let chroma_neutral = |x: usize, y: usize| {
                let (cx, cy) = (x / 2, y / 2);
                (cy.saturating_sub(1)..=(cy + 1).min(ch - 1)).all(|j| {
                    (cx.saturating_sub(1)..=(cx + 1).min(cw - 1))
                        .all(|i| frame.ubuf[j * cw + i] == 128 && frame.vbuf[j * cw + i] == 128)
                })
            };
            for (i, (&ours, &want)) in grey.pixels.iter().zip(&luma).enumerate() {
                let (x, y) = (i % grey.width as usize, i / grey.width as usize);
                if chroma_neutral(x, y) {
                    neutral += 1;
                    assert_eq!(ours, want, "{name} at {x},{y}");
                }
            }
        }
        assert!(plain >= 60 && neutral >= 100_000, "{plain} plain lossy files, {neutral} neutral pixels");
    }

    #[test]
    fn a_jpeg_is_its_luma_and_a_neutral_pixel_the_grey_of_its_rgb() {
        let files = samples("jpg");
        assert!(files.len() >= 3);
        let (mut neutral, mut colour, mut far) = (0, 0, 0);
        for (name, file) in files {
            let grey = jpeg(&file, 1 << 28).unwrap().unwrap_or_else(|| panic!("{name}: left to the image crate"));
            let (rgb, luma) = rgb(&file);
            assert_eq!((grey.width, grey.height), rgb.dimensions(), "{name}");
            for ((&ours, p), &theirs) in grey.pixels.iter().zip(rgb.pixels()).zip(&luma) {
                let [r, g, b] = p.0;
                if r == g && g == b {
                    neutral += 1;
                    assert!(ours.abs_diff(r) <= 1, "{name}: Y {ours} for grey RGB {r}");
                } else {
                    colour += 1;
                    // BT.601 luma against Rec. 709: apart on saturated colours only.
                    far += (ours.abs_diff(theirs) > 24) as usize;
                }
            }
        }
        assert!(
            neutral > 1000 && colour > 0 && far == 0,
            "{neutral} neutral pixels, {colour} coloured, {far} far apart"
        );
    }

    #[test]
    fn the_budget_is_checked_from_the_header_and_anything_irregular_is_left_to_the_image_crate() {
        let (name, file) = samples("webp").into_iter().find(|(_, f)| &f[12..16] == b"VP8 ").unwrap();
        let grey = webp(&file, 1 << 28).unwrap().unwrap();
        let pixels = grey.width as u64 * grey.height as u64;
        assert_eq!(webp(&file, pixels - 1).err().map(|e| e.kind), Some(ErrorKind::OutOfRange), "{name}");
        assert!(webp(&file, pixels).unwrap().is_some());
        // A header claiming 16383 × 16383 over a few bytes: refused before any allocation.
        let mut huge = file.clone();
        huge[26..30].copy_from_slice(&[0xff, 0x3f, 0xff, 0x3f]);
        assert_eq!(webp(&huge, 40_000_000).err().map(|e| e.kind), Some(ErrorKind::OutOfRange));
        // Cut short, or a byte changed: `None` (the image crate's to read), a grey of the
        // header's size, or a refusal; never a panic.
        for cut in (0..file.len()).step_by(97) {
            assert!(webp(&file[..cut], pixels).unwrap().is_none(), "cut at {cut}");
        }
        for at in (20..file.len()).step_by(89) {
            let mut bad = file.clone();
            bad[at] ^= 0x5a;
            if let Ok(Some(g)) = webp(&bad, pixels) {
                assert_eq!(g.pixels.len() as u64, g.width as u64 * g.height as u64);
            }
        }
        let (_, jpg) = samples("jpg").into_iter().next().unwrap();
        let grey = jpeg(&jpg, 1 << 28).unwrap().unwrap();
        let pixels = grey.width as u64 * grey.height as u64;
        assert_eq!(jpeg(&jpg, pixels - 1).err().map(|e| e.kind), Some(ErrorKind::OutOfRange));
        for cut in (0..jpg.len()).step_by(13) {
            if let Ok(Some(g)) = jpeg(&jpg[..cut], pixels) {
                assert_eq!(g.pixels.len() as u64, pixels, "cut at {cut}");
            }
        }
    }

    #[test]
    fn the_neutral_table_rises_from_black_to_white() {
        let t = neutral_grey();
        assert!(t.windows(2).all(|w| w[0] <= w[1]));
        // Studio range: 16 is black, 235 white.
        assert_eq!((t[0], t[16], t[235], t[255]), (0, 0, 255, 255));
    }
}
