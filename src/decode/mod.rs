//! Reading QR codes from pixels. The engine is rxing's port of zxing-cpp's QR reader (chosen
//! by measurement: `bench/decode-engines`); this module decides which passes to run over an
//! image (two binarizers, both polarities), and reads what the reader does not report (mask,
//! level, version) from the sampled module grid itself.
//!
//! Nothing here knows JavaScript; `image` turns files into the grey pixels `decode` takes.

mod binarize;
mod close;
pub mod image;
mod luma;
mod png_rows;
pub mod segments;

use crate::error::{Error, ErrorKind};
use crate::qr::matrix::{format_bits, format_cells};
use crate::qr::EcLevel;
use rxing::common::{BitMatrix, DetectorRXingResult, PerspectiveTransform, Quadrilateral};
use rxing::qrcode::cpp_port::{decoder, detector};
use rxing::qrcode::decoder::QRCodeDecoderMetaData;
use rxing::Point as RxPoint;

/// Refuses `width × height` over `max_pixels`.
pub fn check_pixels(width: u64, height: u64, max_pixels: u64) -> crate::error::Result<()> {
    let pixels = width * height;
    if pixels > max_pixels {
        return Err(Error::new(
            ErrorKind::OutOfRange,
            format!(
                "The argument 'image' is {width} × {height} = {pixels} pixels, over options.maxPixels ({max_pixels}); nothing was decoded"
            ),
        ));
    }
    Ok(())
}

/// Grey pixels, one byte each (0 = black), row-major.
pub struct Grey {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// How hard to look, and where.
#[derive(Clone, Copy, Debug, Default)]
pub struct DecodeOptions {
    /// `Some(false)`: dark codes on light only; `Some(true)`: light on dark only;
    /// `None`: dark on light, then light on dark if the first found nothing.
    pub inverted: Option<bool>,
    /// Run every pass and keep every code any of them finds, instead of stopping at the
    /// first pass that finds one.
    pub try_harder: bool,
    /// The image is one clean code (a generated image): try the fast pure-symbol path first.
    pub pure: bool,
}

/// A point in image pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// One code read from an image.
#[derive(Clone, Debug)]
pub struct Found {
    /// The payload: every segment's bytes in order (numeric and alphanumeric segments as their
    /// ASCII characters, Kanji as Shift JIS), without mode or ECI headers.
    pub bytes: Vec<u8>,
    /// The payload as text: each segment under its charset (see `segments`); `None` only
    /// when an ECI names a charset the bytes are not valid in, or none we know, or binary.
    pub text: Option<String>,
    /// The data segments, each with the range of `bytes` it holds; empty when the data
    /// codewords could not be read again to find them (then `text` is inferred from the bytes as a whole).
    pub segments: Vec<segments::Segment>,
    pub version: u8,
    pub level: EcLevel,
    pub mask: u8,
    /// Top-left, top-right, bottom-right, bottom-left corners of the symbol (without its quiet
    /// zone), as the code reads, in image pixels.
    pub corners: [Point; 4],
}

impl Found {
    fn centre(&self) -> Point {
        let (x, y) = self.corners.iter().fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
        Point { x: x / 4.0, y: y / 4.0 }
    }

    /// The symbol's side in pixels, roughly (the mean of its two diagonals over √2).
    fn side(&self) -> f32 {
        let d = |a: Point, b: Point| ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
        (d(self.corners[0], self.corners[2]) + d(self.corners[1], self.corners[3])) / (2.0 * std::f32::consts::SQRT_2)
    }
}

#[derive(Clone, Copy)]
enum Binarize {
    /// Local thresholds over 8×8 blocks: uneven light, shadows.
    Hybrid = 0,
    /// One threshold per row from the histogram: blur and low resolution.
    Global = 1,
}

/// One way of looking for codes in one binarized view, from the cheapest.
#[derive(Clone, Copy, PartialEq)]
enum Step {
    /// The whole image is one clean symbol (`pure`).
    Pure,
    /// zxing-cpp's finder search on rows a few modules apart.
    SkipRows,
    /// The same on every row.
    EveryRow,
    /// ZXing's own detector: another route to the finder patterns, one code at most.
    Detector,
}

/// Where one decode spent its time, in nanoseconds (the bench's per-stage table).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stages {
    /// Making the binarized views (the inverse included), and turning the image when nothing
    /// read upright.
    pub binarize: f64,
    /// Looking for finder patterns, grouping them and sampling the grids.
    pub find: f64,
    /// Reading the sampled grids: error correction, segments, format.
    pub decode: f64,
}

