//! The symbol `qrcode-generator` (the encoder qr-code-styling uses) makes for one segment:
//! the smallest version that holds it (or the caller's), and the mask its "lost point" score
//! picks, first of the lowest. The codewords and placement are the standard's, as ours are;
//! only the mask choice differs from `qrcode`'s penalty. `qr-native/styling` draws these
//! modules, so that it shows what qr-code-styling shows.

use super::matrix::format_cells;
use super::segment::{Mode, Segment};
use super::{best_version, encode, EcLevel, EncodeOptions, QrInput, QrMatrix};
use crate::error::{Error, ErrorKind, Result};

/// qrcode-generator's `getLostPoint` for a symbol, scored as it scores it while it picks the
/// mask: with the format and version information (and the dark module) not yet written,
/// that is light.
pub fn lost_point(m: &QrMatrix) -> f64 {
    let n = m.size;
    let mut modules = m.modules.clone();
    for i in 0..15 {
        for (r, c) in format_cells(n, i) {
            modules[r * n + c] = 0;
        }
    }
    modules[(n - 8) * n + 8] = 0;
    if m.version >= 7 {
        for i in 0..18 {
            let (a, b) = (i / 3, i % 3 + n - 11);
            modules[a * n + b] = 0;
            modules[b * n + a] = 0;
        }
    }
    let dark = |r: usize, c: usize| modules[r * n + c] == 1;
    let mut points = 0.0;
    for r in 0..n {
        for c in 0..n {
            let s = dark(r, c);
            let mut same = 0;
            for dr in -1isize..=1 {
                for dc in -1isize..=1 {
                    let (rr, cc) = (r as isize + dr, c as isize + dc);
                    if (dr, dc) == (0, 0) || rr < 0 || cc < 0 || rr >= n as isize || cc >= n as isize {
                        continue;
                    }
                    if dark(rr as usize, cc as usize) == s {
                        same += 1;
                    }
                }
            }
            if same > 5 {
                points += (3 + same - 5) as f64;
            }
        }
    }
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            let d = dark(r, c) as u8 + dark(r + 1, c) as u8 + dark(r, c + 1) as u8 + dark(r + 1, c + 1) as u8;
            if d == 0 || d == 4 {
                points += 3.0;
            }
        }
    }
    let finder = |at: &dyn Fn(usize) -> bool| at(0) && !at(1) && at(2) && at(3) && at(4) && !at(5) && at(6);
    for r in 0..n {
        for c in 0..n - 6 {
            if finder(&|k| dark(r, c + k)) {
                points += 40.0;
            }
        }
    }
    for c in 0..n {
        for r in 0..n - 6 {
            if finder(&|k| dark(r + k, c)) {
                points += 40.0;
            }
        }
    }
    let count = modules.iter().filter(|&&v| v == 1).count() as f64;
    points + (100.0 * count / n as f64 / n as f64 - 50.0).abs() / 5.0 * 10.0
}

/// The symbol qrcode-generator makes for `data` in `mode` at `level`: `type_number` 0 picks
/// the smallest version that holds it; a version too small is `ERR_QR_DATA_TOO_LONG`.
pub fn symbol(data: &[u8], mode: Mode, level: EcLevel, type_number: u8) -> Result<QrMatrix> {
    let segments = vec![Segment { mode, data: std::borrow::Cow::Borrowed(data) }];
    let fitting = best_version(&segments, level)
        .ok_or_else(|| Error::new(ErrorKind::DataTooLong, "The data does not fit any QR code at this level"))?;
    let version = match type_number {
        0 => fitting,
        v if v >= fitting => v,
        v => {
            return Err(Error::new(
                ErrorKind::DataTooLong,
                format!(
                    "The data does not fit a QR code of type {v} at level {}: it needs type {fitting}",
                    level.letter()
                ),
            ))
        }
    };
    let mut best: Option<(f64, QrMatrix)> = None;
    for mask in 0..8u8 {
        let input = QrInput::Segments(segments.clone());
        let m = encode(&input, &EncodeOptions { level, version: Some(version), mask: Some(mask) })?;
        let score = lost_point(&m);
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m).ok_or_else(|| Error::new(ErrorKind::Internal, "no mask"))
}
