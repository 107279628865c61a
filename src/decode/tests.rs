//! `decode`'s tests: codes drawn by our encoder read back with their level, mask, corners and
//! segments, in every image format, turned, inverted and as dots; hostile files refused.

use super::*;
use crate::qr::{self, EncodeOptions, QrInput};
use rxing::common::HybridBinarizer;
use rxing::Luma8Source;

/// `text` encoded, drawn with `scale` px modules and a 4-module quiet zone, dark on light.
fn draw(text: &str, options: EncodeOptions, scale: usize) -> (qr::QrMatrix, Grey) {
    let m = qr::encode(&QrInput::Text(text), &options).expect("encodes");
    let side = (m.size + 8) * scale;
    let mut pixels = vec![255u8; side * side];
    for row in 0..m.size {
        for col in 0..m.size {
            if m.is_dark(row, col) {
                for y in 0..scale {
                    let start = (row + 4) * scale + y;
                    pixels[start * side + (col + 4) * scale..][..scale].fill(0);
                }
            }
        }
    }
    (m, Grey { width: side as u32, height: side as u32, pixels })
}

/// Each point within 1.5 px of where it should be, in order.
fn assert_near(points: &[Point], want: [(f32, f32); 4]) {
    assert_eq!(points.len(), 4, "{points:?}");
    for (p, (x, y)) in points.iter().zip(want) {
        assert!((p.x - x).abs() <= 1.5 && (p.y - y).abs() <= 1.5, "{points:?} vs {want:?}");
    }
}

#[test]
fn reads_back_what_the_encoder_wrote() {
    for level in [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H] {
        for mask in 0..8 {
            let options = EncodeOptions { level, mask: Some(mask), ..Default::default() };
            let (m, grey) = draw("https://example.com/a?b=1", options, 3);
            let found = decode(&grey, &DecodeOptions::default());
            assert_eq!(found.len(), 1, "level {level:?} mask {mask}");
            let f = &found[0];
            assert_eq!(f.bytes, b"https://example.com/a?b=1");
            assert_eq!(f.text.as_deref(), Some("https://example.com/a?b=1"));
            let modes: Vec<_> = f.segments.iter().map(|s| (s.mode, s.range.clone())).collect();
            assert_eq!(modes, [(segments::Mode::Byte, 0..25)]);
            assert_eq!((f.version, f.level, f.mask), (m.version, m.level, m.mask));
            // The symbol starts 4 modules (12 px) in and is size × 3 px wide.
            let end = (12 + m.size * 3) as f32;
            let want = [(12.0, 12.0), (end, 12.0), (end, end), (12.0, end)];
            assert_near(&f.corners, want);
        }
    }
}

#[test]
fn mirrored_codes_are_read_with_their_level_mask_and_corners() {
    // A code seen from behind (a sticker read through glass): its image flipped left to
    // right. Every mask, and levels whose format words differ most.
    for level in [EcLevel::L, EcLevel::H] {
        for mask in 0..8 {
            let options = EncodeOptions { level, mask: Some(mask), ..Default::default() };
            let (m, mut grey) = draw("mirror, mirror", options, 3);
            let side = grey.width as usize;
            grey.pixels.chunks_mut(side).for_each(|row| row.reverse());
            let found = decode(&grey, &DecodeOptions::default());
            assert_eq!(found.len(), 1, "level {level:?} mask {mask}");
            let f = &found[0];
            assert_eq!(f.bytes, b"mirror, mirror");
            assert_eq!((f.version, f.level, f.mask), (m.version, m.level, m.mask));
            // The symbol's own top-left corner is now at the image's top right.
            let (near, far) = ((side - 12 - m.size * 3) as f32, (side - 12) as f32);
            let want = [(far, near), (near, near), (near, far), (far, far)];
            assert_near(&f.corners, want);
        }
    }
}