/// Every code in `grey`, in reading order (top to bottom, then left to right); empty if none.
pub fn decode(grey: &Grey, options: &DecodeOptions) -> Vec<Found> {
    decode_until(grey, options, &|| false).unwrap_or_default()
}

/// `stop()` said to stop: the work was given up between two steps.
#[derive(Debug, PartialEq)]
pub struct Stopped;

/// `decode`, asking `stop()` before each step (one way of looking in one view, `Step`) and
/// giving up with `Err(Stopped)` once it says yes: an aborted call frees its thread within
/// one step, not after every pass.
///
/// The views are the two binarizations (global, then hybrid) dark on light, then both light
/// on dark, as far as `inverted` allows. By default the cheapest step runs in every view
/// before the next step runs in any, and the first step that reads a code ends the search:
/// a code only one binarizer or the inverse shows is found by the cheap row-skipping search
/// there, before the costly every-row search and detector run where it is not. Of the orders
/// tried on `bench/decode-images` (the same codes read each way), binarizer by binarizer was
/// the slowest, and both binarizations dark on light before either light on dark the fastest.
/// The global binarization goes first since it is the cheaper (`binarize::global`): one
/// threshold leaves the flat parts of a noisy image flat, where the hybrid one's local
/// thresholds speckle them and its finder search costs several times as much. The decode
/// bench's stage table and `bench/decode-engines` (`cargo run --release -- 30`) measure it.
/// `tryHarder` runs every step in every view and keeps every code any of them reads.
///
/// When nothing is found, the image turned a quarter turn is binarized and searched again
/// (the row-skipping search; with `tryHarder`, every row and ZXing's detector, at each of the
/// three turns until one reads): both binarizers work along rows
/// and in blocks anchored at the top left, so a code photographed at 90° can come out of them
/// past correction where the same photograph upright does not (zxing-cpp's blackbox set:
/// `qrcode-1/13.webp` at 90°, `qrcode-3/40.webp` at 270°, `qrcode-2/28.webp` at 90° and 270°;
/// each read turned; `qrcode-2/12.webp`, artwork over the modules, reads only at 270°). It
/// costs only images where the first search found nothing.
pub fn decode_until(grey: &Grey, options: &DecodeOptions, stop: &dyn Fn() -> bool) -> Result<Vec<Found>, Stopped> {
    decode_timed(grey, options, stop, &mut Stages::default())
}

/// `decode_until`, adding the time each stage took to `stages`.
pub fn decode_timed(
    grey: &Grey,
    options: &DecodeOptions,
    stop: &dyn Fn() -> bool,
    stages: &mut Stages,
) -> Result<Vec<Found>, Stopped> {
    let all = [Step::SkipRows, Step::EveryRow, Step::Detector];
    let mut views = Views { grey, bits: Default::default(), stages };
    let found = search_in(&mut views, options, &all, stop)?;
    if !found.is_empty() {
        return Ok(found);
    }
    let found = read_turned(grey, options, stop, views.stages)?;
    if !found.is_empty() {
        return Ok(found);
    }
    views.read_closed(options.inverted == Some(true), stop)
}

/// The search of `decode_until` on `grey` turned: one quarter turn in the fast mode; with
/// `tryHarder`, each of the three in turn until one reads. Corners come back in `grey`'s pixels.
fn read_turned(
    grey: &Grey,
    options: &DecodeOptions,
    stop: &dyn Fn() -> bool,
    stages: &mut Stages,
) -> Result<Vec<Found>, Stopped> {
    let (turns, steps): (usize, &[Step]) =
        if options.try_harder { (3, &[Step::EveryRow, Step::Detector]) } else { (1, &[Step::SkipRows]) };
    let options = DecodeOptions { pure: false, ..*options };
    let mut heights = vec![grey.height];
    let timed_turn = |grey: &Grey, stages: &mut Stages| {
        let at = std::time::Instant::now();
        let turned = turn(grey);
        stages.binarize += at.elapsed().as_nanos() as f64;
        turned
    };
    let mut turned = timed_turn(grey, stages);
    let mut found = Vec::new();
    for k in 1..=turns {
        found = search(&turned, &options, steps, stop, stages)?;
        if !found.is_empty() || k == turns {
            break;
        }
        heights.push(turned.height);
        turned = timed_turn(&turned, stages);
    }
    for code in &mut found {
        for p in &mut code.corners {
            *p = unturn(*p, &heights);
        }
    }
    Ok(reading_order(found))
}

