//! Plain PNG files built around any filtered rows, read by `decode`'s image reader (which
//! inflates and unfilters the plain case itself, `src/decode/png_rows.rs`) and by the `png`
//! crate: both read the file or both refuse it, and grey images read to the same pixels.
//! The rows' filter bytes are any byte, the stream may be cut short or run long, and the
//! image data may be split into chunks of any size, each with a right or a wrong CRC: every
//! way the reader's own path either reads the file or leaves it to the `png` crate. Palette
//! images (1–8 bits, a palette of any length, with or without `tRNS`) and grey of 1–4 bits
//! read to the grey the `png` crate's expansion gives through the same formulas.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::decode::image;
use qr_native::error::ErrorKind;
use qr_native::qr::png::chunk;

#[derive(Arbitrary, Debug)]
struct Case {
    width: u8,
    height: u8,
    /// Grey, grey and alpha, RGB, RGBA; then palette and grey of 1, 2 or 4 bits.
    colour: u8,
    /// Bits a sample of the packed kinds: 1, 2, 4 or 8 (palette).
    depth: u8,
    /// Palette entries, 1 + this; `tRNS` entries, if any.
    entries: u8,
    trns: Option<u8>,
    /// Filter bytes 0–4 only (else any byte).
    valid_filters: bool,
    /// Bytes dropped from (negative) or added to the end of the filtered rows.
    length_change: i8,
    /// Image data chunk size, 1 + this.
    chunk: u16,
    /// The chunk whose CRC is made wrong, if any.
    bad_crc: Option<u8>,
    level: u8,
    rows: Vec<u8>,
}

fuzz_target!(|case: Case| {
    let (w, h) = (case.width as usize % 48 + 1, case.height as usize % 48 + 1);
    let (colour_type, channels) = [(0u8, 1), (4, 2), (2, 3), (6, 4), (3, 1), (0, 1)][case.colour as usize % 6];
    let packed = case.colour as usize % 6 >= 4;
    let depth = match (packed, colour_type) {
        (false, _) => 8,
        (true, 3) => [1, 2, 4, 8][case.depth as usize % 4],
        (true, _) => [1, 2, 4][case.depth as usize % 3],
    };
    let stride = (w * channels * depth).div_ceil(8);
    let len = ((h * (stride + 1)) as isize + case.length_change as isize).max(0) as usize;
    let mut rows: Vec<u8> = case.rows.iter().copied().cycle().take(len).collect();
    rows.resize(len, 0);
    if case.valid_filters {
        for y in 0..h {
            if let Some(f) = rows.get_mut(y * (stride + 1)) {
                *f %= 5;
            }
        }
    }
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&rows, case.level % 10);
    let mut file = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[depth as u8, colour_type, 0, 0, 0]);
    chunk(&mut file, b"IHDR", &ihdr);
    if colour_type == 3 {
        let entries = case.entries as usize + 1;
        let palette: Vec<u8> = case
            .rows
            .iter()
            .rev()
            .copied()
            .cycle()
            .take(entries * 3)
            .chain(std::iter::repeat(7))
            .take(entries * 3)
            .collect();
        chunk(&mut file, b"PLTE", &palette);
        if let Some(n) = case.trns {
            let alpha: Vec<u8> = (0..n as usize).map(|i| (i * 37) as u8).collect();
            chunk(&mut file, b"tRNS", &alpha);
        }
    }
    for (i, part) in data.chunks(case.chunk as usize + 1).enumerate() {
        chunk(&mut file, b"IDAT", part);
        if case.bad_crc == Some(i as u8) {
            let last = file.len() - 1;
            file[last] ^= 1;
        }
    }
    chunk(&mut file, b"IEND", &[]);

    let ours = image::read(&file, 1 << 20);
    let theirs = (|| {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(&file[..]));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().ok()?;
        let mut buf = vec![0; reader.output_buffer_size()?];
        let out = reader.next_frame(&mut buf).ok()?;
        buf.truncate(out.buffer_size());
        let luma = |p: &[u8]| (54 * p[0] as u32 + 183 * p[1] as u32 + 19 * p[2] as u32 + 128) >> 8;
        let over = |y: u32, a: u32| ((y * a + 255 * (255 - a) + 127) / 255) as u8;
        Some(match (colour_type, out.color_type) {
            (3, png::ColorType::Rgb) => buf.chunks_exact(3).map(|p| luma(p) as u8).collect(),
            (3, png::ColorType::Rgba) => buf.chunks_exact(4).map(|p| over(luma(p), p[3] as u32)).collect(),
            _ => buf,
        })
    })();
    match (&ours, &theirs) {
        (Ok(grey), Some(pixels)) => {
            assert_eq!((grey.width as usize, grey.height as usize), (w, h));
            if channels == 1 {
                assert_eq!(&grey.pixels, pixels, "grey pixels differ (colour type {colour_type}, {depth} bits)");
            }
        }
        (Err(e), None) => assert_eq!(e.kind, ErrorKind::InvalidArgValue, "{e:?}"),
        _ => panic!(
            "the png crate and ours disagree: ours {:?}, theirs read it: {}",
            ours.as_ref().err(),
            theirs.is_some()
        ),
    }
});
