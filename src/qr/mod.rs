//! QR code encoding and rendering, with no JavaScript types: text or bytes in, a module
//! matrix out, then PNG, SVG or text from the matrix. Symbol choices (segments, version,
//! mask) follow the `qrcode` npm package so both produce identical modules.

pub mod bits;
pub mod deflate;
pub mod ec_budget;
pub mod generator;
pub mod mask;
pub mod matrix;
pub mod output;
pub mod png;
pub mod reed_solomon;
pub mod render;
pub mod segment;
pub mod style;
pub mod svg;
pub mod tables;
pub mod text;

use crate::error::{Error, ErrorKind, Result};
use bits::BitBuffer;
use segment::{KanjiTable, Mode, Segment};

/// Error-correction level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcLevel {
    L,
    M,
    Q,
    H,
}

impl EcLevel {
    /// Parses `'L' | 'M' | 'Q' | 'H' | 'low' | 'medium' | 'quartile' | 'high'` (any case).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "l" | "low" => Some(EcLevel::L),
            "m" | "medium" => Some(EcLevel::M),
            "q" | "quartile" => Some(EcLevel::Q),
            "h" | "high" => Some(EcLevel::H),
            _ => None,
        }
    }

    pub fn letter(self) -> &'static str {
        match self {
            EcLevel::L => "L",
            EcLevel::M => "M",
            EcLevel::Q => "Q",
            EcLevel::H => "H",
        }
    }
}

/// What to encode.
pub enum QrInput<'a> {
    /// Text, segmented automatically into numeric, alphanumeric and byte runs.
    Text(&'a str),
    /// Segments given by the caller, encoded as given (bytes are one byte segment).
    Segments(Vec<Segment<'a>>),
}

/// Symbol choices; `None` lets the encoder choose as `qrcode` does.
#[derive(Clone, Copy, Debug)]
pub struct EncodeOptions {
    pub level: EcLevel,
    /// Smallest version to use (1..=40).
    pub version: Option<u8>,
    /// Mask pattern (0..=7).
    pub mask: Option<u8>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self { level: EcLevel::M, version: None, mask: None }
    }
}

/// An encoded symbol: modules without quiet zone, row-major, 1 = dark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QrMatrix {
    pub version: u8,
    pub level: EcLevel,
    pub mask: u8,
    pub size: usize,
    pub modules: Vec<u8>,
}

impl QrMatrix {
    /// Whether the module at (`row`, `col`) is dark.
    pub fn is_dark(&self, row: usize, col: usize) -> bool {
        self.modules[row * self.size + col] == 1
    }
}

/// Largest input, in bytes, the encoder accepts before trying: 7089 numeric digits is the
/// most any QR code holds, so anything longer is rejected without work.
pub const MAX_INPUT_BYTES: usize = 7089;
/// Most bytes a byte-mode QR code holds (version 40, level L).
pub const MAX_INPUT_BYTE_MODE: usize = 2953;

fn capacity(version: u8, level: EcLevel, mode: Mode) -> usize {
    let usable = (tables::data_bits(version, level) - (mode.count_bits(version) as usize + 4)) as f64;
    // Floating point as in qrcode's Version.getCapacity, so boundary cases agree.
    (match mode {
        Mode::Numeric => (usable / 10.0) * 3.0,
        Mode::Alphanumeric => (usable / 11.0) * 2.0,
        Mode::Kanji => usable / 13.0,
        Mode::Byte => usable / 8.0,
    })
    .floor() as usize
}

fn total_bits(segments: &[Segment], version: u8) -> usize {
    segments.iter().map(|s| 4 + s.mode.count_bits(version) as usize + s.data_bits()).sum()
}

/// The smallest version holding `segments` at `level`, decided as qrcode decides it.
pub fn best_version(segments: &[Segment], level: EcLevel) -> Option<u8> {
    match segments {
        [] => Some(1),
        [one] => (1..=40).find(|&v| one.char_count() <= capacity(v, level, one.mode)),
        _ => (1..=40).find(|&v| total_bits(segments, v) <= tables::data_bits(v, level)),
    }
}

fn too_long(level: EcLevel, segments: &[Segment]) -> Error {
    let need = total_bits(segments, 40);
    Error::new(
        ErrorKind::DataTooLong,
        format!(
            "input is too long for a QR code at error-correction level {}: it needs {need} bits, \
             the largest code (version 40) holds {} bits",
            level.letter(),
            tables::data_bits(40, level)
        ),
    )
}

/// Encodes `input` into a symbol. Cost: linear in the input plus 8 mask evaluations over
/// the symbol's modules (one when `mask` is given).
pub fn encode(input: &QrInput, options: &EncodeOptions) -> Result<QrMatrix> {
    encode_symbol(input, options, None).map(|s| s.matrix)
}