/// A point of an image turned `heights.len()` times back in the first: `turn` moved the pixel
/// at (x, y) of an image `height` px high to (height − 1 − y, x), so a point (x, y) of the
/// turned image was at (y, height − x); `heights` holds each image's height before its turn.
fn unturn(p: Point, heights: &[u32]) -> Point {
    heights.iter().rev().fold(p, |p, &height| Point { x: p.y, y: height as f32 - p.x })
}

/// `grey` turned a quarter turn clockwise: the pixel at (x, y) moves to (height − 1 − y, x).
fn turn(grey: &Grey) -> Grey {
    let (w, h) = (grey.width as usize, grey.height as usize);
    let mut pixels = vec![0u8; w * h];
    for (y, row) in grey.pixels.chunks_exact(w.max(1)).enumerate() {
        for (x, &v) in row.iter().enumerate() {
            pixels[x * h + (h - 1 - y)] = v;
        }
    }
    Grey { width: grey.height, height: grey.width, pixels }
}

/// One search of `grey`: `steps` (after `Pure` when asked) in every view, as `decode_until`
/// describes.
fn search(
    grey: &Grey,
    options: &DecodeOptions,
    steps: &[Step],
    stop: &dyn Fn() -> bool,
    stages: &mut Stages,
) -> Result<Vec<Found>, Stopped> {
    search_in(&mut Views { grey, bits: Default::default(), stages }, options, steps, stop)
}

/// `search` in `views`, which keeps the views it makes.
fn search_in(
    views: &mut Views,
    options: &DecodeOptions,
    steps: &[Step],
    stop: &dyn Fn() -> bool,
) -> Result<Vec<Found>, Stopped> {
    let polarities: &[bool] = match options.inverted {
        Some(false) => &[false],
        Some(true) => &[true],
        None => &[false, true],
    };
    // Dark on light in both binarizations, then light on dark: a code only one binarizer
    // shows (blur, noise, shadows) is more common than an inverted one, and the inverse of a
    // noisy image costs as much to search as the image (measured: see above).
    let order: Vec<(Binarize, bool)> =
        polarities.iter().flat_map(|&inverted| [Binarize::Global, Binarize::Hybrid].map(|b| (b, inverted))).collect();
    let pure: &[Step] = if options.pure { &[Step::Pure] } else { &[] };
    let mut found: Vec<Found> = Vec::new();
    if options.try_harder {
        for &(binarize, inverted) in &order {
            let mut here = 0;
            for &step in pure.iter().chain(steps.iter().filter(|&&s| s != Step::SkipRows)) {
                if step == Step::Detector && here > 0 {
                    break;
                }
                for code in views.read(binarize, inverted, step, stop)? {
                    here += 1;
                    if !found.iter().any(|f| same_code(f, &code)) {
                        found.push(code);
                    }
                }
                if step == Step::Pure && here > 0 {
                    break;
                }
            }
        }
    } else {
        'steps: for &step in pure.iter().chain(steps) {
            for &(binarize, inverted) in &order {
                found = views.read(binarize, inverted, step, stop)?;
                if !found.is_empty() {
                    break 'steps;
                }
            }
        }
    }
    Ok(reading_order(found))
}

/// The binarized views of one image, each made when first looked at and kept: `bits[b][i]`
/// for binarizer `b` and polarity `i` (`Some(None)`: the binarizer could not make one).
struct Views<'a> {
    grey: &'a Grey,
    bits: [[Option<Option<BitMatrix>>; 2]; 2],
    stages: &'a mut Stages,
}

