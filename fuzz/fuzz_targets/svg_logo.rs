//! SVG logos: any text that reads as SVG is refused by a budget or parsed, and what is
//! parsed draws at any size without a panic, in a time its budget bounds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qr_native::qr::style::logo;

fuzz_target!(|data: &[u8]| {
    // A prefix that makes the bytes an SVG, so every input reaches the SVG reader.
    let mut file = b"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" ".to_vec();
    file.extend_from_slice(data);
    let Ok(image) = logo::decode_for_embedding(&file) else { return };
    assert!(image.vector.is_some());
    for (w, h) in [(1, 1), (37, 91), (200, 120)] {
        let pixels = image.resized(w, h).expect("a parsed SVG draws");
        assert_eq!(pixels.len(), (w * h * 4) as usize);
    }
});