#[test]
fn inverted_codes_are_read_only_when_allowed() {
    let (_, mut grey) = draw("light on dark", EncodeOptions::default(), 4);
    grey.pixels.iter_mut().for_each(|p| *p = 255 - *p);
    assert_eq!(decode(&grey, &DecodeOptions::default()).len(), 1);
    assert_eq!(decode(&grey, &DecodeOptions { inverted: Some(true), ..Default::default() }).len(), 1);
    assert!(decode(&grey, &DecodeOptions { inverted: Some(false), ..Default::default() }).is_empty());
    // Cheapest step first in every view: the row-skipping search in both dark-on-light views
    // (nothing), then in the hybrid binarizer's inverse (the code); not the every-row search
    // and the detector in the first views before the inverse is looked at.
    let asked = std::cell::Cell::new(0);
    let count = || {
        asked.set(asked.get() + 1);
        false
    };
    assert_eq!(super::decode_until(&grey, &DecodeOptions::default(), &count).map(|f| f.len()), Ok(1));
    assert_eq!(asked.get(), 3);
}

#[test]
fn several_codes_come_back_in_reading_order() {
    let texts = ["first", "second", "third", "fourth"];
    let tiles: Vec<Grey> = texts.iter().map(|t| draw(t, EncodeOptions::default(), 3).1).collect();
    let tile = tiles[0].width as usize;
    let side = tile * 2 + 20;
    let mut pixels = vec![255u8; side * side];
    for (i, t) in tiles.iter().enumerate() {
        let (ox, oy) = ((i % 2) * (tile + 20), (i / 2) * (tile + 20));
        for y in 0..tile {
            pixels[(oy + y) * side + ox..][..tile].copy_from_slice(&t.pixels[y * tile..][..tile]);
        }
    }
    let grey = Grey { width: side as u32, height: side as u32, pixels };
    let found = decode(&grey, &DecodeOptions::default());
    let read: Vec<&str> = found.iter().map(|f| f.text.as_deref().unwrap_or("")).collect();
    assert_eq!(read, texts);
}

#[test]
fn bytes_that_are_neither_utf8_nor_shift_jis_read_as_latin1() {
    let segments = vec![qr::segment::Segment {
        mode: qr::segment::Mode::Byte,
        data: std::borrow::Cow::Borrowed(&[0xff, 0xfe, 0x00, 0x80][..]),
    }];
    let m = qr::encode(&QrInput::Segments(segments), &EncodeOptions::default()).expect("encodes");
    let scale = 4;
    let side = (m.size + 8) * scale;
    let mut pixels = vec![255u8; side * side];
    for y in 0..side {
        for x in 0..side {
            let (r, c) = (y / scale, x / scale);
            if (4..m.size + 4).contains(&r) && (4..m.size + 4).contains(&c) && m.is_dark(r - 4, c - 4) {
                pixels[y * side + x] = 0;
            }
        }
    }
    let found = decode(&Grey { width: side as u32, height: side as u32, pixels }, &DecodeOptions::default());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].bytes, [0xff, 0xfe, 0x00, 0x80]);
    assert_eq!(found[0].text.as_deref(), Some("\u{ff}\u{fe}\u{0}\u{80}"));
    let s = &found[0].segments[0];
    assert_eq!((s.charset.name(), s.charset_from), ("ISO-8859-1".into(), segments::CharsetFrom::Inferred));
}

#[test]
fn blank_and_tiny_images_hold_no_code() {
    for (w, h) in [(1, 1), (1, 500), (500, 1), (21, 21), (300, 300)] {
        let grey = Grey { width: w, height: h, pixels: vec![255; (w * h) as usize] };
        assert!(decode(&grey, &DecodeOptions { try_harder: true, pure: true, ..Default::default() }).is_empty());
    }
}

