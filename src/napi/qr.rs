//! The QR functions as JavaScript sees them. Each checks and converts its arguments on the
//! main thread, then runs `crate::qr` on the libuv threadpool (`…Task`) or inline (`…Sync`).

use super::js::{self, Val};
use super::signal::{self, SignalWatch};
use super::style::{colour, read_style};
use super::task::{self, PoolTask};
use crate::error::{Error, ErrorKind, Result};
use crate::qr::output::{self, Job, Produced, QcsLayout, QrWork};
use crate::qr::render::Colour;
use crate::qr::segment::Mode;
use crate::qr::style::Stages;
use crate::qr::{self, EcLevel};
use napi::bindgen_prelude::{ToNapiValue, Uint8Array};
use napi::{sys, Env, JsValue, Unknown, ValueType};
use napi_derive::napi;

pub use crate::qr::output::{Format, InputData, Settings, DEFAULT_QUALITY, MAX_BATCH};

/// Reads `input`: a string (no lone surrogates) or a non-empty Buffer/Uint8Array.
pub fn read_input(name: &str, v: Val) -> Result<InputData> {
    match v.value_type() {
        ValueType::String => {
            // No QR code holds more than 7089 characters: refuse longer text before copying it.
            let len = v.string_utf16_len();
            if len > qr::MAX_INPUT_BYTES {
                return Err(Error::new(
                    ErrorKind::DataTooLong,
                    format!("The argument '{name}' is too long for a QR code: {len} characters; no QR code holds more than {}", qr::MAX_INPUT_BYTES),
                ));
            }
            let text = v.get_string(name)?;
            if text.is_empty() {
                return Err(Error::invalid_value(format!("The argument '{name}' must not be empty")));
            }
            Ok(InputData::Text(text))
        }
        ValueType::Object => match v.typed_bytes() {
            Some([]) => Err(Error::invalid_value(format!(
                "The argument '{name}' must not be empty (a zero-length or detached buffer)"
            ))),
            Some(bytes) if bytes.len() > qr::MAX_INPUT_BYTE_MODE => Err(Error::new(
                ErrorKind::DataTooLong,
                format!(
                    "The argument '{name}' is too long for a QR code: {} bytes; no QR code holds more than {} bytes",
                    bytes.len(),
                    qr::MAX_INPUT_BYTE_MODE
                ),
            )),
            // Copied here: the caller may transfer, detach or resize its buffer as soon as
            // this call returns, while the task still waits for a thread.
            Some(bytes) => Ok(InputData::Bytes(bytes.to_vec())),
            None => Err(js::wrong_type(name, "of type string or an instance of Buffer or Uint8Array", &v)),
        },
        _ => Err(js::wrong_type(name, "of type string or an instance of Buffer or Uint8Array", &v)),
    }
}

/// A string option with a few short allowed values, read without allocating when short.
fn enum_string(name: &str, v: &Val) -> Result<String> {
    if v.value_type() != ValueType::String {
        return Err(js::wrong_type(name, "of type string", v));
    }
    let mut buf = [0u8; 17];
    match v.short_string(&mut buf) {
        Some(len) if buf[..len].is_ascii() => Ok(String::from_utf8_lossy(&buf[..len]).into_owned()),
        _ => v.get_string(name),
    }
}

/// Reads the options object; `default_format` differs between `generate*` and `toString`.
/// Returns the settings and the signal value, if one was given.
pub fn read_options(options: Option<Val>, default_format: Format) -> Result<(Settings, Option<Val>)> {
    read_options_checked(options, default_format, true)
}

