//! Small helpers over raw N-API values: type checks with Node-style messages, reading
//! strings and bytes, building error objects of the contract's classes, and settled promises.

use crate::error::{Error, ErrorKind, Result as CoreResult};
use crate::text;
use napi::{sys, Env, ValueType};
use std::ptr;

/// A raw value with its environment, valid for the current call.
#[derive(Clone, Copy)]
pub struct Val {
    pub env: sys::napi_env,
    pub raw: sys::napi_value,
}

fn status_ok(status: sys::napi_status, what: &str) -> CoreResult<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::Internal, format!("N-API call failed: {what} (status {status})")))
    }
}

impl Val {
    pub fn new(env: &Env, raw: sys::napi_value) -> Self {
        Val { env: env.raw(), raw }
    }

    pub fn value_type(&self) -> ValueType {
        let mut t = 0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_typeof(self.env, self.raw, &mut t) };
        ValueType::from(t)
    }

    /// `undefined` or `null`: an option that was not given.
    pub fn is_nullish(&self) -> bool {
        matches!(self.value_type(), ValueType::Undefined | ValueType::Null)
    }

    /// A short rendering for messages: `type string ('abc')`, `type number (NaN)`, …
    pub fn describe(&self) -> String {
        match self.value_type() {
            ValueType::Undefined => "undefined".into(),
            ValueType::Null => "null".into(),
            ValueType::Boolean => format!("type boolean ({})", self.get_bool().unwrap_or(false)),
            ValueType::Number => format!("type number ({})", text::js_number(self.get_f64().unwrap_or(f64::NAN))),
            ValueType::String => {
                let s = self.get_string_lossy(30);
                format!("type string ('{s}')")
            }
            ValueType::Function => "function".into(),
            ValueType::Object if self.is_array() => "an instance of Array".into(),
            ValueType::Object => format!("an instance of {}", self.builtin_class().unwrap_or("Object")),
            ValueType::BigInt => "type bigint".into(),
            ValueType::Symbol => "type symbol".into(),
            _ => "an unknown value".into(),
        }
    }

    pub fn get_bool(&self) -> Option<bool> {
        let mut b = false;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        (unsafe { sys::napi_get_value_bool(self.env, self.raw, &mut b) } == sys::Status::napi_ok).then_some(b)
    }

    pub fn get_f64(&self) -> Option<f64> {
        let mut n = 0.0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        (unsafe { sys::napi_get_value_double(self.env, self.raw, &mut n) } == sys::Status::napi_ok).then_some(n)
    }

    pub fn is_array(&self) -> bool {
        let mut b = false;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_is_array(self.env, self.raw, &mut b) };
        b
    }

    pub fn is_typedarray(&self) -> bool {
        let mut b = false;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_is_typedarray(self.env, self.raw, &mut b) };
        b
    }

    /// The class of a binary built-in (typed arrays, `ArrayBuffer`, `DataView`), found
    /// without running JavaScript (no `constructor` getter is read).
    fn builtin_class(&self) -> Option<&'static str> {
        use sys::TypedarrayType as T;
        let mut b = false;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_is_arraybuffer(self.env, self.raw, &mut b) };
        if b {
            return Some("ArrayBuffer");
        }
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_is_dataview(self.env, self.raw, &mut b) };
        if b {
            return Some("DataView");
        }
        if !self.is_typedarray() {
            return None;
        }
        let (mut kind, mut len, mut data, mut buffer, mut offset) = (0, 0, ptr::null_mut(), ptr::null_mut(), 0);
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe {
            sys::napi_get_typedarray_info(self.env, self.raw, &mut kind, &mut len, &mut data, &mut buffer, &mut offset)
        };
        Some(match kind {
            T::int8_array => "Int8Array",
            T::uint8_array => "Uint8Array",
            T::uint8_clamped_array => "Uint8ClampedArray",
            T::int16_array => "Int16Array",
            T::uint16_array => "Uint16Array",
            T::int32_array => "Int32Array",
            T::uint32_array => "Uint32Array",
            T::float32_array => "Float32Array",
            T::float64_array => "Float64Array",
            T::bigint64_array => "BigInt64Array",
            T::biguint64_array => "BigUint64Array",
            _ => "TypedArray",
        })
    }

    /// An `ArrayBuffer` or `DataView`: bytes, but not in a form the functions take.
    pub fn is_raw_buffer(&self) -> bool {
        let (mut ab, mut dv) = (false, false);
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe {
            sys::napi_is_arraybuffer(self.env, self.raw, &mut ab);
            sys::napi_is_dataview(self.env, self.raw, &mut dv);
        }
        ab || dv
    }

    /// Length of a string in UTF-16 units, without copying it.
    pub fn string_utf16_len(&self) -> usize {
        let mut len = 0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_get_value_string_utf16(self.env, self.raw, ptr::null_mut(), 0, &mut len) };
        len
    }

    /// The string's UTF-16 units.
    pub fn get_utf16(&self) -> CoreResult<Vec<u16>> {
        let len = self.string_utf16_len();
        let mut units = vec![0u16; len + 1];
        let mut written = 0;
        status_ok(
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe { sys::napi_get_value_string_utf16(self.env, self.raw, units.as_mut_ptr(), len + 1, &mut written) },
            "read string",
        )?;
        units.truncate(written);
        Ok(units)
    }

    /// The string's UTF-8 bytes, exactly as JavaScript holds it: a lone surrogate is an
    /// `ERR_INVALID_ARG_VALUE` naming `name` and the index, never silently replaced.
    /// A string shorter than `READ_WIDE_FROM` units is read as UTF-8 in one copy, and only
    /// text that holds U+FFFD (what V8 writes for a lone surrogate) is read again as UTF-16
    /// to tell the two apart; a longer one goes through `read_wide`.
    pub fn get_string(&self, name: &str) -> CoreResult<String> {
        let units = self.string_utf16_len();
        if units >= READ_WIDE_FROM {
            let mut out = Vec::new();
            self.read_wide(name, units, &mut out)?;
            return String::from_utf8(out)
                .map_err(|_| Error::new(ErrorKind::Internal, "a string converted to invalid UTF-8"));
        }
        let mut len = 0;
        status_ok(
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe { sys::napi_get_value_string_utf8(self.env, self.raw, ptr::null_mut(), 0, &mut len) },
            "measure string",
        )?;
        let mut bytes = vec![0u8; len + 1];
        let mut written = 0;
        status_ok(
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe {
                sys::napi_get_value_string_utf8(self.env, self.raw, bytes.as_mut_ptr().cast(), len + 1, &mut written)
            },
            "read string",
        )?;
        bytes.truncate(written);
        if !text::has_replacement_char(&bytes) {
            return String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::Internal, "V8 returned invalid UTF-8"));
        }
        let units = self.get_utf16()?;
        String::from_utf16(&units).map_err(|_| text::lone_surrogate(name, &units))
    }

    /// Appends the UTF-8 of this string, `len` UTF-16 units long (at least `READ_WIDE_FROM`),
    /// to `out`. Its units are copied first (V8 copies or widens them as a block) into a
    /// buffer kept per thread, and narrowed here when they are ASCII; a text with some other
    /// characters is converted by encoding_rs, whose ASCII runs go at SIMD speed, and one
    /// with many is written by V8 (`read_utf8`), which is the faster there. A lone surrogate
    /// is an `ERR_INVALID_ARG_VALUE`, as for `get_string`.
    pub fn read_wide(&self, name: impl std::fmt::Display, len: usize, out: &mut Vec<u8>) -> CoreResult<()> {
        self.with_units(len, |units| self.read_wide_with(name, units, out))
    }

    /// Whether this string, `len` UTF-16 units long, holds no lone surrogate: its units are
    /// copied into the per-thread buffer and checked there.
    pub fn is_well_formed(&self, len: usize) -> CoreResult<bool> {
        self.with_units(len, |units| Ok(!text::has_lone_surrogate(units)))
    }

    /// Runs `f` on this string's units (`len` of them), copied into a buffer kept per thread
    /// for the next long string, but not past `KEEP_UNITS`.
    fn with_units<R>(&self, len: usize, f: impl FnOnce(&[u16]) -> CoreResult<R>) -> CoreResult<R> {
        WIDE_UNITS.with_borrow_mut(|units| {
            units.clear();
            units.reserve(len + 1);
            let mut written = 0;
            // V8 writes the units into the spare capacity, and a terminating zero.
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            let read = status_ok(
                unsafe {
                    sys::napi_get_value_string_utf16(self.env, self.raw, units.as_mut_ptr(), len + 1, &mut written)
                },
                "read string",
            );
            // SAFETY: N-API wrote the first `written` units (at most `len`, the room given); on a
            // failure none are kept.
            unsafe { units.set_len(if read.is_ok() { written.min(len) } else { 0 }) };
            let result = read.and_then(|()| f(units));
            if units.capacity() > KEEP_UNITS {
                *units = Vec::new();
            }
            result
        })
    }

    fn read_wide_with(&self, name: impl std::fmt::Display, units: &[u16], out: &mut Vec<u8>) -> CoreResult<()> {
        let from = out.len();
        if text::push_ascii(units, out) {
            return Ok(());
        }
        // Under WebAssembly always ours: emnapi's UTF-8 writer stops at a lone surrogate.
        if cfg!(target_family = "wasm") || text::mostly_ascii(units) {
            text::push_utf8(units, out);
        } else {
            self.read_utf8(units, out)?;
        }
        // Both write U+FFFD for a lone surrogate: only then are the units checked.
        if text::has_replacement_char(&out[from..]) && encoding_rs::mem::utf16_valid_up_to(units) < units.len() {
            out.truncate(from);
            return Err(text::lone_surrogate(name, units));
        }
        Ok(())
    }

    /// Appends the UTF-8 of this string, whose units are `units`, as V8 writes it, in one
    /// call: with room for three bytes a unit (which holds any string's UTF-8), or past
    /// `MAX_ONE_READ` of that, exactly its length, counted from the units.
    fn read_utf8(&self, units: &[u16], out: &mut Vec<u8>) -> CoreResult<()> {
        let room = units.len().saturating_mul(3);
        let exact = (room > MAX_ONE_READ).then(|| text::utf8_len(units));
        let room = exact.unwrap_or(room) + 1;
        out.reserve(room);
        let from = out.len();
        let mut written = 0;
        // V8 writes into the spare capacity; nothing is zero-filled first.
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        let read = unsafe {
            let s = sys::napi_get_value_string_utf8(
                self.env,
                self.raw,
                out.as_mut_ptr().add(from).cast(),
                room,
                &mut written,
            );
            out.set_len(from + written.min(room - 1));
            s
        };
        status_ok(read, "read string")?;
        if exact.is_some_and(|bytes| written != bytes) {
            out.truncate(from);
            return Err(Error::new(ErrorKind::Internal, "a string was read short"));
        }
        Ok(())
    }

    fn get_string_lossy(&self, max_units: usize) -> String {
        let units = self.get_utf16().unwrap_or_default();
        let cut = &units[..units.len().min(max_units)];
        let mut s = String::from_utf16_lossy(cut);
        if units.len() > max_units {
            s.push('…');
        }
        s
    }

    /// The bytes of a `Uint8Array` (Buffer included) for the length of the current call, or
    /// `None` for any other value. A detached or empty array gives `&[]`. The slice points
    /// into JavaScript memory: use it before any JavaScript runs again, and copy what must
    /// outlive the call (`get_bytes`).
    pub fn typed_bytes<'a>(&self) -> Option<&'a [u8]> {
        self.bytes_of_kind(false)
    }

    /// Like `typed_bytes`, but a `Uint8ClampedArray` (canvas `ImageData.data`) is accepted too.
    pub fn pixel_bytes<'a>(&self) -> Option<&'a [u8]> {
        self.bytes_of_kind(true)
    }

    fn bytes_of_kind<'a>(&self, clamped: bool) -> Option<&'a [u8]> {
        let mut kind = 0;
        let mut len = 0;
        let mut data = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        let mut offset = 0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        let is_typed = self.is_typedarray()
            && unsafe {
                sys::napi_get_typedarray_info(
                    self.env,
                    self.raw,
                    &mut kind,
                    &mut len,
                    &mut data,
                    &mut buffer,
                    &mut offset,
                )
            } == sys::Status::napi_ok;
        let wanted =
            kind == sys::TypedarrayType::uint8_array || (clamped && kind == sys::TypedarrayType::uint8_clamped_array);
        if !is_typed || !wanted {
            return None;
        }
        Some(if data.is_null() || len == 0 {
            &[]
        } else {
            // SAFETY: N-API gave the typed array's data and length for the current call; the slice
            // is read before the call returns and not kept.
            unsafe { std::slice::from_raw_parts(data as *const u8, len) }
        })
    }

    /// A copy of a `Uint8Array`'s bytes, `None` for any other value; `Err` when it holds more
    /// than `max` bytes (checked before anything is allocated). The copy is what crosses to
    /// another thread: the caller may transfer, detach, resize or rewrite its buffer at once.
    pub fn get_bytes(&self, name: &str, max: usize) -> Option<CoreResult<Vec<u8>>> {
        let bytes = self.typed_bytes()?;
        Some(if bytes.len() > max {
            Err(Error::out_of_range(format!(
                "The argument '{name}' is too large: {} bytes. It must be at most {max} bytes",
                bytes.len()
            )))
        } else {
            Ok(copy_of(bytes))
        })
    }

    /// Property `key` of an object, `None` when it is `undefined` or `null`.
    pub fn prop(&self, key: &str) -> CoreResult<Option<Val>> {
        let mut out = ptr::null_mut();
        let key_c = std::ffi::CString::new(key).unwrap_or_default();
        status_ok(
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe { sys::napi_get_named_property(self.env, self.raw, key_c.as_ptr(), &mut out) },
            "read property",
        )?;
        let v = Val { env: self.env, raw: out };
        Ok((!v.is_nullish()).then_some(v))
    }

    /// Calls `f(name, value)` for each own enumerable string-keyed property that is not
    /// `undefined` or `null`. One N-API call lists the keys, so an options object with two
    /// keys costs three calls, not one per option the reader knows.
    pub fn for_each_own(&self, mut f: impl FnMut(&str, Val) -> CoreResult<()>) -> CoreResult<()> {
        let mut keys = ptr::null_mut();
        status_ok(
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe {
                sys::napi_get_all_property_names(
                    self.env,
                    self.raw,
                    sys::KeyCollectionMode::own_only,
                    sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
                    sys::KeyConversion::numbers_to_strings,
                    &mut keys,
                )
            },
            "list properties",
        )?;
        let keys = Val { env: self.env, raw: keys };
        for i in 0..keys.array_len() {
            let key = keys.element(i)?;
            let mut buf = [0u8; 32];
            let mut len = 0;
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            unsafe { sys::napi_get_value_string_utf8(self.env, key.raw, buf.as_mut_ptr().cast(), buf.len(), &mut len) };
            let mut value = ptr::null_mut();
            // SAFETY: `self` is a value of the current call's env, used on its thread; out-
            // pointers are locals.
            status_ok(unsafe { sys::napi_get_property(self.env, self.raw, key.raw, &mut value) }, "read property")?;
            let value = Val { env: self.env, raw: value };
            if !value.is_nullish() {
                f(std::str::from_utf8(&buf[..len]).unwrap_or(""), value)?;
            }
        }
        Ok(())
    }

    /// A short string (an enum option) read as UTF-8 without allocating; `None` when it is
    /// 16 bytes or longer, which no accepted value is. UTF-8, not latin1: latin1 keeps only
    /// each unit's low byte, so `'Ō'` would read as `'L'`.
    pub fn short_string(&self, buf: &mut [u8; 17]) -> Option<usize> {
        let mut len = 0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        let status =
            unsafe { sys::napi_get_value_string_utf8(self.env, self.raw, buf.as_mut_ptr().cast(), 17, &mut len) };
        (status == sys::Status::napi_ok && len < 13).then_some(len)
    }

    pub fn array_len(&self) -> u32 {
        let mut len = 0;
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        unsafe { sys::napi_get_array_length(self.env, self.raw, &mut len) };
        len
    }

    pub fn element(&self, i: u32) -> CoreResult<Val> {
        let mut out = ptr::null_mut();
        // SAFETY: `self` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        status_ok(unsafe { sys::napi_get_element(self.env, self.raw, i, &mut out) }, "read array element")?;
        Ok(Val { env: self.env, raw: out })
    }
}