#[test]
fn codes_in_images_under_40_px_are_read_in_the_global_view() {
    // 1 px a module: 29 px for version 1, 33 for version 2, where ZXing's hybrid binarizer is
    // its global one and `decode` looks at that view alone; light on dark too.
    for text in ["v1", "version two, 20 b"] {
        let (m, grey) = draw(text, EncodeOptions::default(), 1);
        assert!(grey.width < 40, "{}", grey.width);
        let found = decode(&grey, &DecodeOptions::default());
        assert_eq!(found.iter().map(|f| f.bytes.as_slice()).collect::<Vec<_>>(), [text.as_bytes()], "v{}", m.version);
        let inverse = Grey { pixels: grey.pixels.iter().map(|p| 255 - p).collect(), ..grey };
        let found = decode(&inverse, &DecodeOptions::default());
        assert_eq!(
            found.iter().map(|f| f.bytes.as_slice()).collect::<Vec<_>>(),
            [text.as_bytes()],
            "v{} inverted",
            m.version
        );
    }
}

/// `grey` saved as `format` by the `image` crate's own encoder.
fn file_of(grey: &Grey, format: ::image::ImageFormat) -> Vec<u8> {
    let img = ::image::GrayImage::from_raw(grey.width, grey.height, grey.pixels.clone()).expect("sized");
    let mut out = std::io::Cursor::new(Vec::new());
    match format {
        // The WebP and GIF encoders here take RGB(A) only.
        ::image::ImageFormat::WebP | ::image::ImageFormat::Gif => {
            ::image::DynamicImage::ImageLuma8(img).to_rgba8().write_to(&mut out, format)
        }
        _ => img.write_to(&mut out, format),
    }
    .expect("encodes");
    out.into_inner()
}

const FORMATS: [::image::ImageFormat; 5] = [
    ::image::ImageFormat::Png,
    ::image::ImageFormat::Jpeg,
    ::image::ImageFormat::WebP,
    ::image::ImageFormat::Gif,
    ::image::ImageFormat::Bmp,
];

#[test]
fn every_format_reads_to_the_same_code() {
    let (_, grey) = draw("formats", EncodeOptions::default(), 4);
    for format in FORMATS {
        let file = file_of(&grey, format);
        let read = image::read(&file, image::DEFAULT_MAX_PIXELS).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert_eq!((read.width, read.height), (grey.width, grey.height), "{format:?}");
        let found = decode(&read, &DecodeOptions::default());
        assert_eq!(found.len(), 1, "{format:?}");
        assert_eq!(found[0].bytes, b"formats", "{format:?}");
    }
}

#[test]
fn every_format_is_refused_over_max_pixels_and_when_cut_short() {
    let (_, grey) = draw("budget", EncodeOptions::default(), 4);
    let pixels = (grey.width * grey.height) as u64;
    for format in FORMATS {
        let file = file_of(&grey, format);
        let over = image::read(&file, pixels - 1).err().unwrap_or_else(|| panic!("{format:?} read over budget"));
        assert_eq!(over.kind, crate::error::ErrorKind::OutOfRange, "{format:?}");
        assert!(image::read(&file, pixels).is_ok(), "{format:?}");
        // Every prefix is an error or an image, never a panic; the short ones are errors.
        for cut in (0..file.len()).step_by(7) {
            if let Err(e) = image::read(&file[..cut], pixels) {
                assert_eq!(e.kind, crate::error::ErrorKind::InvalidArgValue, "{format:?} cut at {cut}: {e}");
            }
        }
        assert!(image::read(&file[..file.len().min(16)], pixels).is_err(), "{format:?}");
    }
}

