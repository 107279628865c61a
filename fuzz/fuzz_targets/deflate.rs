//! The row writer on any bytes and any row length: its zlib stream inflates, with a decoder
//! we did not write (`miniz_oxide`, checking the Adler-32), back to exactly those bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qr_native::qr::deflate::{fits_window, zlib_rows};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    // Row lengths from 1 to 256 (most QR images' rows), and 4 KiB and the window's edge.
    let line = match first {
        254 => 4097,
        255 => 32_768,
        n => n as usize + 1,
    };
    assert!(fits_window(line));
    let mut out = Vec::new();
    zlib_rows(rest, line, &mut out);
    let back = miniz_oxide::inflate::decompress_to_vec_zlib(&out).expect("our zlib stream inflates");
    assert_eq!(back, rest);
});
