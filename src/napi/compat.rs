//! Internal entry points of `qr-native/compat` (`compat.js`). That module normalises the
//! `qrcode` package's loose options in JavaScript, exactly as `qrcode` does, and passes
//! plain values here; these functions encode and render with `qrcode`'s geometry and
//! report failures with `qrcode`'s messages.

use super::js::Val;
use super::qr::QrTask;
use crate::error::{Error, ErrorKind, Result};
use crate::qr::output::{qrcode_error, Format, InputData, Job, QrWork, Settings, DEFAULT_QUALITY};
use crate::qr::render::{Colour, RenderOptions};
use crate::qr::segment::{KanjiTable, Mode};
use crate::qr::{self, EcLevel, EncodeOptions};
use napi::bindgen_prelude::Uint8Array;
use napi::{Env, JsValue, Unknown, ValueType};
use napi_derive::napi;

fn number(o: &Val, key: &'static str) -> Result<Option<f64>> {
    Ok(match o.prop(key)? {
        Some(v) if v.value_type() == ValueType::Number => v.get_f64(),
        _ => None,
    })
}

fn string(o: &Val, key: &'static str) -> Result<Option<String>> {
    match o.prop(key)? {
        Some(v) if v.value_type() == ValueType::String => Ok(Some(v.get_string(key)?)),
        _ => Ok(None),
    }
}

fn colour(o: &Val, rgba_key: &'static str, hex_key: &'static str, default: Colour) -> Result<Colour> {
    let Some(rgba) = o.prop(rgba_key)? else { return Ok(default) };
    let channel = |i| rgba.element(i).ok().and_then(|v| v.get_f64()).unwrap_or(0.0) as u8;
    let mut c = Colour { r: channel(0), g: channel(1), b: channel(2), a: channel(3), hex: default.hex };
    if let Some(hex) = string(o, hex_key)? {
        if hex.len() == 7 {
            c.hex.copy_from_slice(hex.as_bytes());
        }
    }
    Ok(c)
}

/// The length of an internal list, checked against the most characters a QR code holds
/// before anything is read or reserved: an array's `length` is the caller's number.
fn bounded_len(list: &Val, name: &str) -> Result<u32> {
    let n = list.array_len();
    if n as usize > qr::MAX_INPUT_BYTES {
        return Err(Error::range(format_args!("{name}.length"), format_args!("<= {}", qr::MAX_INPUT_BYTES), n));
    }
    Ok(n)
}

/// Reads the payload (`string`, or `[{ mode, data }]` with modes already decided and data
/// as text or bytes) and the normalised options.
fn read(env: &Env, payload: Unknown, options: Unknown) -> Result<(InputData, Settings, Option<KanjiTable>)> {
    let payload = Val::new(env, payload.raw());
    let o = Val::new(env, options.raw());
    let too_big = || Error::new(ErrorKind::DataTooLong, "The amount of data is too big to be stored in a QR Code");
    let input = if payload.value_type() == ValueType::String {
        // Measured before it is copied: no QR code holds more characters than this.
        if payload.string_utf16_len() > qr::MAX_INPUT_BYTES {
            return Err(too_big());
        }
        InputData::Text(payload.get_string("text")?)
    } else {
        let n = bounded_len(&payload, "segments")?;
        let mut list = Vec::new();
        for i in 0..n {
            let seg = payload.element(i)?;
            let mode = match string(&seg, "mode")?.as_deref() {
                Some("numeric") => Mode::Numeric,
                Some("alphanumeric") => Mode::Alphanumeric,
                Some("kanji") => Mode::Kanji,
                _ => Mode::Byte,
            };
            let data = seg.prop("data")?.ok_or_else(|| Error::invalid_value("segment without data"))?;
            let bytes = match data.get_bytes("data", qr::MAX_INPUT_BYTES) {
                Some(b) => b?,
                None if data.value_type() == ValueType::String && data.string_utf16_len() > qr::MAX_INPUT_BYTES => {
                    return Err(too_big())
                }
                None => data.get_string("data")?.into_bytes(),
            };
            list.push((mode, bytes));
        }
        InputData::Segments(list)
    };
    let level = string(&o, "level")?.and_then(|l| EcLevel::parse(&l)).unwrap_or(EcLevel::M);
    let version = number(&o, "version")?.filter(|v| (1.0..=40.0).contains(v)).map(|v| v as u8);
    let mask = number(&o, "mask")?.filter(|v| (0.0..=7.0).contains(v)).map(|v| v as u8);
    let format = match string(&o, "type")?.as_deref() {
        Some("svg") => Format::Svg,
        Some("utf8") => Format::Utf8,
        Some("terminal") => Format::Terminal,
        _ => Format::Png,
    };
    let margin = number(&o, "margin")?.unwrap_or(4.0).clamp(0.0, 256.0) as u32;
    let scale = number(&o, "scale")?.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(4.0);
    let width = number(&o, "width")?.filter(|w| w.is_finite());
    let flag = |key| -> Result<bool> { Ok(o.prop(key)?.and_then(|v| v.get_bool()).unwrap_or(false)) };
    let settings = Settings {
        encode: EncodeOptions { level, version, mask },
        render: RenderOptions {
            margin,
            scale,
            width,
            exact_width: false,
            dark: colour(&o, "dark", "darkHex", Colour::BLACK)?,
            light: colour(&o, "light", "lightHex", Colour::WHITE)?,
        },
        format,
        small: flag("small")?,
        inverse: flag("inverse")?,
        width,
        style: None,
        quality: DEFAULT_QUALITY,
    };
    let kanji = match o.prop("kanji")? {
        None => None,
        Some(pairs) => {
            let mut table = KanjiTable::default();
            for i in 0..bounded_len(&pairs, "kanji")? {
                let pair = pairs.element(i)?;
                let cp = pair.element(0)?.get_f64().unwrap_or(0.0) as u32;
                let sjis = pair.element(1)?.get_f64().filter(|v| v.is_finite() && *v >= 0.0).map(|v| v as u32);
                if let Some(c) = char::from_u32(cp) {
                    table.0.insert(c, sjis);
                }
            }
            Some(table)
        }
    };
    Ok((input, settings, kanji))
}