/// A PNG whose header claims `w × h` and whose data is a few bytes: refused from the header.
#[test]
fn a_bomb_is_refused_before_its_pixels_are_allocated() {
    let (_, grey) = draw("bomb", EncodeOptions::default(), 1);
    let mut png = file_of(&grey, ::image::ImageFormat::Png);
    // IHDR's width and height sit at bytes 16..24; its CRC (29..33) is recomputed.
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = libdeflater::crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let before = crate::alloc::LIVE.load(std::sync::atomic::Ordering::Relaxed);
    let e = image::read(&png, image::DEFAULT_MAX_PIXELS).err().expect("refused");
    assert_eq!(e.kind, crate::error::ErrorKind::OutOfRange);
    assert!(e.message.contains("100000 × 100000"), "{}", e.message);
    let e = image::dimensions(&png, image::DEFAULT_MAX_PIXELS).expect_err("refused");
    assert_eq!(e.kind, crate::error::ErrorKind::OutOfRange);
    let after = crate::alloc::LIVE.load(std::sync::atomic::Ordering::Relaxed);
    // Other tests run alongside and allocate too; the bomb would have taken 10 GB.
    assert!(after.abs_diff(before) < 1 << 26, "{before} → {after}");
    // The same claim in a header whose CRC does not hold is a damaged file, not a large one.
    png[29] ^= 1;
    let e = image::read(&png, image::DEFAULT_MAX_PIXELS).err().expect("refused");
    assert_eq!(e.kind, crate::error::ErrorKind::InvalidArgValue, "{}", e.message);
}

#[test]
fn transparent_pixels_count_as_light() {
    let (_, grey) = draw("alpha", EncodeOptions::default(), 4);
    // Dark modules opaque black, light ones fully transparent (and black underneath).
    let rgba: Vec<u8> = grey.pixels.iter().flat_map(|&p| [0, 0, 0, 255 - p]).collect();
    let read = image::from_pixels(rgba, grey.width, grey.height).expect("sized");
    assert_eq!(decode(&read, &DecodeOptions::default())[0].bytes, b"alpha");
}

#[test]
fn a_point_turned_and_unturned_is_where_it_was() {
    // One marked pixel of a 7 × 3 image, turned once, twice and three times.
    let mut grey = Grey { width: 7, height: 3, pixels: vec![255; 21] };
    grey.pixels[5 + 7] = 0;
    let mut heights = Vec::new();
    for _ in 0..3 {
        heights.push(grey.height);
        grey = turn(&grey);
        let at = grey.pixels.iter().position(|&v| v == 0).expect("the mark") as u32;
        let centre = Point { x: (at % grey.width) as f32 + 0.5, y: (at / grey.width) as f32 + 0.5 };
        assert_eq!(unturn(centre, &heights), Point { x: 5.5, y: 1.5 }, "after {} turns", heights.len());
    }
}

#[test]
fn codes_read_turned_have_the_corners_read_upright() {
    // A code off-centre in a wide image: read by the turned search alone, in both modes.
    let (m, code) = draw("turned", EncodeOptions::default(), 3);
    let (side, width) = (code.width as usize, code.width as usize + 40);
    let mut pixels = vec![255u8; width * side];
    for (y, row) in code.pixels.chunks_exact(side).enumerate() {
        pixels[y * width + 30..][..side].copy_from_slice(row);
    }
    let grey = Grey { width: width as u32, height: side as u32, pixels };
    let upright = decode(&grey, &DecodeOptions::default());
    assert_eq!(upright.len(), 1);
    for try_harder in [false, true] {
        let turned =
            read_turned(&grey, &DecodeOptions { try_harder, ..Default::default() }, &|| false, &mut Stages::default())
                .expect("not stopped");
        assert_eq!(turned.len(), 1, "try_harder {try_harder}");
        assert_eq!((turned[0].bytes.as_slice(), turned[0].version), (&b"turned"[..], m.version));
        let want = upright[0].corners.map(|p| (p.x, p.y));
        assert_near(&turned[0].corners, want);
    }
}

#[test]
fn corners_from_zxings_detector_are_the_symbols() {
    // Version 1 (no alignment pattern) and version 7 (one found): both ways to the corners.
    for text in ["v1", "a longer text, so that the code needs version seven or so to hold it all...."] {
        let (m, grey) = draw(text, EncodeOptions { level: EcLevel::H, ..Default::default() }, 3);
        let source = Luma8Source::new_with_slice(&grey.pixels, grey.width, grey.height).expect("sized");
        let bitmap = rxing::BinaryBitmap::new(HybridBinarizer::new(source));
        let d = rxing::qrcode::detector::Detector::new(bitmap.get_black_matrix()).detect().expect("detected");
        assert_eq!(d.getPoints().len(), if m.version > 1 { 4 } else { 3 }, "v{}", m.version);
        let corners = zxing_corners(d.getPoints(), d.getBits().getWidth()).expect("a transform");
        let end = (12 + m.size * 3) as f32;
        let points = corners.map(|p| Point { x: p.x, y: p.y });
        assert_near(&points, [(12.0, 12.0), (end, 12.0), (12.0, end), (end, end)]);
    }
}