/// Copies at or above this size have their pages faulted in by one call first.
#[cfg(target_os = "linux")]
const PREFAULT_COPY: usize = 4 << 20;

/// A copy of `bytes` in memory of our own. A large copy's cost is mostly page faults on the
/// fresh memory (twice the copying itself, measured on 100 MiB), so on Linux its pages
/// are first populated in one `madvise(MADV_POPULATE_WRITE)` call instead of one fault per
/// page. (Huge pages halved it in a quiet process but stalled for 300+ ms in compaction in
/// a fragmented one: measured.) Advice only: where the kernel declines (before 5.14), it is
/// an ordinary copy.
pub fn copy_of(bytes: &[u8]) -> Vec<u8> {
    let mut copy = Vec::with_capacity(bytes.len());
    #[cfg(target_os = "linux")]
    if bytes.len() >= PREFAULT_COPY {
        const PAGE: usize = 4096;
        let start = (copy.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let end = (copy.as_mut_ptr() as usize + bytes.len()) / PAGE * PAGE;
        if end > start {
            // Untouched memory of this allocation's own: populating it changes no contents.
            // SAFETY: the range lies inside this Vec's own, untouched allocation; populating pages
            // changes no contents.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_POPULATE_WRITE) };
        }
    }
    copy.extend_from_slice(bytes);
    copy
}

/// A Buffer holding `bytes`: copied into V8's memory when small (cheaper than an external
/// buffer's finalizer), handed over without copy when large. Under WebAssembly always copied:
/// an external buffer there is a view of the module's memory, whose `.buffer` is all of it.
pub fn buffer(env: sys::napi_env, bytes: Vec<u8>) -> napi::Result<sys::napi_value> {
    #[cfg(not(target_family = "wasm"))]
    const COPY_BELOW: usize = 64 * 1024;
    #[cfg(target_family = "wasm")]
    const COPY_BELOW: usize = usize::MAX;
    if bytes.len() < COPY_BELOW {
        let mut out = ptr::null_mut();
        let mut data = ptr::null_mut();
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe {
            napi::check_status!(sys::napi_create_buffer_copy(
                env,
                bytes.len(),
                bytes.as_ptr().cast(),
                &mut data,
                &mut out
            ))?;
        }
        Ok(out)
    } else {
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe { napi::bindgen_prelude::ToNapiValue::to_napi_value(env, napi::bindgen_prelude::Buffer::from(bytes)) }
    }
}

/// Strings of at least this many UTF-16 units are read by `Val::read_wide`. V8 (Node 20)
/// writes UTF-8 at memory speed only for a flat string of ASCII; for any other (one with a
/// character outside ASCII anywhere, or one built by `+` or `slice`) a character at a time,
/// several times slower. A copy of the units and our own conversion cost about what the
/// fast case costs, whatever the string. A shorter string is read as UTF-8 in one call,
/// which costs less than the two calls the units take. Under WebAssembly every string is
/// read by its units and converted here: emnapi's UTF-8 writer stops at a lone surrogate,
/// where V8 writes U+FFFD, so its output cannot tell one from the end of the string.
#[cfg(not(target_family = "wasm"))]
pub const READ_WIDE_FROM: usize = 1024;
#[cfg(target_family = "wasm")]
pub const READ_WIDE_FROM: usize = 0;

/// Past this much room (three bytes a unit), a dense string's UTF-8 is counted first.
const MAX_ONE_READ: usize = 64 << 20;

/// `read_wide` keeps a units buffer of at most this many units between calls.
const KEEP_UNITS: usize = 1 << 20;

thread_local! {
    static WIDE_UNITS: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
}
/// `TypeError` for a value of the wrong type, in Node's words.
pub fn wrong_type(name: &str, expected: &str, got: &Val) -> Error {
    Error::invalid_type(format!("The \"{name}\" argument must be {expected}. Received {}", got.describe()))
}

/// An integer option in `lo..=hi`: `TypeError` for a non-number, `RangeError` for NaN,
/// ±Infinity, fractions and values outside the range.
pub fn integer_in(name: &str, v: &Val, lo: i64, hi: i64) -> CoreResult<i64> {
    if v.value_type() != ValueType::Number {
        return Err(wrong_type(name, "of type number", v));
    }
    let n = v.get_f64().unwrap_or(f64::NAN);
    if !(n.is_finite() && n.fract() == 0.0 && n >= lo as f64 && n <= hi as f64) {
        return Err(Error::range(name, format_args!("an integer >= {lo} and <= {hi}"), text::js_number(n)));
    }
    Ok(n as i64)
}

/// A finite number in `lo..=hi`: `TypeError` for a non-number, `RangeError` otherwise.
pub fn number_in(name: &str, v: &Val, lo: f64, hi: f64) -> CoreResult<f64> {
    if v.value_type() != ValueType::Number {
        return Err(wrong_type(name, "of type number", v));
    }
    let n = v.get_f64().unwrap_or(f64::NAN);
    if !(n.is_finite() && n >= lo && n <= hi) {
        return Err(Error::range(name, format_args!(">= {lo} and <= {hi}"), text::js_number(n)));
    }
    Ok(n)
}

/// A string option.
pub fn string_of(name: &str, v: &Val) -> CoreResult<String> {
    if v.value_type() != ValueType::String {
        return Err(wrong_type(name, "of type string", v));
    }
    v.get_string(name)
}

/// A boolean option.
pub fn bool_of(name: &str, v: &Val) -> CoreResult<bool> {
    if v.value_type() != ValueType::Boolean {
        return Err(wrong_type(name, "of type boolean", v));
    }
    Ok(v.get_bool().unwrap_or(false))
}

/// An options object: `None` when omitted, `TypeError` when not an object.
pub fn options_object(name: &str, v: Option<Val>) -> CoreResult<Option<Val>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_nullish() => Ok(None),
        Some(v) if v.value_type() == ValueType::Object && !v.is_array() => Ok(Some(v)),
        Some(v) => Err(wrong_type(name, "of type object", &v)),
    }
}