/// `read_options`; with `check_style` false, a style decoders do not read is drawn anyway
/// (the matrix test that measures which styles to refuse, and qr-code-styling's drop-in).
pub fn read_options_checked(
    options: Option<Val>,
    default_format: Format,
    check_style: bool,
) -> Result<(Settings, Option<Val>)> {
    let mut s = Settings::new(default_format);
    let Some(o) = js::options_object("options", options)? else { return Ok((s, None)) };
    let mut style_val = None;
    let mut level_given = false;
    let max_side = qr::render::MAX_SIDE as i64;
    let mut signal = None;
    o.for_each_own(|key, v| {
        match key {
            "errorCorrectionLevel" => {
                level_given = true;
                let name = enum_string("options.errorCorrectionLevel", &v)?;
                s.encode.level = EcLevel::parse(&name).ok_or_else(|| {
                    Error::invalid_value(format!(
                        "The argument 'options.errorCorrectionLevel' must be one of 'L', 'M', 'Q', 'H', 'low', 'medium', 'quartile', 'high'. Received '{name}'"
                    ))
                })?;
            }
            "type" => {
                let name = enum_string("options.type", &v)?;
                s.format = Format::parse(&name).ok_or_else(|| {
                    Error::invalid_value(format!(
                        "The argument 'options.type' must be one of 'png', 'svg', 'jpeg', 'webp', 'utf8', 'terminal'. Received '{name}'"
                    ))
                })?;
            }
            "width" => {
                let w = js::integer_in("options.width", &v, 1, max_side)? as f64;
                s.width = Some(w);
                s.render.width = Some(w);
            }
            "scale" => s.render.scale = js::integer_in("options.scale", &v, 1, 256)? as f64,
            "margin" => s.render.margin = js::integer_in("options.margin", &v, 0, 256)? as u32,
            "color" => {
                if v.value_type() != ValueType::Object {
                    return Err(js::wrong_type("options.color", "of type object", &v));
                }
                s.render.dark = colour("options.color.dark", v.prop("dark")?, Colour::BLACK)?;
                s.render.light = colour("options.color.light", v.prop("light")?, Colour::WHITE)?;
            }
            "version" => s.encode.version = Some(js::integer_in("options.version", &v, 1, 40)? as u8),
            "maskPattern" => s.encode.mask = Some(js::integer_in("options.maskPattern", &v, 0, 7)? as u8),
            "small" => s.small = js::bool_of("options.small", &v)?,
            "quality" => s.quality = js::integer_in("options.quality", &v, 1, 100)? as u8,
            "style" if !v.is_nullish() => style_val = Some(v),
            "signal" => signal = signal::read(Some(v))?,
            _ => {}
        }
        Ok(())
    })?;
    if let Some(v) = style_val {
        if matches!(s.format, Format::Utf8 | Format::Terminal) {
            return Err(Error::invalid_value(
                "The argument 'options.style' applies to 'png', 'svg', 'jpeg' and 'webp' output; 'utf8' and 'terminal' text cannot be styled",
            ));
        }
        let style = read_style(&v, s.render.dark, s.render.light, check_style)?;
        // A logo takes the most error correction there is, unless the caller chose a level.
        if style.logo.is_some() && !level_given {
            s.encode.level = EcLevel::H;
        }
        s.style = Some(Box::new(style));
    }
    Ok((s, signal))
}

/// A QR call's work on the threadpool.
pub type QrTask = PoolTask<QrWork>;

impl task::Work for QrWork {
    type Output = Produced;

    fn name(&self) -> &'static str {
        self.job.name()
    }

    fn run(&mut self, check: &dyn Fn() -> Result<()>) -> Result<Produced> {
        QrWork::run(self, check)
    }

    fn to_js(&mut self, raw: sys::napi_env, output: Produced) -> napi::Result<sys::napi_value> {
        Ok(match output {
            Produced::Bytes(bytes) => js::buffer(raw, bytes)?,
            Produced::Many(list) => {
                let mut array = std::ptr::null_mut();
                // SAFETY: N-API calls in the env of this call, on its thread.
                unsafe { napi::check_status!(sys::napi_create_array_with_length(raw, list.len(), &mut array))? };
                for (i, bytes) in list.into_iter().enumerate() {
                    let b = js::buffer(raw, bytes)?;
                    // SAFETY: as above; `array` was made just now.
                    unsafe { napi::check_status!(sys::napi_set_element(raw, array, i as u32, b))? };
                }
                array
            }
            // SAFETY: as above.
            Produced::Text(text) => unsafe { String::to_napi_value(raw, text)? },
        })
    }
}