#[test]
fn segments_are_the_encoders() {
    // Our encoder splits this into alphanumeric, numeric and byte runs.
    let text = "HELLO WORLD 0123456789012345678901234567890 and more";
    let (_, grey) = draw(text, EncodeOptions::default(), 3);
    let f = &decode(&grey, &DecodeOptions::default())[0];
    let encoder: Vec<_> = qr::segment::optimal_segments(text, f.version, false)
        .iter()
        .map(|s| format!("{:?}", s.mode).to_lowercase())
        .collect();
    let read: Vec<_> = f.segments.iter().map(|s| s.mode.name().to_string()).collect();
    assert_eq!(read, encoder);
    assert!(read.len() >= 2, "{read:?}");
    assert_eq!(f.segments.last().map(|s| s.range.end), Some(text.len()));
}

/// `grey` as a PNG of `color` and `depth`, written by the `png` crate.
fn png_of(grey: &Grey, color: png::ColorType, depth: png::BitDepth) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, grey.width, grey.height);
    e.set_color(color);
    e.set_depth(depth);
    if color == png::ColorType::Indexed {
        e.set_palette(vec![0, 0, 0, 255, 255, 255]);
    }
    let sixteen = depth == png::BitDepth::Sixteen;
    let data: Vec<u8> = grey
        .pixels
        .iter()
        .flat_map(|&p| {
            let channels: Vec<u8> = match color {
                png::ColorType::Grayscale => vec![p],
                png::ColorType::GrayscaleAlpha => vec![p, 255],
                png::ColorType::Rgb => vec![p, p, p],
                png::ColorType::Rgba => vec![0, 0, 0, 255 - p],
                png::ColorType::Indexed => vec![(p > 127) as u8],
            };
            channels.into_iter().flat_map(move |c| if sixteen { vec![c, c] } else { vec![c] })
        })
        .collect();
    let data = if color == png::ColorType::Indexed {
        // One bit a pixel, rows padded to a byte.
        let w = grey.width as usize;
        data.chunks(w)
            .flat_map(|row| row.chunks(8).map(|b| b.iter().enumerate().fold(0u8, |a, (i, &v)| a | v << (7 - i))))
            .collect()
    } else {
        data
    };
    e.write_header().and_then(|mut w| w.write_image_data(&data)).expect("a PNG");
    out
}

#[test]
fn every_png_colour_type_and_depth_reads_to_the_code() {
    use png::{BitDepth as D, ColorType as C};
    let (_, grey) = draw("png kinds", EncodeOptions::default(), 3);
    for (color, depth) in [
        (C::Grayscale, D::Eight),
        (C::Grayscale, D::Sixteen),
        (C::GrayscaleAlpha, D::Eight),
        (C::Rgb, D::Eight),
        (C::Rgba, D::Sixteen),
        (C::Indexed, D::One),
    ] {
        let read = image::read(&png_of(&grey, color, depth), image::DEFAULT_MAX_PIXELS).expect("reads");
        assert_eq!(read.pixels.len(), grey.pixels.len(), "{color:?} {depth:?}");
        assert_eq!(decode(&read, &DecodeOptions::default())[0].bytes, b"png kinds", "{color:?} {depth:?}");
    }
}

