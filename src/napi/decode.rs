//! `decode` and `decodeSync` as JavaScript sees them: the options and the image are read and
//! checked on the main thread (the file's header against `maxPixels` before anything is
//! copied), the image copied off the JavaScript heap, then `crate::decode` runs on the
//! threadpool or inline.

use super::js::{self, sync_call, Val};
use super::signal;
use super::task::{PoolTask, Work};
use crate::decode::image::{self as img, DEFAULT_MAX_PIXELS, FORMATS, MAX_MAX_PIXELS};
use crate::decode::{self, DecodeOptions, Found};
use crate::error::{Error, Result};
use napi::bindgen_prelude::{Either, Null, ToNapiValue, Uint8Array};
use napi::{sys, Env, JsValue, Unknown, ValueType};
use napi_derive::napi;

/// A point in image pixels.
#[napi(object, js_name = "Point")]
pub struct JsPoint {
    /// Pixels from the left edge.
    pub x: f64,
    /// Pixels from the top edge.
    pub y: f64,
}

/// The symbol's four corners (without its quiet zone) as the code reads.
#[napi(object, js_name = "QrPosition")]
pub struct JsPosition {
    /// The corner of the top-left finder pattern, as the code reads (not as the image shows it).
    pub top_left: JsPoint,
    /// The corner of the top-right finder pattern.
    pub top_right: JsPoint,
    /// The corner without a finder pattern.
    pub bottom_right: JsPoint,
    /// The corner of the bottom-left finder pattern.
    pub bottom_left: JsPoint,
}

/// One data segment of a code: its mode, the ECI in force (`null` before any), the range
/// `bytes.subarray(start, end)` of the payload it holds, and the charset it was read with.
#[napi(object, js_name = "QrSegment")]
pub struct JsSegment {
    #[napi(ts_type = "'numeric' | 'alphanumeric' | 'byte' | 'kanji' | 'hanzi'")]
    /// The segment's mode.
    pub mode: String,
    /// The ECI designator in force for this segment, `null` before any ECI.
    pub eci: Either<u32, Null>,
    /// Where the segment's bytes start in the code's `bytes`.
    pub start: u32,
    /// Where they end (exclusive): `bytes.subarray(start, end)`.
    pub end: u32,
    /// The charset the segment was read with: `'UTF-8'`, `'Shift_JIS'`, `'ISO-8859-1'`, …;
    /// `'binary'` under ECI 899, `'ECI n'` for an ECI that names no charset we know.
    pub charset: String,
    /// How it was decided: the ECI in force, the mode (Kanji, Hanzi), or inferred from the
    /// bytes where no ECI is in force (UTF-8, else Shift JIS, else ISO-8859-1, as ZXing does).
    #[napi(ts_type = "'eci' | 'mode' | 'inferred'")]
    pub charset_from: String,
}

/// One code read from an image.
#[napi(object, js_name = "QrCode")]
pub struct JsQrCode {
    /// The payload as text, what a phone shows: each segment under its `charset`; `null` only
    /// when an ECI names a charset the bytes are not valid in, one we do not know, or binary.
    pub text: Either<String, Null>,
    /// The payload's bytes.
    pub bytes: Uint8Array,
    /// The code's version, 1..40 (Model 1 codes: 1..14).
    #[napi(ts_type = "Version")]
    pub version: u32,
    /// The code's error-correction level.
    #[napi(ts_type = "'L' | 'M' | 'Q' | 'H'")]
    pub error_correction_level: String,
    /// The mask the code was written with, 0..7.
    #[napi(ts_type = "MaskPattern")]
    pub mask: u32,
    /// Where the code is in the image.
    pub position: JsPosition,
    /// The data segments in order; empty when they could not be read.
    pub segments: Vec<JsSegment>,
}

/// Options of `decode`. Unknown keys are ignored; each known key is checked.
// Declared for the TypeScript definitions only: options are read key by key in `read_options`.
#[allow(dead_code)]
#[napi(object, js_name = "DecodeOptions")]
pub struct DecodeOptionsJs {
    /// Light codes on dark: `true` reads only those, `false` only dark on light; by default
    /// light on dark is tried when dark on light finds nothing.
    pub inverted: Option<bool>,
    /// Run every pass (two binarizers, both polarities) and return every code any finds; when
    /// none reads, search the image at each of the three quarter turns too.
    pub try_harder: Option<bool>,
    /// The image is one clean, generated code: try the fast path for that first.
    pub pure: Option<bool>,
    /// Largest image accepted, in pixels (width × height, read from the header before any
    /// pixel is decoded): an integer 1..2^30, default 40,000,000.
    pub max_pixels: Option<u32>,
    /// Cancels the call: at once while it waits for a thread, between two steps of the decode
    /// (a finder search or the detector in one binarized view) once it runs; rejects with an
    /// `AbortError`.
    #[napi(ts_type = "AbortSignal")]
    pub signal: Option<()>,
}