/// A job with the settings of `generate` and its siblings (no Kanji table, `qr-native`'s messages).
fn plain(job: Job, settings: Settings, watch: Option<SignalWatch>) -> QrTask {
    PoolTask::new(QrWork { job, settings, kanji: None, compat: false }, watch)
}

/// Starts `make`'s task with `options`, or returns a rejected promise for bad arguments.
fn spawn(
    env: &Env,
    options: Option<Unknown>,
    default_format: Format,
    make: impl FnOnce(&Settings) -> Result<Job>,
) -> napi::Result<Unknown<'static>> {
    let raw = env.raw();
    let value = super::queue::call(raw, || {
        let (settings, signal_val) = read_options(options.map(|o| Val::new(env, o.raw())), default_format)?;
        let job = make(&settings)?;
        Ok((signal_val, move |watch| plain(job, settings, watch)))
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(raw, value) })
}

fn one_input(env: &Env, input: Unknown) -> Result<InputData> {
    read_input("input", Val::new(env, input.raw()))
}

/// Encodes `input` as a QR code on the libuv threadpool. Resolves with PNG bytes, or the
/// bytes of SVG/utf8/terminal text when `options.type` says so.
#[napi(ts_args_type = "input: Input, options?: QrOptions", ts_return_type = "Promise<Buffer>")]
pub fn generate(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    spawn(&env, options, Format::Png, |_| Ok(Job::Generate(one_input(&env, input)?)))
}

/// Like `generate`, but encodes `inputs` in one crossing and one threadpool task.
/// At most 10,000 inputs a call.
#[napi(ts_args_type = "inputs: readonly Input[], options?: QrOptions", ts_return_type = "Promise<Buffer[]>")]
pub fn generate_many(env: Env, inputs: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    spawn(&env, options, Format::Png, |_| {
        let list = Val::new(&env, inputs.raw());
        if !list.is_array() {
            return Err(js::wrong_type("inputs", "an instance of Array", &list));
        }
        let n = list.array_len();
        if n > MAX_BATCH {
            return Err(Error::range("inputs.length", format_args!("<= {MAX_BATCH}"), n));
        }
        let mut items = Vec::with_capacity(n as usize);
        for i in 0..n {
            items.push(read_input(&format!("inputs[{i}]"), list.element(i)?)?);
        }
        Ok(Job::Many(items))
    })
}

/// Resolves with a data URL: `data:image/png;base64,…` (or `data:image/svg+xml;base64,…`).
#[napi(
    js_name = "toDataURL",
    ts_args_type = "input: Input, options?: DataURLOptions",
    ts_return_type = "Promise<string>"
)]
pub fn to_data_url(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    spawn(&env, options, Format::Png, |s| {
        if !matches!(s.format, Format::Png | Format::Svg | Format::Jpeg | Format::Webp) {
            return Err(Error::invalid_value(
                "The argument 'options.type' of toDataURL must be 'png', 'svg', 'jpeg' or 'webp'",
            ));
        }
        Ok(Job::DataUrl(one_input(&env, input)?))
    })
}

/// Resolves with the code as text: `utf8` (default), `svg` or `terminal`.
#[napi(
    js_name = "toString",
    ts_args_type = "input: Input, options?: StringOptions",
    ts_return_type = "Promise<string>"
)]
pub fn to_string(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    spawn(&env, options, Format::Utf8, |s| {
        if matches!(s.format, Format::Png | Format::Jpeg | Format::Webp) {
            return Err(Error::invalid_value(
                "The argument 'options.type' of toString must be 'utf8', 'svg' or 'terminal'",
            ));
        }
        Ok(Job::Text(one_input(&env, input)?))
    })
}