/// The JavaScript error object for `err`: the contract's class, `code` and message.
pub fn error_value(env: sys::napi_env, err: &Error) -> sys::napi_value {
    let mut code = ptr::null_mut();
    let mut msg = ptr::null_mut();
    let mut out = ptr::null_mut();
    let code_str = err.kind.code();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        sys::napi_create_string_utf8(env, code_str.as_ptr().cast(), code_str.len() as isize, &mut code);
        sys::napi_create_string_utf8(env, err.message.as_ptr().cast(), err.message.len() as isize, &mut msg);
        match err.kind {
            ErrorKind::InvalidArgType | ErrorKind::InvalidArgValue | ErrorKind::StyleUnreadable => {
                sys::napi_create_type_error(env, code, msg, &mut out)
            }
            ErrorKind::OutOfRange | ErrorKind::DataTooLong | ErrorKind::LogoTooLarge => {
                sys::napi_create_range_error(env, code, msg, &mut out)
            }
            ErrorKind::InvalidPattern => sys::node_api_create_syntax_error(env, code, msg, &mut out),
            ErrorKind::Aborted | ErrorKind::Internal | ErrorKind::QueueFull | ErrorKind::Disposed => {
                sys::napi_create_error(env, code, msg, &mut out)
            }
        };
        if err.kind == ErrorKind::Aborted {
            let mut name = ptr::null_mut();
            sys::napi_create_string_utf8(env, c"AbortError".as_ptr(), 10, &mut name);
            sys::napi_set_named_property(env, out, c"name".as_ptr(), name);
        }
    }
    out
}