impl Views<'_> {
    fn get(&mut self, binarize: Binarize, inverted: bool) -> Option<&BitMatrix> {
        let (b, i) = (binarize as usize, inverted as usize);
        if self.bits[b][i].is_none() {
            if inverted {
                // The inverse is the same bits flipped: the upright view first, on its own clock.
                self.get(binarize, false);
            }
            let at = std::time::Instant::now();
            let made = if inverted {
                self.bits[b][0].clone().flatten().map(|mut m| {
                    m.flip_self();
                    m
                })
            } else {
                binarized(self.grey, binarize)
            };
            self.stages.binarize += at.elapsed().as_nanos() as f64;
            self.bits[b][i] = Some(made);
        }
        self.bits[b][i].as_ref().and_then(Option::as_ref)
    }

    /// The codes `step` reads in one view. A panic inside the reader is a bug in it, not in
    /// the image: that step reads nothing and the others still run.
    fn read(
        &mut self,
        binarize: Binarize,
        inverted: bool,
        step: Step,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<Found>, Stopped> {
        if stop() {
            return Err(Stopped);
        }
        let (at, binarized_before, mut decoding) = (std::time::Instant::now(), self.stages.binarize, 0.0);
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let Some(bits) = self.get(binarize, inverted) else { return Vec::new() };
            match step {
                Step::Pure => detector::DetectPureQR(bits)
                    .ok()
                    .and_then(|d| read_symbol_timed(d.getBits(), d.getPoints(), &mut decoding))
                    .into_iter()
                    .collect(),
                Step::SkipRows => read_finders(bits, false, &mut decoding),
                Step::EveryRow => read_finders(bits, true, &mut decoding),
                Step::Detector => read_detector(bits, &mut decoding).into_iter().collect(),
            }
        }));
        // What is neither binarizing nor reading a grid is the search (sampling included).
        let binarizing = self.stages.binarize - binarized_before;
        self.stages.decode += decoding;
        self.stages.find += (at.elapsed().as_nanos() as f64 - binarizing - decoding).max(0.0);
        Ok(read.unwrap_or_default())
    }

    /// The codes in the global view closed (`close`): a finder drawn as separate dots
    /// becomes solid. The closing's square is about half a module, then a third (of the
    /// module `close::module_estimate` finds); on qr-native's and qr-code-styling's drawings
    /// of nine-dot finder centres, 200 to 2000 px, each size alone read fewer of them. The
    /// row-skipping search: on those drawings and zxing-cpp's photos it read what the every-row
    /// one read, and it runs on every image nothing else read (its cost is the `find` stage of
    /// the decode bench's stage table).
    fn read_closed(&mut self, inverted: bool, stop: &dyn Fn() -> bool) -> Result<Vec<Found>, Stopped> {
        self.get(Binarize::Global, inverted);
        let Some(Some(bits)) = &self.bits[Binarize::Global as usize][inverted as usize] else { return Ok(Vec::new()) };
        let Some(module) = close::module_estimate(bits) else { return Ok(Vec::new()) };
        let (half, third) = (((module / 2) | 1).max(3), (((module + 1) / 3) | 1).max(3));
        for k in if half == third { vec![half] } else { vec![half, third] } {
            if stop() {
                return Err(Stopped);
            }
            // A panic in the closing or the reader is a bug there: this size reads nothing.
            let at = std::time::Instant::now();
            let (mut closing, mut decoding) = (0.0, 0.0);
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let closed = close::close(bits, k);
                closing = at.elapsed().as_nanos() as f64;
                closed.map(|closed| read_finders(&closed, false, &mut decoding)).unwrap_or_default()
            }));
            self.stages.binarize += closing;
            self.stages.decode += decoding;
            self.stages.find += (at.elapsed().as_nanos() as f64 - closing - decoding).max(0.0);
            if let Ok(found) = read {
                if !found.is_empty() {
                    return Ok(reading_order(found));
                }
            }
        }
        Ok(Vec::new())
    }
}

/// One binarization of `grey`, ZXing's hybrid or global histogram binarizer, rewritten in
/// `binarize` for speed. Under 40 px a side ZXing's hybrid binarizer is the global one: that
/// view is `None` here, since the global view, searched first, already holds the same bits.
fn binarized(grey: &Grey, binarize: Binarize) -> Option<BitMatrix> {
    match binarize {
        Binarize::Hybrid => binarize::hybrid(grey),
        Binarize::Global => binarize::global(grey),
    }
}

/// ZXing's own detector: it finds finder patterns by another route and reads some noisy
/// images the zxing-cpp search misses (measured: `bench/decode-engines`); one code at most.
fn read_detector(bits: &BitMatrix, decoding: &mut f64) -> Option<Found> {
    let hints = rxing::DecodeHints { TryHarder: Some(true), ..Default::default() };
    let d = rxing::qrcode::detector::Detector::new(bits).detect_with_hints(&hints).ok()?;
    let corners = zxing_corners(d.getPoints(), d.getBits().getWidth())?;
    read_symbol_timed(d.getBits(), &corners, decoding)
}