/// `generate` on the calling thread: blocks the event loop for the whole encode.
#[napi(ts_args_type = "input: Input, options?: QrOptions", ts_return_type = "Buffer")]
pub fn generate_sync(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    let bytes = js::sync_call(&env, || {
        #[cfg(feature = "inject-panic")]
        super::maybe_panic("generateSync");
        let (settings, _) = read_options(options.map(|o| Val::new(&env, o.raw())), Format::Png)?;
        let data = one_input(&env, input)?;
        output::generate(&data.as_input(), &settings, None)
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), js::buffer(env.raw(), bytes)?) })
}

/// `qr-native/styling`'s drawing (internal). `input` is one segment's bytes in
/// `layout.mode` (`'Numeric'`, `'Alphanumeric'`, `'Byte'`), encoded on the threadpool as
/// qrcode-generator encodes it (`layout.typeNumber`, 0 for the smallest), or, with mode
/// `'matrix'`, `size × size` modules (1 dark) that qrcode-generator made. Drawn in
/// `options.style`, laid out as qr-code-styling lays them out, its logo sized by its rule;
/// every style drawn, readable or not.
#[napi(
    js_name = "__stylingRender",
    ts_args_type = "input: Uint8Array, options: QrOptions, layout: { width: number; margin: number; roundSize: boolean; imageSize: number; mode: 'Numeric' | 'Alphanumeric' | 'Byte' | 'matrix'; typeNumber: number }",
    ts_return_type = "Promise<Buffer>"
)]
pub fn styling_render(
    env: Env,
    modules: Unknown,
    options: Option<Unknown>,
    layout: Unknown,
) -> napi::Result<Unknown<'static>> {
    let raw = env.raw();
    let value = super::queue::call(raw, || {
        let (mut settings, signal_val) =
            read_options_checked(options.map(|o| Val::new(&env, o.raw())), Format::Png, false)?;
        let m = Val::new(&env, modules.raw());
        let Some(bytes) = m.typed_bytes() else {
            return Err(js::wrong_type("input", "an instance of Uint8Array", &m));
        };
        let l = Val::new(&env, layout.raw());
        let mode = match l.prop("mode")? {
            Some(v) => enum_string("layout.mode", &v)?,
            None => "matrix".to_string(),
        };
        let num = |key: &str, lo: i64, hi: i64| -> Result<f64> {
            match l.prop(key)? {
                Some(v) => js::number_in(key, &v, lo as f64, hi as f64),
                None => Err(Error::invalid_type(format!(
                    "The \"{key}\" argument must be of type number. Received undefined"
                ))),
            }
        };
        let q = QcsLayout {
            side: num("width", 1, qr::render::MAX_SIDE as i64)?,
            margin: num("margin", 0, qr::render::MAX_SIDE as i64)?,
            round: l.prop("roundSize")?.and_then(|v| v.get_bool()).unwrap_or(true),
        };
        let image_size = num("imageSize", 0, 1)?;
        if let Some(logo) = settings.style.as_mut().and_then(|s| s.logo.as_mut()) {
            logo.qr_code_styling = Some((image_size, q.round));
        }
        let segment_mode = match mode.as_str() {
            "Numeric" => Some(Mode::Numeric),
            "Alphanumeric" => Some(Mode::Alphanumeric),
            "Byte" => Some(Mode::Byte),
            "matrix" => None,
            other => {
                return Err(Error::invalid_value(format!(
                "The argument 'layout.mode' must be 'Numeric', 'Alphanumeric', 'Byte' or 'matrix'. Received '{other}'"
            )))
            }
        };
        let job = match segment_mode {
            Some(mode) => {
                if bytes.len() > qr::MAX_INPUT_BYTES {
                    return Err(Error::new(
                        ErrorKind::DataTooLong,
                        format!("The data is too long for a QR code: {} bytes", bytes.len()),
                    ));
                }
                let type_number = num("typeNumber", 0, 40)? as u8;
                Job::Generator { data: bytes.to_vec(), mode, type_number, layout: q }
            }
            None => {
                let matrix = output::matrix_of_modules(bytes, settings.encode.level).ok_or_else(|| {
                    Error::invalid_value(format!(
                        "The argument 'input' must be the size × size modules (0 or 1) of a QR code, size 21..177. Received {} bytes",
                        bytes.len()
                    ))
                })?;
                Job::Matrix(Box::new(matrix), q)
            }
        };
        Ok((signal_val, move |watch| plain(job, settings, watch)))
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(raw, value) })
}

