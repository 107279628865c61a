//! Plain PNG files built around any filtered rows, read by `decode`'s image reader (which
//! inflates and unfilters the plain case itself, `src/decode/png_rows.rs`) and by the `png`
//! crate: both read the file or both refuse it, and grey images read to the same pixels.
//! The rows' filter bytes are any byte, the stream may be cut short or run long, and the
//! image data may be split into chunks of any size, each with a right or a wrong CRC: every
//! way the reader's own path either reads the file or leaves it to the `png` crate.
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
    /// Grey, grey and alpha, RGB, RGBA.
    colour: u8,
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
    let (colour_type, channels) = [(0u8, 1), (4, 2), (2, 3), (6, 4)][case.colour as usize % 4];
    let stride = w * channels;
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
    ihdr.extend_from_slice(&[8, colour_type, 0, 0, 0]);
    chunk(&mut file, b"IHDR", &ihdr);
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
        Some(buf)
    })();
    match (&ours, &theirs) {
        (Ok(grey), Some(pixels)) => {
            assert_eq!((grey.width as usize, grey.height as usize), (w, h));
            if channels == 1 {
                assert_eq!(&grey.pixels, pixels, "grey pixels differ");
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