/// zxing-cpp's route: every finder pattern (on every row when `every_row`, else on rows a few
/// modules apart), grouped in threes, each group sampled and decoded; a pattern used by one
/// code is not tried in another.
fn read_finders(bits: &BitMatrix, every_row: bool, decoding: &mut f64) -> Vec<Found> {
    let mut patterns = detector::FindFinderPatterns(bits, every_row, 0);
    let mut found = Vec::new();
    let mut used = Vec::new();
    for set in detector::GenerateFinderPatternSets(&mut patterns) {
        if used.contains(&set.bl) || used.contains(&set.tl) || used.contains(&set.tr) {
            continue;
        }
        let Some(code) =
            detector::SampleQR(bits, &set).ok().and_then(|d| read_symbol_timed(d.getBits(), d.getPoints(), decoding))
        else {
            continue;
        };
        used.extend([set.bl, set.tl, set.tr]);
        found.push(code);
    }
    found
}

/// The grid's corners in the order the sampler reports them ([tl, tr, bl, br]) from what
/// ZXing's detector reports (the finder centres bl, tl, tr and the alignment pattern, if
/// found), through the same transform it sampled with.
fn zxing_corners(points: &[RxPoint], dimension: u32) -> Option<[RxPoint; 4]> {
    let (bl, tl, tr) = (*points.first()?, *points.get(1)?, *points.get(2)?);
    let far = dimension as f32 - 3.5;
    let (br, br_modules) = match points.get(3) {
        Some(alignment) => (*alignment, far - 3.0),
        None => (RxPoint::new(tr.x - tl.x + bl.x, tr.y - tl.y + bl.y), far),
    };
    let modules = Quadrilateral([
        RxPoint::new(3.5, 3.5),
        RxPoint::new(far, 3.5),
        RxPoint::new(br_modules, br_modules),
        RxPoint::new(3.5, far),
    ]);
    let t = PerspectiveTransform::quadrilateralToQuadrilateral(modules, Quadrilateral([tl, tr, br, bl])).ok()?;
    let d = dimension as f32;
    let at = |x: f32, y: f32| t.transform_point(RxPoint::new(x, y));
    Some([at(0.0, 0.0), at(d, 0.0), at(0.0, d), at(d, d)])
}

/// `read_symbol`, adding the nanoseconds it took to `decoding`.
fn read_symbol_timed(grid: &BitMatrix, points: &[RxPoint], decoding: &mut f64) -> Option<Found> {
    let at = std::time::Instant::now();
    let found = read_symbol(grid, points);
    *decoding += at.elapsed().as_nanos() as f64;
    found
}