fn to_js(found: Found) -> JsQrCode {
    let p = |i: usize| JsPoint { x: found.corners[i].x as f64, y: found.corners[i].y as f64 };
    JsQrCode {
        position: JsPosition { top_left: p(0), top_right: p(1), bottom_right: p(2), bottom_left: p(3) },
        text: match found.text {
            Some(t) => Either::A(t),
            None => Either::B(Null),
        },
        segments: found
            .segments
            .iter()
            .map(|s| JsSegment {
                mode: s.mode.name().to_string(),
                eci: s.eci.map_or(Either::B(Null), Either::A),
                start: s.range.start as u32,
                end: s.range.end as u32,
                charset: s.charset.name().into_owned(),
                charset_from: s.charset_from.name().to_string(),
            })
            .collect(),
        bytes: Uint8Array::from(found.bytes),
        version: found.version as u32,
        error_correction_level: found.level.letter().to_string(),
        mask: found.mask as u32,
    }
}

/// An image copied off the JavaScript heap, not yet turned into pixels.
enum Image {
    File(Vec<u8>),
    Pixels { data: Vec<u8>, width: u32, height: u32 },
}

struct Request {
    image: Image,
    options: DecodeOptions,
    max_pixels: u64,
}

impl Request {
    /// Reads the image and decodes it, asking `stop()` between steps (`decode_until`): an
    /// aborted call gives its pool thread back within one step.
    fn run(&mut self, stop: &dyn Fn() -> bool) -> Result<Vec<Found>> {
        self.run_timed(stop, &mut JsDecodeStages::default())
    }

    /// `run`, saying how long each stage took.
    fn run_timed(&mut self, stop: &dyn Fn() -> bool, t: &mut JsDecodeStages) -> Result<Vec<Found>> {
        if stop() {
            return Err(Error::aborted());
        }
        let at = std::time::Instant::now();
        let grey = match std::mem::replace(&mut self.image, Image::File(Vec::new())) {
            Image::File(bytes) => img::read(&bytes, self.max_pixels)?,
            Image::Pixels { data, width, height } => img::from_pixels(data, width, height)?,
        };
        t.grey = at.elapsed().as_nanos() as f64;
        let mut stages = decode::Stages::default();
        let found = decode::decode_timed(&grey, &self.options, stop, &mut stages)
            .map_err(|decode::Stopped| Error::aborted())?;
        (t.binarize, t.find, t.decode, t.codes) = (stages.binarize, stages.find, stages.decode, found.len() as u32);
        Ok(found)
    }
}

/// Where one `decodeSync` spends its time, in nanoseconds a stage (internal: the bench's
/// per-stage table).
#[napi(object, js_name = "DecodeStages")]
#[derive(Default)]
pub struct JsDecodeStages {
    /// The file's pixels made grey (PNG, JPEG, … decoded), or the pixels given.
    pub grey: f64,
    /// The binarized views, and the image turned when nothing read upright.
    pub binarize: f64,
    /// Finder patterns found, grouped and their grids sampled.
    pub find: f64,
    /// The grids read: error correction, segments, format.
    pub decode: f64,
    /// Codes read.
    pub codes: u32,
}

/// Decodes an image once and says how long each stage took (internal, for the bench).
#[napi(js_name = "__decodeStagesSync", ts_args_type = "image: ImageInput, options?: DecodeOptions")]
pub fn decode_stages_sync(env: Env, image: Unknown, options: Option<Unknown>) -> napi::Result<JsDecodeStages> {
    sync_call(&env, || {
        let (mut request, _) = request(&env, image, options)?;
        let mut t = JsDecodeStages::default();
        request.run_timed(&|| false, &mut t)?;
        Ok(t)
    })
}

fn read_options(options: Option<Val>) -> Result<(DecodeOptions, u64, Option<Val>)> {
    let mut o = DecodeOptions::default();
    let mut max_pixels = DEFAULT_MAX_PIXELS;
    let mut signal = None;
    let Some(v) = js::options_object("options", options)? else { return Ok((o, max_pixels, None)) };
    v.for_each_own(|key, v| {
        match key {
            "inverted" => o.inverted = Some(js::bool_of("options.inverted", &v)?),
            "tryHarder" => o.try_harder = js::bool_of("options.tryHarder", &v)?,
            "pure" => o.pure = js::bool_of("options.pure", &v)?,
            "maxPixels" => max_pixels = js::integer_in("options.maxPixels", &v, 1, MAX_MAX_PIXELS as i64)? as u64,
            "signal" => signal = signal::read(Some(v))?,
            _ => {}
        }
        Ok(())
    })?;
    Ok((o, max_pixels, signal))
}