/// The JavaScript exception user code threw while this call read its arguments (a getter, a
/// Proxy trap, a signal's `addEventListener`), taken off the pending state; `None` if none.
pub fn take_exception(env: sys::napi_env) -> Option<sys::napi_value> {
    let mut pending = false;
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_is_exception_pending(env, &mut pending) };
    if !pending {
        return None;
    }
    let mut thrown = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    (unsafe { sys::napi_get_and_clear_last_exception(env, &mut thrown) } == sys::Status::napi_ok).then_some(thrown)
}

/// Whether user code threw during this call (the exception is left pending, to propagate).
pub fn exception_pending(env: sys::napi_env) -> bool {
    let mut pending = false;
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_is_exception_pending(env, &mut pending) };
    pending
}

/// A promise already rejected with `err` (async functions never throw).
/// When user code threw while the arguments were read, the promise rejects with what it
/// threw: a Promise-returning function never throws synchronously.
pub fn rejected(env: sys::napi_env, err: &Error) -> napi::Result<sys::napi_value> {
    let reason = take_exception(env).unwrap_or_else(|| error_value(env, err));
    rejected_with(env, reason)
}

/// A promise already rejected with the JavaScript value `reason`.
pub fn rejected_with(env: sys::napi_env, reason: sys::napi_value) -> napi::Result<sys::napi_value> {
    let mut deferred = ptr::null_mut();
    let mut promise = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        napi::check_status!(sys::napi_create_promise(env, &mut deferred, &mut promise))?;
        napi::check_status!(sys::napi_reject_deferred(env, deferred, reason))?;
    }
    Ok(promise)
}