/// A PNG with an `iCCP`, a `zTXt` or an `iTXt` chunk that inflates to 64 MiB: it reads, and
/// the reader holds none of them (they were skipped, not inflated, as the `image` crate's PNG
/// decoder inflates them).
#[test]
fn png_chunks_that_inflate_are_not_inflated() {
    let (_, grey) = draw("iccp", EncodeOptions::default(), 3);
    let png = png_of(&grey, png::ColorType::Grayscale, png::BitDepth::Eight);
    let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::best());
    let zeros = vec![0u8; 64 << 20];
    let mut z = vec![0u8; c.zlib_compress_bound(zeros.len())];
    let n = c.zlib_compress(&zeros, &mut z).expect("compresses");
    z.truncate(n);
    let chunk = |kind: &[u8], head: &[u8]| {
        let body: Vec<u8> = [kind, head, &z].concat();
        [&((body.len() - 4) as u32).to_be_bytes()[..], &body, &libdeflater::crc32(&body).to_be_bytes()].concat()
    };
    for extra in [chunk(b"iCCP", b"icc\0\0"), chunk(b"zTXt", b"Comment\0\0"), chunk(b"iTXt", b"Comment\0\x01\0\0\0")] {
        let bomb = [&png[..33], &extra, &png[33..]].concat();
        assert!(bomb.len() < 300_000, "{}", bomb.len());
        let read = image::read(&bomb, image::DEFAULT_MAX_PIXELS).expect("reads");
        assert_eq!(decode(&read, &DecodeOptions::default())[0].bytes, b"iccp");
        let reader = image::png_reader(&bomb, image::DEFAULT_MAX_PIXELS).expect("a header");
        let info = reader.info();
        assert!(info.icc_profile.is_none(), "the iCCP chunk was read");
        assert!(info.compressed_latin1_text.is_empty() && info.utf8_text.is_empty(), "a text chunk was read");
    }
}

/// `decode_until` asks `stop()` before each step and gives up at the first yes: a call
/// aborted while it runs frees its thread within one step. On a blank image every step runs
/// in every view (two binarizations × two polarities): with `tryHarder` the every-row search
/// and the detector (8 checks), then the same on each of three quarter turns (32 in all); by
/// default the row-skipping search too (12), then it alone on one quarter turn (16); stopping
/// at the k-th check makes exactly k checks.
#[test]
fn decode_until_stops_between_steps() {
    use super::{decode_until, Stopped};
    use std::cell::Cell;
    let blank = Grey { width: 200, height: 200, pixels: vec![255; 200 * 200] };
    for (options, steps) in
        [(DecodeOptions { try_harder: true, ..Default::default() }, 32), (DecodeOptions::default(), 16)]
    {
        let asked = Cell::new(0);
        let never = || {
            asked.set(asked.get() + 1);
            false
        };
        assert_eq!(decode_until(&blank, &options, &never).map(|found| found.len()), Ok(0));
        assert_eq!(asked.get(), steps, "checks on a blank image, {options:?}");
        for k in 1..=steps {
            let asked = Cell::new(0);
            let at_k = || {
                asked.set(asked.get() + 1);
                asked.get() == k
            };
            assert!(decode_until(&blank, &options, &at_k).is_err(), "stopped at check {k}");
            assert_eq!(asked.get(), k, "no step after the stop");
        }
    }
    // A code is still read when nothing stops it, and a stop before the first step reads none.
    let (_, grey) = draw("stop", EncodeOptions::default(), 3);
    assert_eq!(decode_until(&grey, &DecodeOptions::default(), &|| false).expect("not stopped")[0].bytes, b"stop");
    assert_eq!(decode_until(&grey, &DecodeOptions::default(), &|| true).err(), Some(Stopped));
}