/// Decodes one sampled symbol whose grid's corners are `points` ([tl, tr, bl, br] of the
/// grid as sampled); `None` unless its error correction succeeds.
///
/// ZXing's decoder first: it reports the error-corrected data codewords, which `segments`
/// reads, and whether it read the grid mirrored. The zxing-cpp port's decoder only where
/// that fails for another reason than its error correction (a format it does not read, a
/// bit stream it refuses), for its bytes alone. Each code used to be error-corrected by
/// both, every time. Where ZXing's error correction fails, the port's, the same
/// Reed–Solomon decoder on the same codewords, failed too: 893 times of 893 on zxing-cpp's
/// samples at every quarter turn and the bench's 72 images, both modes, where it read 12 of
/// the 96 other failures. Skipping it there saves a Reed–Solomon pass on every false grid.
fn read_symbol(grid: &BitMatrix, points: &[RxPoint]) -> Option<Found> {
    let size = grid.getWidth() as usize;
    if grid.getHeight() as usize != size || !(21..=177).contains(&size) || size % 4 != 1 {
        return None;
    }
    let version = ((size - 17) / 4) as u8;
    let zxing = rxing::qrcode::decoder::qrcode_decoder::decode_bitmatrix(grid);
    if matches!(zxing, Err(rxing::Exceptions::ChecksumException(_))) {
        return None;
    }
    let zxing = zxing.ok().and_then(|d| {
        let mirrored =
            d.getOther().is_some_and(|o| o.downcast_ref::<QRCodeDecoderMetaData>().is_some_and(|m| m.isMirrored()));
        Some((segments::parse(d.getRawBytes(), version)?, mirrored))
    });
    let (bytes, text, segments, mirrored) = match zxing {
        Some((content, mirrored)) => {
            let text = content.text();
            (content.bytes, text, content.segments, mirrored)
        }
        None => {
            // Without segments: its bytes, and the text inferred from them as a whole.
            let result = decoder::Decode(grid).ok()?;
            if !result.isValid() {
                return None;
            }
            let bytes = result.content().bytes().to_vec();
            let content = segments::Content {
                segments: vec![segments::Segment {
                    mode: segments::Mode::Byte,
                    eci: None,
                    range: 0..bytes.len(),
                    charset: segments::infer(std::iter::once(&bytes[..])),
                    charset_from: segments::CharsetFrom::Inferred,
                }],
                bytes,
                gs1: false,
            };
            let text = content.text();
            let bytes = content.bytes;
            (bytes, text, Vec::new(), result.isMirrored())
        }
    };
    let (level, mask) = read_format(grid, size, mirrored)?;
    // The sampler reports [tl, tr, bl, br] of the grid it read; a mirrored symbol's grid is
    // its transpose, so its top-right and bottom-left swap.
    let at = |i: usize| points.get(i).map(|q: &RxPoint| Point { x: q.x, y: q.y });
    let (tl, tr, bl, br) = (at(0)?, at(1)?, at(2)?, at(3)?);
    let corners = if mirrored { [tl, bl, br, tr] } else { [tl, tr, br, bl] };
    Some(Found { bytes, text, segments, version, level, mask, corners })
}

/// The level and mask the symbol's format bits name: the valid format word nearest to either
/// copy, within the three errors the code corrects.
fn read_format(grid: &BitMatrix, size: usize, mirrored: bool) -> Option<(EcLevel, u8)> {
    let dark = |(row, col): (usize, usize)| {
        let (x, y) = if mirrored { (row, col) } else { (col, row) };
        grid.get(x as u32, y as u32)
    };
    let mut copies = [0u32; 2];
    for i in 0..15 {
        for (copy, cell) in copies.iter_mut().zip(format_cells(size, i)) {
            *copy |= (dark(cell) as u32) << i;
        }
    }
    let mut best: Option<(u32, EcLevel, u8)> = None;
    for level in [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H] {
        for mask in 0..8 {
            // Model 2 masks the format word with 0x5412, Model 1 with 0x2825 (zxing-cpp's
            // `FormatInformation`); the decoder has already told them apart by their data.
            for word in [format_bits(level, mask), format_bits(level, mask) ^ 0x5412 ^ 0x2825] {
                let distance = copies.iter().map(|c| (c ^ word).count_ones()).min().unwrap_or(u32::MAX);
                if best.is_none_or(|(d, _, _)| distance < d) {
                    best = Some((distance, level, mask));
                }
            }
        }
    }
    best.filter(|&(d, _, _)| d <= 3).map(|(_, level, mask)| (level, mask))
}

/// Two finds are one code when they hold the same bytes and their centres lie within half a
/// symbol of each other.
fn same_code(a: &Found, b: &Found) -> bool {
    let (ca, cb) = (a.centre(), b.centre());
    let near = a.side().max(b.side()) / 2.0;
    a.bytes == b.bytes && (ca.x - cb.x).abs() <= near && (ca.y - cb.y).abs() <= near
}

/// Sorts codes into rows (a code whose centre lies within half a symbol below the row's first
/// centre joins that row), the rows top to bottom and each row left to right.
fn reading_order(mut codes: Vec<Found>) -> Vec<Found> {
    codes.sort_by(|a, b| a.centre().y.total_cmp(&b.centre().y));
    let mut rows: Vec<Vec<Found>> = Vec::new();
    for code in codes {
        match rows.last_mut() {
            Some(row) if code.centre().y - row[0].centre().y <= row[0].side() / 2.0 => row.push(code),
            _ => rows.push(vec![code]),
        }
    }
    rows.into_iter()
        .flat_map(|mut row| {
            row.sort_by(|a, b| a.centre().x.total_cmp(&b.centre().x));
            row
        })
        .collect()
}

#[cfg(test)]
mod tests;

/// Reproducible noise for tests (xorshift64): `n` bytes from `seed`.
#[cfg(test)]
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 32) as u8
        })
        .collect()
}