/// Runs a sync function's body: a panic or error becomes a thrown JavaScript error, and an
/// exception user code threw while the arguments were read propagates as it is.
pub fn sync_call<T>(env: &Env, f: impl FnOnce() -> CoreResult<T>) -> napi::Result<T> {
    crate::error::catch_panic(f).map_err(|e| {
        // Thrown here, as the object `error_value` builds: napi-rs throws nothing for a
        // pending exception (under WebAssembly its `Error` would keep the message only).
        if !exception_pending(env.raw()) {
            // SAFETY: N-API with the env of the current call, on its thread.
            unsafe { sys::napi_throw(env.raw(), error_value(env.raw(), &e)) };
        }
        napi::Error::new(napi::Status::PendingException, String::new())
    })
}

#[cfg(target_family = "wasm")]
extern "C" {
    /// emnapi's: copies between an ArrayBuffer's JavaScript memory and the module's copy of it
    /// (`js_to_wasm` false: what native code wrote, out to JavaScript).
    fn emnapi_sync_memory(
        env: sys::napi_env,
        js_to_wasm: bool,
        arraybuffer_or_view: *mut sys::napi_value,
        byte_offset: usize,
        length: usize,
    ) -> sys::napi_status;
}

/// After native code wrote `length` bytes into the data of `arraybuffer` (made by
/// `napi_create_arraybuffer`): under WebAssembly that data is the module's copy, and this
/// writes it out to the ArrayBuffer JavaScript sees. Natively the two are one: nothing to do.
#[cfg(target_family = "wasm")]
pub fn written(env: sys::napi_env, mut arraybuffer: sys::napi_value, length: usize) -> CoreResult<()> {
    // SAFETY: N-API with the env of the current call, on its thread; `arraybuffer` is a value
    // of this call.
    status_ok(unsafe { emnapi_sync_memory(env, false, &mut arraybuffer, 0, length) }, "sync ArrayBuffer memory")
}

#[cfg(not(target_family = "wasm"))]
#[inline(always)]
pub fn written(_env: sys::napi_env, _arraybuffer: sys::napi_value, _length: usize) -> CoreResult<()> {
    Ok(())
}