#[test]
fn stages_say_where_a_decode_spent_its_time() {
    use super::{decode_timed, Stages};
    // A code: every stage took time, and the stages together are not more than the call.
    let (_, grey) = draw("where does the time go", EncodeOptions::default(), 4);
    let mut stages = Stages::default();
    let at = std::time::Instant::now();
    let found = decode_timed(&grey, &DecodeOptions::default(), &|| false, &mut stages).expect("not stopped");
    let whole = at.elapsed().as_nanos() as f64;
    assert_eq!(found[0].bytes, b"where does the time go");
    assert!(stages.binarize > 0.0 && stages.find > 0.0 && stages.decode > 0.0, "{stages:?}");
    assert!(stages.binarize + stages.find + stages.decode <= whole, "{stages:?} in {whole} ns");
    // Nothing to read: no grid is decoded, and the turned image's binarizing is counted.
    let blank = Grey { width: 300, height: 200, pixels: vec![255; 300 * 200] };
    let mut upright = Stages::default();
    super::search(&blank, &DecodeOptions::default(), &[Step::SkipRows], &|| false, &mut upright).unwrap();
    let mut stages = Stages::default();
    assert!(decode_timed(&blank, &DecodeOptions::default(), &|| false, &mut stages).unwrap().is_empty());
    assert_eq!(stages.decode, 0.0, "{stages:?}");
    assert!(stages.binarize > upright.binarize, "{stages:?} against {upright:?} upright");
}