const IMAGE_TYPE: &str = "an instance of Buffer or Uint8Array, or an object { data, width, height }";

/// Reads `image` after the options (whose getters could otherwise detach it between our look
/// and our copy). A file's header is checked here, from the caller's bytes, so an image over
/// `max_pixels` is refused before anything is copied.
fn read_image(v: Val, max_pixels: u64) -> Result<Image> {
    if v.value_type() != ValueType::Object || v.is_raw_buffer() {
        return Err(js::wrong_type("image", IMAGE_TYPE, &v));
    }
    if v.is_typedarray() {
        let Some(bytes) = v.typed_bytes() else { return Err(js::wrong_type("image", IMAGE_TYPE, &v)) };
        if bytes.is_empty() {
            return Err(Error::invalid_value(format!(
                "The argument 'image' must be {FORMATS} (a zero-length or detached buffer)"
            )));
        }
        img::dimensions(bytes, max_pixels)?;
        return Ok(Image::File(js::copy_of(bytes)));
    }
    let side = |name: &str| -> Result<u32> {
        let key = &name["image.".len()..];
        match v.prop(key)? {
            Some(n) => Ok(js::integer_in(name, &n, 1, u32::MAX as i64)? as u32),
            None => {
                Err(Error::invalid_type(format!("The \"{name}\" property must be of type number. Received undefined")))
            }
        }
    };
    let (width, height) = (side("image.width")?, side("image.height")?);
    decode::check_pixels(width as u64, height as u64, max_pixels)?;
    let Some(data) = v.prop("data")? else {
        return Err(Error::invalid_type(
            "The \"image.data\" property must be an instance of Uint8Array or Uint8ClampedArray. Received undefined",
        ));
    };
    // Taken last, after every getter has run, and copied at once.
    let Some(bytes) = data.pixel_bytes() else {
        return Err(js::wrong_type("image.data", "an instance of Uint8Array or Uint8ClampedArray", &data));
    };
    img::check_pixel_len(bytes.len(), width, height)?;
    Ok(Image::Pixels { data: js::copy_of(bytes), width, height })
}

fn request(env: &Env, image: Unknown, options: Option<Unknown>) -> Result<(Request, Option<Val>)> {
    let (options, max_pixels, signal) = read_options(options.map(|o| Val::new(env, o.raw())))?;
    let image = read_image(Val::new(env, image.raw()), max_pixels)?;
    Ok((Request { image, options, max_pixels }, signal))
}

impl Work for Request {
    type Output = Vec<Found>;

    fn name(&self) -> &'static str {
        "decode"
    }

    fn run(&mut self, check: &dyn Fn() -> Result<()>) -> Result<Vec<Found>> {
        Request::run(self, &|| check().is_err())
    }

    fn to_js(&mut self, raw: sys::napi_env, found: Vec<Found>) -> napi::Result<sys::napi_value> {
        // SAFETY: in the env of this call, on its thread.
        unsafe { Vec::<JsQrCode>::to_napi_value(raw, found.into_iter().map(to_js).collect()) }
    }
}

/// Reads every QR code in `image` on the libuv threadpool (through qr-native's queue).
/// Resolves with the codes in reading order, `[]` if none.
#[napi(ts_args_type = "image: ImageInput, options?: DecodeOptions", ts_return_type = "Promise<QrCode[]>")]
pub fn decode(env: Env, image: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    let raw = env.raw();
    let value = super::queue::call(raw, || {
        let (request, signal_val) = request(&env, image, options)?;
        Ok((signal_val, move |watch| PoolTask::new(request, watch)))
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(raw, value) })
}

/// `decode` on the calling thread: blocks the event loop for the whole decode.
#[napi(ts_args_type = "image: ImageInput, options?: DecodeOptions")]
pub fn decode_sync(env: Env, image: Unknown, options: Option<Unknown>) -> napi::Result<Vec<JsQrCode>> {
    let found = sync_call(&env, || {
        #[cfg(feature = "inject-panic")]
        super::maybe_panic("decodeSync");
        let (mut request, _) = request(&env, image, options)?;
        request.run(&|| false)
    })?;
    Ok(found.into_iter().map(to_js).collect())
}