/// The modules `__stylingRender` encodes for one segment, as qrcode-generator makes them
/// (internal: the drop-in's test reads them next to qr-code-styling's own).
#[napi(
    js_name = "__generatorMatrix",
    ts_args_type = "input: Uint8Array, mode: 'Numeric' | 'Alphanumeric' | 'Byte', level: 'L' | 'M' | 'Q' | 'H', typeNumber: number"
)]
pub fn generator_matrix(
    env: Env,
    input: Unknown,
    mode: String,
    level: String,
    type_number: u32,
) -> napi::Result<Uint8Array> {
    js::sync_call(&env, || {
        let v = Val::new(&env, input.raw());
        let bytes = v.typed_bytes().ok_or_else(|| js::wrong_type("input", "an instance of Uint8Array", &v))?.to_vec();
        let mode = match mode.as_str() {
            "Numeric" => Mode::Numeric,
            "Alphanumeric" => Mode::Alphanumeric,
            _ => Mode::Byte,
        };
        let level = EcLevel::parse(&level).ok_or_else(|| Error::invalid_value("level"))?;
        Ok(Uint8Array::from(qr::generator::symbol(&bytes, mode, level, type_number.min(40) as u8)?.modules))
    })
}

/// `generateSync` that draws every style, readable or not (internal: the matrix test that
/// decides which styles `generate` refuses, and `qr-native/styling`).
#[napi(
    js_name = "__styledUncheckedSync",
    ts_args_type = "input: Input, options?: QrOptions",
    ts_return_type = "Buffer"
)]
pub fn styled_unchecked_sync(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<Unknown<'static>> {
    let bytes = js::sync_call(&env, || {
        let (settings, _) = read_options_checked(options.map(|o| Val::new(&env, o.raw())), Format::Png, false)?;
        let data = one_input(&env, input)?;
        output::generate(&data.as_input(), &settings, None)
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), js::buffer(env.raw(), bytes)?) })
}

/// Where one styled `generateSync` spends its time, in nanoseconds a stage (internal: the
/// bench's per-stage table).
#[napi(object, js_name = "StyledStages")]
pub struct JsStyledStages {
    /// Encoding the text into modules.
    pub encode: f64,
    /// Reading and placing the logo.
    pub logo: f64,
    /// Laying out the figures.
    pub layout: f64,
    /// Filling them into pixels (SVG: writing the document).
    pub raster: f64,
    /// PNG, JPEG or WebP encoding.
    pub compress: f64,
}