/// Palette images of every depth (with and without `tRNS`, a palette shorter than the depth
/// allows, an index past the palette) and grey of 1, 2 and 4 bits, with odd widths so rows
/// end in padding bits, every filter: the same grey as the `png` crate's RGB(A) or grey
/// expansion through the same formulas, or the `png` crate's own answer where ours is none.
#[test]
fn packed_pngs_read_to_the_png_crates_pixels() {
    use png::{BitDepth as D, ColorType as C};
    let noise = |seed: u32, n: usize| super::noise(seed.into(), n);

    let theirs = |file: &[u8]| -> Vec<u8> {
        let mut d = png::Decoder::new(std::io::Cursor::new(file));
        d.set_transformations(png::Transformations::EXPAND);
        let mut r = d.read_info().expect("a PNG");
        let mut buf = vec![0; r.output_buffer_size().expect("sized")];
        let out = r.next_frame(&mut buf).expect("a frame");
        buf.truncate(out.buffer_size());
        let luma = |p: &[u8]| (54 * p[0] as u32 + 183 * p[1] as u32 + 19 * p[2] as u32 + 128) >> 8;
        let over = |y: u32, a: u32| ((y * a + 255 * (255 - a) + 127) / 255) as u8;
        match out.color_type {
            C::Grayscale => buf,
            C::Rgb => buf.chunks_exact(3).map(|p| luma(p) as u8).collect(),
            C::Rgba => buf.chunks_exact(4).map(|p| over(luma(p), p[3] as u32)).collect(),
            other => panic!("{other:?}"),
        }
    };
    let mut cases = 0;
    for (color, depth, bits) in [
        (C::Indexed, D::One, 1),
        (C::Indexed, D::Two, 2),
        (C::Indexed, D::Four, 4),
        (C::Indexed, D::Eight, 8),
        (C::Grayscale, D::One, 1),
        (C::Grayscale, D::Two, 2),
        (C::Grayscale, D::Four, 4),
    ] {
        for (width, height) in [(1u32, 1u32), (7, 3), (13, 9), (64, 5)] {
            for filter in
                [png::Filter::NoFilter, png::Filter::Sub, png::Filter::Up, png::Filter::Avg, png::Filter::Paeth]
            {
                for (entries, trns) in [(1usize << bits, 0usize), ((1 << bits) / 2 + 1, 3), (256, 300)] {
                    let entries = entries.min(256);
                    let seed = (width * 31 + height) ^ (bits * 977) as u32 ^ (entries as u32) << 12;
                    let stride = (width as usize * bits).div_ceil(8);
                    let mut data = noise(seed, stride * height as usize);
                    if color == C::Indexed && entries < 1 << bits && seed.is_multiple_of(2) {
                        // Indices within the palette only, unless the case asks for one past.
                        // Each sample's top bit cleared: below half the depth's range.
                        let keep = match bits {
                            1 => 0x00,
                            2 => 0x55,
                            4 => 0x77,
                            _ => 0x7f,
                        };
                        for b in &mut data {
                            *b &= keep;
                        }
                    }
                    let mut file = Vec::new();
                    let mut e = png::Encoder::new(&mut file, width, height);
                    e.set_color(color);
                    e.set_depth(depth);
                    e.set_filter(filter);
                    if color == C::Indexed {
                        e.set_palette(noise(seed ^ 7, entries * 3));
                        if trns > 0 {
                            e.set_trns(noise(seed ^ 9, trns.min(entries)));
                        }
                    }
                    e.write_header().and_then(|mut w| w.write_image_data(&data)).expect("a PNG");
                    // Read by our own path, not left to the `png` crate.
                    let info =
                        png::Decoder::new(std::io::Cursor::new(&file[..])).read_info().expect("a PNG").info().clone();
                    assert!(
                        super::png_rows::read(&file, &info, |_, _, _, _| 0).is_some(),
                        "{color:?} {depth:?} {width}×{height}"
                    );
                    let ours = image::read(&file, image::DEFAULT_MAX_PIXELS);
                    let want = std::panic::catch_unwind(|| theirs(&file)).ok();
                    match (ours, want) {
                        (Ok(grey), Some(want)) => {
                            assert_eq!((grey.width, grey.height), (width, height));
                            assert_eq!(
                                grey.pixels, want,
                                "{color:?} {depth:?} {width}×{height} {filter:?} {entries} entries"
                            );
                        }
                        (Err(_), None) => {}
                        (ours, want) => panic!(
                            "{color:?} {depth:?} {width}×{height}: ours {:?}, theirs {:?}",
                            ours.is_ok(),
                            want.is_some()
                        ),
                    }
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 7 * 4 * 5 * 3);
}

/// Finders drawn as separate dots (qr-code-styling's `cornersDot: 'dots'`, a ring of dots
/// too), four dot shapes, modules of 4 to 40 px: every code read, most of them only in the
/// closed view (at 4 px the dots blur into one and the plain search reads some).
#[test]
fn finders_of_separate_dots_read_in_the_closed_view() {
    use crate::qr::style::{draw, CentreShape, DotShape, ImageFormat, Layout, RingShape, Style};
    let text = "https://qr-native.example/styled?id=42";
    let m = qr::encode(&QrInput::Text(text), &EncodeOptions::default()).expect("encodes");
    let (mut read, mut drawn, mut upright) = (0, 0, 0);
    for (i, module) in [4.0, 5.0, 7.0, 10.0, 16.0, 25.0, 40.0].into_iter().enumerate() {
        for (j, dots) in [DotShape::Square, DotShape::Rounded, DotShape::Dots, DotShape::Classy].into_iter().enumerate()
        {
            let ring = if (i + j) % 3 == 0 { RingShape::Modules(DotShape::Dots) } else { RingShape::Square };
            if ring == RingShape::Modules(DotShape::Dots) && dots == DotShape::Dots {
                continue;
            }
            let mut style = Style::plain(crate::qr::render::Colour::BLACK, crate::qr::render::Colour::WHITE);
            style.dots = dots;
            style.ring = ring;
            style.centre = CentreShape::Modules(DotShape::Dots);
            let layout = Layout::new(m.size, 2, module, None, false).expect("a layout");
            let png = draw(&m, &style, layout, ImageFormat::Png, 90).expect("drawn");
            let grey = image::read(&png, 1 << 26).expect("read");
            let all = [Step::SkipRows, Step::EveryRow, Step::Detector];
            let options = DecodeOptions::default();
            if !search(&grey, &options, &all, &|| false, &mut Stages::default()).unwrap().is_empty() {
                upright += 1;
            }
            drawn += 1;
            let found = decode(&grey, &options);
            assert!(found.len() <= 1 && found.iter().all(|f| f.text.as_deref() == Some(text)), "{found:?}");
            read += found.len();
        }
    }
    assert_eq!(read, drawn, "{read} of {drawn} read");
    assert!(upright * 2 < drawn, "{upright} of {drawn} read by the search without closing");
}