/// A symbol with what the `qrcode` package also reports: which modules are function
/// patterns, and the segments the data was split into.
pub struct Symbol<'a> {
    pub matrix: QrMatrix,
    /// Row-major, 1 = function module (never masked).
    pub reserved: Vec<u8>,
    pub segments: Vec<Segment<'a>>,
}

/// The segments `encode` would use for `input`: automatic for text, as given otherwise.
fn segments_for<'a>(input: &QrInput<'a>, options: &EncodeOptions, kanji: bool) -> Result<Vec<Segment<'a>>> {
    Ok(match input {
        QrInput::Text(text) => {
            if text.len() > MAX_INPUT_BYTES * 4 {
                return Err(Error::new(
                    ErrorKind::DataTooLong,
                    format!(
                        "input is too long for a QR code: {} bytes, no QR code holds more than 7089 characters",
                        text.len()
                    ),
                ));
            }
            let level = options.level;
            let runs = segment::Runs::of(text, kanji);
            let estimate = options.version.or_else(|| best_version(&runs.raw(), level));
            runs.optimal(estimate.unwrap_or(40))
        }
        QrInput::Segments(segments) => segments.clone(),
    })
}

/// The smallest version that holds `input` at `options.level`, `None` when none does.
pub fn min_version(input: &QrInput, options: &EncodeOptions, kanji: Option<&KanjiTable>) -> Result<Option<u8>> {
    let segments = segments_for(input, options, kanji.is_some())?;
    Ok(best_version(&segments, options.level))
}

/// `encode`, with kanji mode on when `kanji` gives Shift JIS values, returning the details.
pub fn encode_symbol<'a>(
    input: &QrInput<'a>,
    options: &EncodeOptions,
    kanji: Option<&KanjiTable>,
) -> Result<Symbol<'a>> {
    let level = options.level;
    let segments = segments_for(input, options, kanji.is_some())?;
    let Some(min_version) = best_version(&segments, level) else {
        return Err(too_long(level, &segments));
    };
    let version = match options.version {
        None => min_version,
        Some(v) if v < min_version => {
            return Err(Error::new(
                ErrorKind::DataTooLong,
                format!(
                    "input does not fit version {v} at error-correction level {}: the smallest version that holds it is {min_version}",
                    level.letter()
                ),
            ))
        }
        Some(v) => v,
    };
    let codewords = codewords(&segments, version, level, kanji)?;
    let mut grid = matrix::ModuleGrid::new(version);
    grid.place_data(&codewords);
    let mask = match options.mask {
        Some(m) => m,
        None => mask::best(&grid, level),
    };
    mask::apply(&mut grid, mask);
    grid.place_format(level, mask);
    Ok(Symbol {
        matrix: QrMatrix { version, level, mask, size: grid.size, modules: grid.modules },
        reserved: grid.reserved,
        segments,
    })
}

fn write_segment(buffer: &mut BitBuffer, segment: &Segment, version: u8, kanji: Option<&KanjiTable>) -> Result<()> {
    buffer.put(segment.mode.indicator(), 4);
    buffer.put(segment.char_count() as u32, segment.mode.count_bits(version));
    let data = &segment.data;
    match segment.mode {
        Mode::Numeric => {
            for group in data.chunks(3) {
                let value = group.iter().fold(0u32, |acc, &d| acc * 10 + (d - b'0') as u32);
                buffer.put(value, group.len() as u32 * 3 + 1);
            }
        }
        Mode::Alphanumeric => {
            for pair in data.chunks(2) {
                let value = |c: u8| segment::alphanumeric_value(c).unwrap_or(0);
                match pair {
                    [a, b] => buffer.put(value(*a) * 45 + value(*b), 11),
                    [a] => buffer.put(value(*a), 6),
                    _ => unreachable!("chunks(2) yields one or two bytes"),
                }
            }
        }
        Mode::Byte => {
            for &b in data.iter() {
                buffer.put(b as u32, 8);
            }
        }
        Mode::Kanji => {
            let text = std::str::from_utf8(data).map_err(|_| Error::invalid_value("kanji data must be text"))?;
            let table = kanji.ok_or_else(|| Error::invalid_value("kanji mode needs Shift JIS values"))?;
            for c in text.chars() {
                buffer.put(table.value(c)?, 13);
            }
        }
    }
    Ok(())
}