/// What `qrcode.create` reports, for `compat.js` to shape into its objects.
#[napi(object)]
pub struct CompatSymbol {
    pub version: u32,
    pub level: String,
    pub mask: u32,
    pub size: u32,
    pub modules: Uint8Array,
    pub reserved: Uint8Array,
    pub segment_modes: Vec<String>,
    pub segment_data: Vec<Uint8Array>,
}

/// Internal (`qr-native/compat`): `qrcode.create` on normalised arguments.
#[napi(
    js_name = "__compatEncode",
    ts_args_type = "payload: string | Array<{ mode: string; data: string | Uint8Array }>, options: object"
)]
pub fn compat_encode(env: Env, payload: Unknown, options: Unknown) -> napi::Result<CompatSymbol> {
    super::js::sync_call(&env, || {
        let (input, settings, kanji) = read(&env, payload, options)?;
        let symbol = qr::encode_symbol(&input.as_input(), &settings.encode, kanji.as_ref())
            .map_err(|e| qrcode_error(e, &input, &settings, kanji.as_ref()))?;
        let mode_name = |m: Mode| match m {
            Mode::Numeric => "Numeric",
            Mode::Alphanumeric => "Alphanumeric",
            Mode::Byte => "Byte",
            Mode::Kanji => "Kanji",
        };
        Ok(CompatSymbol {
            version: symbol.matrix.version as u32,
            level: symbol.matrix.level.letter().to_string(),
            mask: symbol.matrix.mask as u32,
            size: symbol.matrix.size as u32,
            segment_modes: symbol.segments.iter().map(|s| mode_name(s.mode).to_string()).collect(),
            segment_data: symbol.segments.iter().map(|s| Uint8Array::from(s.data.to_vec())).collect(),
            modules: Uint8Array::from(symbol.matrix.modules),
            reserved: Uint8Array::from(symbol.reserved),
        })
    })
}

/// Internal (`qr-native/compat`): renders on the threadpool to a PNG Buffer, or a string
/// for `svg`, `utf8` and `terminal`.
#[napi(
    js_name = "__compatRender",
    ts_args_type = "payload: string | Array<{ mode: string; data: string | Uint8Array }>, options: object",
    ts_return_type = "Promise<Buffer | string>"
)]
pub fn compat_render(env: Env, payload: Unknown, options: Unknown) -> napi::Result<Unknown<'static>> {
    let raw = env.raw();
    let value = super::queue::call(raw, || {
        let (input, settings, kanji) = read(&env, payload, options)?;
        let job = if settings.format == Format::Png { Job::Generate(input) } else { Job::Text(input) };
        // The compat layer's callers pass no signal.
        Ok((None, move |watch| QrTask::new(QrWork { job, settings, kanji, compat: true }, watch)))
    })?;
    // SAFETY: the value was made in this env, on this thread, just now.
    Ok(unsafe { Unknown::from_raw_unchecked(raw, value) })
}
