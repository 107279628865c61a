//! The encoder on any data and any valid options: it never panics, a symbol it returns has
//! the shape its version says, and data that fits version 40 is never refused.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qr_native::error::ErrorKind;
use qr_native::qr::segment::{Mode, Segment};
use qr_native::qr::{encode_symbol, EcLevel, EncodeOptions, QrInput};

#[derive(Arbitrary, Debug)]
struct Case {
    level: u8,
    /// 0 = chosen by the encoder, else 1..=40.
    version: u8,
    /// 8 = chosen by penalty, else 0..=7.
    mask: u8,
    /// Text (segmented by the encoder) or bytes (one byte segment).
    as_text: bool,
    data: Vec<u8>,
}

fuzz_target!(|case: Case| {
    let level = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H][case.level as usize % 4];
    let version = match case.version % 41 {
        0 => None,
        v => Some(v),
    };
    let mask = match case.mask % 9 {
        8 => None,
        m => Some(m),
    };
    let options = EncodeOptions { level, version, mask };
    let text = String::from_utf8_lossy(&case.data);
    let input = if case.as_text {
        QrInput::Text(&text)
    } else {
        QrInput::Segments(vec![Segment { mode: Mode::Byte, data: std::borrow::Cow::Borrowed(&case.data) }])
    };
    match encode_symbol(&input, &options, None) {
        Ok(symbol) => {
            let m = symbol.matrix;
            assert!((1..=40).contains(&m.version));
            assert!(version.is_none_or(|v| m.version >= v));
            assert_eq!(m.size, 17 + 4 * m.version as usize);
            assert_eq!(m.modules.len(), m.size * m.size);
            assert!(m.modules.iter().all(|&b| b <= 1));
            assert!(mask.is_none_or(|k| m.mask == k));
        }
        Err(e) => {
            // Only too much data (or nothing at all) is refused: bytes that fit version 40 at
            // this level always encode.
            assert!(e.kind == ErrorKind::DataTooLong || case.data.is_empty(), "{e:?}");
            let byte_capacity = [2953, 2331, 1663, 1273][case.level as usize % 4];
            let fits = !case.as_text && version.is_none() && !case.data.is_empty() && case.data.len() <= byte_capacity;
            assert!(!fits, "{} bytes refused at {level:?}: {e:?}", case.data.len());
        }
    }
});