/// Data codewords with padding, split into blocks, each followed by its Reed–Solomon
/// codewords, interleaved as the standard (and qrcode) orders them.
fn codewords(segments: &[Segment], version: u8, level: EcLevel, kanji: Option<&KanjiTable>) -> Result<Vec<u8>> {
    let data_bits = tables::data_bits(version, level);
    let mut buffer = BitBuffer::with_capacity(data_bits);
    for segment in segments {
        write_segment(&mut buffer, segment, version, kanji)?;
    }
    if buffer.len() + 4 <= data_bits {
        buffer.put(0, 4);
    }
    while !buffer.len().is_multiple_of(8) {
        buffer.put_bit(false);
    }
    let mut data = buffer.into_bytes();
    let data_len = data_bits / 8;
    let mut pad = [0xEC, 0x11].into_iter().cycle();
    while data.len() < data_len {
        data.push(pad.next().unwrap_or(0xEC));
    }

    let total = tables::total_codewords(version);
    let blocks = tables::ec_blocks(version, level);
    let group2 = total % blocks;
    let group1 = blocks - group2;
    let data_g1 = data_len / blocks;
    let ec_len = total / blocks - data_g1;

    let mut out = vec![0u8; total];
    let mut ec = Vec::with_capacity(ec_len);
    let mut offset = 0;
    for b in 0..blocks {
        let size = if b < group1 { data_g1 } else { data_g1 + 1 };
        let block = &data[offset..offset + size];
        // Data codeword i of block b lands at i * blocks + b, shifted for the short blocks.
        for (i, &byte) in block.iter().enumerate() {
            let pos = if i < data_g1 { i * blocks + b } else { data_g1 * blocks + (b - group1) };
            out[pos] = byte;
        }
        reed_solomon::encode_into(block, ec_len, &mut ec);
        for (i, &byte) in ec.iter().enumerate() {
            out[data_len + i * blocks + b] = byte;
        }
        offset += size;
    }
    Ok(out)
}

/// Codewords of `input` at a forced version, for tests of later stages.
#[cfg(test)]
pub fn codewords_for_test(input: &QrInput, version: u8, level: EcLevel) -> Vec<u8> {
    let segments = match input {
        QrInput::Text(t) => segment::optimal_segments(t, version, false),
        QrInput::Segments(s) => s.clone(),
    };
    codewords(&segments, version, level, None).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standards_example_encodes_to_version_1() {
        let m = encode(&QrInput::Text("01234567"), &EncodeOptions::default()).unwrap();
        assert_eq!((m.version, m.size), (1, 21));
    }

    #[test]
    fn a_forced_version_that_is_too_small_is_data_too_long() {
        let text = "x".repeat(100);
        let opts = EncodeOptions { version: Some(1), ..Default::default() };
        let err = encode(&QrInput::Text(&text), &opts).unwrap_err();
        assert_eq!(err.kind, ErrorKind::DataTooLong);
    }

    /// Decodes a matrix with `rqrr`, a Rust QR decoder we did not write.
    fn decode(m: &QrMatrix) -> Vec<u8> {
        let (margin, scale) = (4, 3);
        let side = (m.size + 2 * margin) * scale;
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            let (mx, my) = ((x / scale).wrapping_sub(margin), (y / scale).wrapping_sub(margin));
            if mx < m.size && my < m.size && m.is_dark(my, mx) {
                0
            } else {
                255
            }
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one code found");
        let mut out = Vec::new();
        grids[0].decode_to(&mut out).expect("rqrr decodes it");
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        #[test]
        fn any_text_round_trips_through_a_decoder(text in "[ -~]{1,120}|[0-9]{1,200}|[A-Z0-9 $%*+./:-]{1,150}|\\PC{1,40}", level in 0..4usize) {
            let level = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H][level];
            let m = encode(&QrInput::Text(&text), &EncodeOptions { level, ..Default::default() }).unwrap();
            proptest::prop_assert_eq!(decode(&m), text.as_bytes().to_vec());
        }

        #[test]
        fn any_bytes_round_trip_in_byte_mode(bytes in proptest::collection::vec(0u8..=255, 1..150), mask in 0..8u8) {
            let input = QrInput::Segments(vec![Segment { mode: Mode::Byte, data: std::borrow::Cow::Borrowed(&bytes) }]);
            let m = encode(&input, &EncodeOptions { mask: Some(mask), ..Default::default() }).unwrap();
            proptest::prop_assert_eq!(m.mask, mask);
            proptest::prop_assert_eq!(decode(&m), bytes);
        }
    }

    #[test]
    fn capacity_of_version_40_low_is_2953_bytes() {
        let fits = "a".repeat(2953);
        let over = "a".repeat(2954);
        let opts = EncodeOptions { level: EcLevel::L, ..Default::default() };
        assert_eq!(encode(&QrInput::Text(&fits), &opts).unwrap().version, 40);
        assert_eq!(encode(&QrInput::Text(&over), &opts).unwrap_err().kind, ErrorKind::DataTooLong);
    }
}