/// Draws a styled code once and says how long each stage took (internal, for the bench).
#[napi(js_name = "__styledStagesSync", ts_args_type = "input: Input, options?: QrOptions")]
pub fn styled_stages_sync(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<JsStyledStages> {
    js::sync_call(&env, || {
        let (settings, _) = read_options(options.map(|o| Val::new(&env, o.raw())), Format::Png)?;
        let data = one_input(&env, input)?;
        let at = std::time::Instant::now();
        let matrix = qr::encode_symbol(&data.as_input(), &settings.encode, None)?.matrix;
        let encode = at.elapsed().as_nanos() as f64;
        let mut st = Stages::default();
        output::render_styled_timed(&matrix, &settings, &mut st)?;
        Ok(JsStyledStages { encode, logo: st.logo, layout: st.layout, raster: st.raster, compress: st.compress })
    })
}

/// A QR code's modules, without image.
#[napi(object, js_name = "QrMatrix")]
pub struct JsQrMatrix {
    /// The version used, 1..40: the smallest that holds the input at the level, unless forced.
    #[napi(ts_type = "Version")]
    pub version: u32,
    /// The error-correction level used.
    #[napi(ts_type = "'L' | 'M' | 'Q' | 'H'")]
    pub error_correction_level: String,
    /// The mask applied, 0..7: the one `qrcode` chooses, unless forced.
    #[napi(ts_type = "MaskPattern")]
    pub mask_pattern: u32,
    /// Modules per side, without quiet zone.
    pub size: u32,
    /// `size * size` modules, row-major, 1 = dark.
    pub modules: Uint8Array,
}

/// Encodes `input` synchronously and returns its module matrix.
#[napi(ts_args_type = "input: Input, options?: QrOptions")]
pub fn encode(env: Env, input: Unknown, options: Option<Unknown>) -> napi::Result<JsQrMatrix> {
    js::sync_call(&env, || {
        #[cfg(feature = "inject-panic")]
        super::maybe_panic("encode");
        let (settings, _) = read_options(options.map(|o| Val::new(&env, o.raw())), Format::Png)?;
        let data = one_input(&env, input)?;
        let m = qr::encode(&data.as_input(), &settings.encode)?;
        Ok(JsQrMatrix {
            version: m.version as u32,
            error_correction_level: m.level.letter().to_string(),
            mask_pattern: m.mask as u32,
            size: m.size as u32,
            modules: Uint8Array::from(m.modules),
        })
    })
}

/// Options of every QR function. Unknown keys are ignored; each known key is checked.
// Declared for the TypeScript definitions only: options are read key by key in `read_options`.
#[allow(dead_code)]
#[napi(object)]
pub struct QrOptions {
    /// Error-correction level, default `'M'`.
    #[napi(ts_type = "ErrorCorrectionLevel")]
    pub error_correction_level: Option<String>,
    /// Output: `generate*` default `'png'`, `toString` default `'utf8'`. `'jpeg'` and
    /// `'webp'` (lossless) are drawn by the styled renderer, with or without a `style`.
    #[napi(js_name = "type", ts_type = "'png' | 'svg' | 'jpeg' | 'webp' | 'utf8' | 'terminal'")]
    pub kind: Option<String>,
    /// JPEG quality, an integer 1..100, default 90; the other formats ignore it.
    pub quality: Option<u32>,
    /// Shapes, colours and gradients (png, svg, jpeg, webp; utf8 and terminal refuse it).
    #[napi(ts_type = "QrStyle")]
    pub style: Option<()>,
    /// Image width in px (png, svg), an integer 1..8192; wins over `scale`. Widths under 21,
    /// or under one pixel per module, are ignored as `qrcode` ignores them.
    pub width: Option<u32>,
    /// Pixels per module, an integer 1..256, default 4.
    pub scale: Option<u32>,
    /// Quiet zone in modules, an integer 0..256, default 4.
    pub margin: Option<u32>,
    /// Colours as `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`.
    #[napi(ts_type = "Colors")]
    pub color: Option<()>,
    /// Smallest version to use, 1..40.
    #[napi(ts_type = "Version")]
    pub version: Option<u32>,
    /// Mask pattern 0..7; chosen by penalty score when absent.
    #[napi(ts_type = "MaskPattern")]
    pub mask_pattern: Option<u32>,
    /// Terminal output with half-height blocks.
    pub small: Option<bool>,
    /// Cancels the call while it waits for a thread; rejects with an `AbortError`.
    #[napi(ts_type = "AbortSignal")]
    pub signal: Option<()>,
}
