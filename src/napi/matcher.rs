//! `Matcher` and `isMatch` as JavaScript sees them: argument checks and text conversion
//! here, all matching in `crate::matcher`.
//!
//! `Matcher` is defined with raw N-API (`napi_define_class`) rather than `#[napi]`: napi-rs's
//! own wrapper around a function (argument conversion, its error and panic handling) costs
//! as much again as the whole of one of our calls, and a `#[napi]` class method more (its
//! borrow tracking takes a lock and registers guards per call), while a single-pattern `test`
//! must stay within a few times a JS `RegExp.test`. `npm run bench -- --only match` prints the
//! call alone both ways, side by side (`__napiRsBoundTest` is the same call through
//! `#[napi]`). Each method is one `extern "C"` function: read the receiver and arguments,
//! call `crate::matcher`, convert the result; its types are in `header.d.ts`.

use super::js::{self, sync_call, Val};
use super::signal;
use super::task::{PoolTask, Work};
use crate::error::{catch_panic, Error, ErrorKind, Result};
use crate::matcher::{cache::OneOffCache, lines, GlobRegex, IgnoreGlob, Kind, Matcher, PatternSpec, Place, Syntax};
use crate::runtime::handles::{disposed, Handles};
use crate::runtime::shared::{Shared, MAX_SHARED};
use napi::bindgen_prelude::{Object, ToNapiValue, Uint32Array};
use napi::{sys, Env, JsValue, Unknown, ValueType};
use napi_derive::napi;
use std::cell::RefCell;
use std::sync::Arc;

/// A text argument for the duration of one call.
enum Text<'a> {
    /// A JavaScript string, as the UTF-8 V8 wrote. Matching reads bytes, so it is checked
    /// as UTF-8 only where a `&str` is needed (`findAll`'s UTF-16 offsets): checking every
    /// string took 3 % of a `test` of isbot's list on a bot agent (`perf`).
    Str(&'a [u8]),
    /// A Buffer or Uint8Array, as it is.
    Bytes(&'a [u8]),
}

impl Text<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Text::Str(s) => s,
            Text::Bytes(b) => b,
        }
    }
}

thread_local! {
    /// Reused for strings read on the JavaScript thread, so a call allocates nothing.
    static STRING_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room a short string's read is given, reserved once per thread: three bytes for each of
/// fewer than `js::READ_WIDE_FROM` units, and N-API's terminator.
const SHORT_READ: usize = 3 * js::READ_WIDE_FROM + 1;

/// Runs `f` with the text of `v` (`name` for messages): a string (no lone surrogates) or a
/// Buffer/Uint8Array. Asking a string's length says whether `v` is one (and costs about
/// 1% of a short `test`); a short string is then read as UTF-8 in one N-API call, a long
/// one through its units (`Val::read_wide`).
fn with_text<R>(name: impl std::fmt::Display, v: &Val, f: impl FnOnce(Text<'_>) -> Result<R>) -> Result<R> {
    // Taken by whichever branch reads the text.
    let mut f = Some(f);
    let as_string = STRING_BUFFER.with(|cell| -> Option<Result<R>> {
        let mut buf = cell.borrow_mut();
        buf.clear();
        // Asking its length (it costs nothing) says whether `v` is a string.
        let mut units = 0;
        // SAFETY: `v` is a value of the current call's env, used on its thread; out-pointers
        // are locals.
        if unsafe { sys::napi_get_value_string_utf16(v.env, v.raw, std::ptr::null_mut(), 0, &mut units) }
            != sys::Status::napi_ok
        {
            return None; // not a string
        }
        if units >= js::READ_WIDE_FROM {
            let result = v.read_wide(&name, units, &mut buf).and_then(|()| {
                f.take().map_or_else(|| Err(Error::new(ErrorKind::Internal, "text read twice")), |f| f(Text::Str(&buf)))
            });
            if buf.capacity() > 1 << 20 {
                *buf = Vec::new();
            }
            return Some(result);
        }
        buf.reserve(SHORT_READ);
        let mut written = 0;
        // V8 writes into the spare capacity; nothing is zero-filled first. The room holds any
        // string of fewer than `READ_WIDE_FROM` units whole.
        // SAFETY: `v` is a value of the current call's env, used on its thread; V8 writes at
        // most `SHORT_READ` bytes into the room reserved above, and `set_len` keeps the
        // `written` it reports (0 on a failure).
        let read = unsafe {
            let s = sys::napi_get_value_string_utf8(v.env, v.raw, buf.as_mut_ptr().cast(), SHORT_READ, &mut written);
            buf.set_len(written.min(SHORT_READ - 1));
            s
        };
        if read != sys::Status::napi_ok {
            return Some(Err(Error::new(ErrorKind::Internal, "could not read a string")));
        }
        let result = (|| {
            // V8 writes U+FFFD for a lone surrogate: only then is the string read again.
            if crate::text::has_replacement_char(&buf) {
                v.get_string(&name.to_string())?;
            }
            f.take().map_or_else(|| Err(Error::new(ErrorKind::Internal, "text read twice")), |f| f(Text::Str(&buf)))
        })();
        if buf.capacity() > 1 << 20 {
            *buf = Vec::new(); // do not keep a large text's buffer alive
        }
        Some(result)
    });
    if let Some(result) = as_string {
        return result;
    }
    match (f.take(), v.typed_bytes()) {
        (Some(f), Some(bytes)) => f(Text::Bytes(bytes)),
        _ => Err(js::wrong_type(&name.to_string(), "of type string or an instance of Buffer or Uint8Array", v)),
    }
}

/// `texts[i]`, for messages: formatted only when one is written.
struct Item(u32);

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "texts[{}]", self.0)
    }
}

fn kind_of(name: &str, v: &Val) -> Result<Kind> {
    let text = js::string_of(name, v)?;
    Kind::parse(&text).ok_or_else(|| {
        Error::invalid_value(format!(
            "The argument '{name}' must be one of 'regex', 'exact', 'prefix', 'suffix', 'contains', 'glob', 'wildcard'. Received '{text}'"
        ))
    })
}

fn syntax_of(name: &str, v: &Val) -> Result<Syntax> {
    let text = js::string_of(name, v)?;
    Syntax::parse(&text).ok_or_else(|| {
        Error::invalid_value(format!("The argument '{name}' must be one of 'js', 'rust'. Received '{text}'"))
    })
}

/// What a pattern given as a plain string means: `options.kind`, `options.caseInsensitive`
/// and `options.syntax`, with their defaults.
#[derive(Clone)]
struct Defaults {
    kind: Kind,
    ci: bool,
    syntax: Syntax,
    /// `isMatch` of a glob: picomatch's regex for it (`lib/patterns.js` adds it).
    glob: Option<GlobRegex>,
}

/// Longest regex picomatch may have made of a glob (its globs are at most 64 Ki units; a
/// brace or extglob a few times that as a regex).
const MAX_GLOB_REGEX_BYTES: usize = 16 * crate::matcher::MAX_PATTERN_BYTES;

/// Most globs in one pattern's `ignore` (picomatch's option).
const MAX_IGNORE_GLOBS: usize = 256;

/// `{ source, flags, matchBase, windows, ignore }`: what `lib/patterns.js` asked picomatch for
/// a glob (`ignore`: `[{ glob, source, flags }]`).
fn read_glob(name: &str, v: &Val) -> Result<GlobRegex> {
    if v.value_type() != ValueType::Object {
        return Err(js::wrong_type(name, "an object { source, flags, matchBase, windows, ignore }", v));
    }
    let string = |v: &Val, field: &str, key: &str, max: usize| -> Result<String> {
        let field = format!("{field}.{key}");
        match v.prop(key)? {
            Some(s) if s.value_type() == ValueType::String => {
                if s.string_utf16_len() > max {
                    return Err(Error::out_of_range(format!(
                        "The value of \"{field}\" is out of range. It must be at most {max} units long"
                    )));
                }
                s.get_string(&field)
            }
            Some(s) => Err(js::wrong_type(&field, "of type string", &s)),
            None => Err(js::wrong_type(&field, "of type string", v)),
        }
    };
    let flag = |key: &str| -> Result<bool> {
        match v.prop(key)? {
            Some(b) => js::bool_of(&format!("{name}.{key}"), &b),
            None => Ok(false),
        }
    };
    let source = string(v, name, "source", MAX_GLOB_REGEX_BYTES)?;
    let flags = string(v, name, "flags", 16)?;
    let mut ignore = Vec::new();
    if let Some(list) = v.prop("ignore")? {
        let field = format!("{name}.ignore");
        if list.value_type() != ValueType::Object || !list.is_array() {
            return Err(js::wrong_type(&field, "an instance of Array", &list));
        }
        let n = list.array_len() as usize;
        if n > MAX_IGNORE_GLOBS {
            return Err(Error::range(format!("{field}.length"), format_args!("<= {MAX_IGNORE_GLOBS}"), n));
        }
        for i in 0..n {
            let item = list.element(i as u32)?;
            let at = format!("{field}[{i}]");
            if item.value_type() != ValueType::Object {
                return Err(js::wrong_type(&at, "an object { glob, source, flags }", &item));
            }
            ignore.push(IgnoreGlob {
                glob: string(&item, &at, "glob", crate::matcher::MAX_PATTERN_BYTES)?,
                source: string(&item, &at, "source", MAX_GLOB_REGEX_BYTES)?,
                flags: string(&item, &at, "flags", 16)?,
            });
        }
    }
    Ok(GlobRegex { source, flags, match_base: flag("matchBase")?, windows: flag("windows")?, ignore })
}

fn read_defaults(options: Option<Val>) -> Result<Defaults> {
    let mut d = Defaults { kind: Kind::Regex, ci: false, syntax: Syntax::Js, glob: None };
    if let Some(o) = js::options_object("options", options)? {
        o.for_each_own(|key, v| {
            match key {
                "kind" => d.kind = kind_of("options.kind", &v)?,
                "caseInsensitive" => d.ci = js::bool_of("options.caseInsensitive", &v)?,
                "syntax" => d.syntax = syntax_of("options.syntax", &v)?,
                "picomatch" => d.glob = Some(read_glob("options.picomatch", &v)?),
                _ => {}
            }
            Ok(())
        })?;
    }
    Ok(d)
}

/// A pattern string, refused before it is copied when it is over `MAX_PATTERN_BYTES`
/// (each UTF-16 unit is at least one UTF-8 byte) and checked again once read.
fn pattern_string(name: &str, v: &Val) -> Result<String> {
    let too_long = |len: usize| {
        Error::range(
            name,
            format_args!("at most {} bytes long", crate::matcher::MAX_PATTERN_BYTES),
            format_args!("{len} bytes or more"),
        )
    };
    let units = v.string_utf16_len();
    if units > crate::matcher::MAX_PATTERN_BYTES {
        return Err(too_long(units));
    }
    let pattern = v.get_string(name)?;
    if pattern.len() > crate::matcher::MAX_PATTERN_BYTES {
        return Err(too_long(pattern.len()));
    }
    Ok(pattern)
}

fn read_patterns(list: &Val, defaults: Defaults) -> Result<Vec<PatternSpec>> {
    if list.value_type() != ValueType::Object || !list.is_array() {
        return Err(js::wrong_type("patterns", "an instance of Array", list));
    }
    let n = list.array_len() as usize;
    if n == 0 {
        return Err(Error::invalid_value(
            "The argument 'patterns' must not be empty: a matcher needs at least one pattern",
        ));
    }
    if n > crate::matcher::MAX_PATTERNS {
        return Err(Error::range("patterns.length", format_args!("<= {}", crate::matcher::MAX_PATTERNS), n));
    }
    let mut specs = Vec::new();
    let mut total = 0usize;
    for i in 0..n {
        let item = list.element(i as u32)?;
        let name = format!("patterns[{i}]");
        let spec = match item.value_type() {
            ValueType::String => PatternSpec {
                pattern: pattern_string(&name, &item)?,
                kind: defaults.kind,
                case_insensitive: defaults.ci,
                syntax: defaults.syntax,
                glob: None,
            },
            ValueType::Object if !item.is_array() => {
                let pattern = match item.prop("pattern")? {
                    Some(p) if p.value_type() == ValueType::String => pattern_string(&format!("{name}.pattern"), &p)?,
                    Some(p) => return Err(js::wrong_type(&format!("{name}.pattern"), "of type string", &p)),
                    None => return Err(js::wrong_type(&format!("{name}.pattern"), "of type string", &item)),
                };
                let kind = match item.prop("kind")? {
                    Some(k) => kind_of(&format!("{name}.kind"), &k)?,
                    None => defaults.kind,
                };
                let ci = match item.prop("caseInsensitive")? {
                    Some(c) => js::bool_of(&format!("{name}.caseInsensitive"), &c)?,
                    None => defaults.ci,
                };
                let syntax = match item.prop("syntax")? {
                    Some(c) => syntax_of(&format!("{name}.syntax"), &c)?,
                    None => defaults.syntax,
                };
                let glob = match item.prop("picomatch")? {
                    Some(g) => Some(read_glob(&format!("{name}.picomatch"), &g)?),
                    None => None,
                };
                PatternSpec { pattern, kind, case_insensitive: ci, syntax, glob }
            }
            _ => {
                return Err(js::wrong_type(
                    &name,
                    "of type string, a RegExp, or an object { pattern, kind?, caseInsensitive?, syntax? }",
                    &item,
                ))
            }
        };
        total += spec.pattern.len();
        if total > crate::matcher::MAX_TOTAL_PATTERN_BYTES {
            return Err(crate::matcher::too_many_bytes(total));
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// Most texts one `testMany`/`firstMany` call takes.
pub const MAX_TEXTS: u32 = 1 << 24;

fn list_texts<R>(list: &Val, mut each: impl FnMut(u32, Text<'_>) -> Result<R>) -> Result<Vec<R>> {
    if list.value_type() != ValueType::Object || !list.is_array() {
        return Err(js::wrong_type("texts", "an instance of Array", list));
    }
    let n = list.array_len();
    if n > MAX_TEXTS {
        return Err(Error::range("texts.length", format_args!("<= {MAX_TEXTS}"), n));
    }
    // Grown as texts are read, never reserved from `length`: a sparse array claims a
    // length it does not hold, and its first hole is a TypeError.
    let mut out = Vec::new();
    for i in 0..n {
        let item = list.element(i)?;
        out.push(with_text(Item(i), &item, |t| each(i, t))?);
    }
    Ok(out)
}

#[cfg(feature = "inject-panic")]
fn maybe_panic(entry: &str) {
    super::maybe_panic(entry);
}

#[cfg(not(feature = "inject-panic"))]
#[inline(always)]
fn maybe_panic(_entry: &str) {}

/// A compiled set in the registry, and how many `Matcher` objects use it (see `SHARED`).
struct Slot {
    matcher: Arc<Matcher>,
    users: u64,
}

thread_local! {
    /// The matchers of this thread's JavaScript environment, by handle (`crate::runtime::handles`): a
    /// native `Matcher` object and the `Matcher`s of `lib/matcher.js` that use it hold a handle.
    /// `__matcherDispose` takes the matcher out once its last user disposes, and calls through
    /// its handle then throw `ERR_QR_NATIVE_DISPOSED`. Read and written on the JavaScript thread
    /// only; a task on the threadpool holds an `Arc` of its own.
    static REGISTRY: RefCell<Handles<Slot>> = RefCell::new(Handles::default());

    /// The native objects of the matchers last made on this thread, by their patterns as read
    /// (`crate::runtime::shared`: why, and its bounds), each through a weak reference: a
    /// `Matcher` made from the same patterns and options takes the one found
    /// (`__matcherShared`). With the environment they belong to, and the references of sets
    /// finalized since, deleted at the next call (not within a finalizer).
    static SHARED: RefCell<SharedSets> = RefCell::new(SharedSets {
        env: std::ptr::null_mut(),
        sets: Shared::new(MAX_SHARED),
        dead: Vec::new(),
    });
}

struct SharedSets {
    env: sys::napi_env,
    sets: Shared<Vec<PatternSpec>, sys::napi_ref>,
    dead: Vec<sys::napi_ref>,
}

/// Registers `matcher`, with one user; its handle.
fn register(matcher: Arc<Matcher>) -> Result<u64> {
    let gone = || Error::new(ErrorKind::Internal, "the matcher registry is gone (the thread is ending)");
    REGISTRY
        .try_with(|r| {
            let mut r =
                r.try_borrow_mut().map_err(|_| Error::new(ErrorKind::Internal, "the matcher registry is busy"))?;
            r.insert(Slot { matcher, users: 1 })
        })
        .unwrap_or_else(|_| Err(gone()))
}

/// `f` with the matcher `handle` names, or `ERR_QR_NATIVE_DISPOSED` when it names none. The
/// registry is borrowed meanwhile: `f` must not make or dispose of a matcher (no JavaScript
/// runs in it).
fn with_handle<R>(handle: u64, f: impl FnOnce(&Arc<Matcher>) -> Result<R>) -> Result<R> {
    REGISTRY
        .try_with(|r| {
            let r = r.try_borrow().map_err(|_| Error::new(ErrorKind::Internal, "the matcher registry is busy"))?;
            r.get(handle).map_or_else(|| Err(disposed()), |slot| f(&slot.matcher))
        })
        .unwrap_or_else(|_| Err(disposed()))
}

/// Adds `delta` to the users of the matcher `handle` names; how many it has then (none when
/// the handle names nothing).
fn add_users(handle: u64, delta: i64) -> u64 {
    REGISTRY
        .try_with(|r| {
            let mut r = r.try_borrow_mut().ok()?;
            let slot = r.get_mut(handle)?;
            slot.users = slot.users.saturating_add_signed(delta);
            Some(slot.users)
        })
        .ok()
        .flatten()
        .unwrap_or(0)
}

/// Takes the matcher `handle` names out of the registry (none if it names none).
fn unregister(handle: u64) -> Option<Arc<Matcher>> {
    // (At a thread's end, its registry may be gone before its finalizers run: it freed all.)
    REGISTRY.try_with(|r| r.try_borrow_mut().ok()?.remove(handle)).ok().flatten().map(|slot| slot.matcher)
}

/// `f` with this thread's shared sets, forgotten first when they belong to another
/// environment than `env` (whose references went with it).
fn with_shared<R>(env: sys::napi_env, f: impl FnOnce(&mut SharedSets) -> R) -> Option<R> {
    SHARED
        .try_with(|cell| {
            let mut cell = cell.try_borrow_mut().ok()?;
            if cell.env != env {
                cell.sets.forget();
                cell.dead.clear();
                cell.env = env;
            }
            Some(f(&mut cell))
        })
        .ok()
        .flatten()
}

/// Deletes references to shared sets that are let go of, and those of the sets finalized
/// since the last call.
fn delete_references(env: sys::napi_env, mut references: Vec<sys::napi_ref>) {
    references.extend(with_shared(env, |shared| std::mem::take(&mut shared.dead)).unwrap_or_default());
    for reference in references {
        // SAFETY: N-API with the env of the current call, on its thread; each reference was
        // made by `construct` in this env and is deleted once (the cache gave it up).
        unsafe { sys::napi_delete_reference(env, reference) };
    }
}

/// Marks objects made by this class's constructor, so a method never reinterprets another
/// addon's (or another class's) wrapped pointer.
const MATCHER_TAG: sys::napi_type_tag =
    sys::napi_type_tag { lower: 0x7172_6e61_7469_7665, upper: 0x6d61_7463_6865_7231 };

/// The arguments of one method call, up to three.
struct Call {
    env: sys::napi_env,
    this: sys::napi_value,
    args: [sys::napi_value; 3],
}

impl Call {
    unsafe fn read(env: sys::napi_env, info: sys::napi_callback_info) -> Call {
        let mut argc = 3;
        let mut call = Call { env, this: std::ptr::null_mut(), args: [std::ptr::null_mut(); 3] };
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe {
            sys::napi_get_cb_info(env, info, &mut argc, call.args.as_mut_ptr(), &mut call.this, std::ptr::null_mut())
        };
        call
    }

    fn arg(&self, i: usize) -> Val {
        Val { env: self.env, raw: self.args[i] }
    }

    /// The receiver's handle: a `TypeError` when it is not a `Matcher`, and
    /// `ERR_QR_NATIVE_DISPOSED` once it has been disposed (its wrap is gone, its tag stays).
    fn handle(&self) -> Result<u64> {
        let mut tagged = false;
        let mut ptr = std::ptr::null_mut();
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe {
            sys::napi_check_object_type_tag(self.env, self.this, &MATCHER_TAG, &mut tagged);
            if tagged {
                if sys::napi_unwrap(self.env, self.this, &mut ptr) == sys::Status::napi_ok && !ptr.is_null() {
                    return Ok(*(ptr as *const u64));
                }
                return Err(disposed());
            }
        }
        Err(Error::invalid_type("Matcher methods must be called on a Matcher (receiver is not a Matcher)"))
    }

    /// `f` with the receiver's matcher (see `handle`).
    fn with_matcher<R>(&self, f: impl FnOnce(&Arc<Matcher>) -> Result<R>) -> Result<R> {
        with_handle(self.handle()?, f)
    }

    /// The receiver's matcher, shared (see `handle`).
    fn matcher(&self) -> Result<Arc<Matcher>> {
        self.with_matcher(|m| Ok(Arc::clone(m)))
    }
}

/// Runs one method body: a panic or error becomes a thrown JavaScript error.
unsafe fn method(
    env: sys::napi_env,
    info: sys::napi_callback_info,
    body: impl FnOnce(&Call) -> Result<sys::napi_value>,
) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    let call = unsafe { Call::read(env, info) };
    settle(env, catch_panic(|| body(&call)))
}

/// A method's return value, or `NULL` with its error thrown.
fn settle(env: sys::napi_env, result: Result<sys::napi_value>) -> sys::napi_value {
    match result {
        Ok(value) => value,
        // What user code threw while the arguments were read propagates as it is.
        Err(_) if js::exception_pending(env) => std::ptr::null_mut(),
        Err(e) => {
            // SAFETY: N-API with the env of the current call, on its thread; out-pointers are
            // locals.
            unsafe { sys::napi_throw(env, js::error_value(env, &e)) };
            std::ptr::null_mut()
        }
    }
}

fn status(s: sys::napi_status) -> Result<()> {
    if s == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::Internal, format!("N-API call failed (status {s})")))
    }
}

fn js_bool(env: sys::napi_env, b: bool) -> Result<sys::napi_value> {
    let mut out = std::ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    status(unsafe { sys::napi_get_boolean(env, b, &mut out) })?;
    Ok(out)
}

fn js_i32(env: sys::napi_env, n: i32) -> Result<sys::napi_value> {
    let mut out = std::ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    status(unsafe { sys::napi_create_int32(env, n, &mut out) })?;
    Ok(out)
}

fn js_u32(env: sys::napi_env, n: u32) -> Result<sys::napi_value> {
    let mut out = std::ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    status(unsafe { sys::napi_create_uint32(env, n, &mut out) })?;
    Ok(out)
}

/// A typed array of `kind` holding `items` (copied once into a new ArrayBuffer).
fn typed_array<T: Copy>(env: sys::napi_env, kind: sys::napi_typedarray_type, items: &[T]) -> Result<sys::napi_value> {
    let bytes = std::mem::size_of_val(items);
    let mut data = std::ptr::null_mut();
    let mut buffer = std::ptr::null_mut();
    let mut out = std::ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; `data` is the new buffer's
    // own `bytes` bytes, which `items` fills exactly.
    unsafe {
        status(sys::napi_create_arraybuffer(env, bytes, &mut data, &mut buffer))?;
        if bytes > 0 {
            std::ptr::copy_nonoverlapping(items.as_ptr() as *const u8, data as *mut u8, bytes);
            js::written(env, buffer, bytes)?;
        }
        status(sys::napi_create_typedarray(env, kind, items.len(), buffer, 0, &mut out))?;
    }
    Ok(out)
}

/// Tells V8 how much native memory a matcher holds (`bytes` < 0 when it is freed), so that
/// a loop making matchers triggers garbage collection as its native memory grows, not only
/// as its few JavaScript bytes do.
fn report_external(env: sys::napi_env, bytes: i64) {
    let mut total = 0;
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_adjust_external_memory(env, bytes, &mut total) };
}

unsafe extern "C" fn finalize_matcher(env: sys::napi_env, data: *mut std::ffi::c_void, _hint: *mut std::ffi::c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    let handle = unsafe { Box::from_raw(data as *mut u64) };
    // Its weak reference goes at the next call (at the environment's end, with the rest).
    with_shared(env, |shared| {
        if let Some(reference) = shared.sets.remove(*handle) {
            shared.dead.push(reference);
        }
    });
    release(env, *handle);
}

/// Frees the matcher `handle` names, telling V8 its memory is gone (once: a handle that
/// names nothing frees nothing).
fn release(env: sys::napi_env, handle: u64) {
    if let Some(matcher) = unregister(handle) {
        report_external(env, -(matcher.reported_memory() as i64));
    }
}

/// `new Matcher(patterns, options?)`.
unsafe extern "C" fn construct(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let mut new_target = std::ptr::null_mut();
            sys::napi_get_new_target(env, info, &mut new_target);
            if new_target.is_null() {
                return Err(Error::invalid_type("Class constructor Matcher cannot be invoked without 'new'"));
            }
            maybe_panic("Matcher");
            let options = call.arg(1);
            let defaults = read_defaults(Some(options))?;
            let specs = read_patterns(&call.arg(0), defaults)?;
            let compiled = Arc::new(Matcher::new(&specs)?);
            let memory = compiled.memory_usage();
            let handle = register(compiled)?;
            let data = Box::into_raw(Box::new(handle));
            let wrapped = sys::napi_wrap(
                env,
                call.this,
                data.cast(),
                Some(finalize_matcher),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            if wrapped != sys::Status::napi_ok {
                drop(Box::from_raw(data));
                unregister(handle);
                return Err(Error::new(ErrorKind::Internal, "could not attach the matcher to its object"));
            }
            status(sys::napi_type_tag_object(env, call.this, &MATCHER_TAG))?;
            report_external(env, memory as i64);
            // Noted for the next `Matcher` made from the same patterns (`__matcherShared`).
            let mut reference = std::ptr::null_mut();
            if sys::napi_create_reference(env, call.this, 0, &mut reference) == sys::Status::napi_ok {
                let gone = with_shared(env, |shared| shared.sets.insert(specs, handle, reference))
                    .unwrap_or_else(|| vec![reference]);
                delete_references(env, gone);
            }
            Ok(call.this)
        })
    }
}

unsafe extern "C" fn get_size(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { method(env, info, |call| call.with_matcher(|m| js_u32(env, m.len()))) }
}

fn test_body(env: sys::napi_env, m: &Matcher, text: &Val) -> Result<sys::napi_value> {
    maybe_panic("test");
    js_bool(env, with_text("text", text, |t| Ok(m.test(t.bytes())))?)
}

fn first_body(env: sys::napi_env, m: &Matcher, text: &Val) -> Result<sys::napi_value> {
    js_i32(env, with_text("text", text, |t| Ok(m.first(t.bytes()).map_or(-1, |i| i as i32)))?)
}

/// `matches` answers no match as −1 and one as its index, and only more as a `Uint32Array`;
/// `lib/matcher.js` makes the array of none or one. V8 makes a small one on its own heap,
/// where one made through N-API (an ArrayBuffer with a backing store of its own) cost more
/// than the rest of a call on a short text; so did an N-API `Array` of two.
fn matches_body(env: sys::napi_env, m: &Matcher, text: &Val) -> Result<sys::napi_value> {
    let found = with_text("text", text, |t| Ok(m.matches(t.bytes())))?;
    match found.as_slice() {
        [] => js_i32(env, -1),
        &[one] => js_u32(env, one),
        many => typed_array(env, sys::TypedarrayType::uint32_array, many),
    }
}

unsafe extern "C" fn test(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { method(env, info, |call| call.with_matcher(|m| test_body(env, m, &call.arg(0)))) }
}

unsafe extern "C" fn first(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { method(env, info, |call| call.with_matcher(|m| first_body(env, m, &call.arg(0)))) }
}

unsafe extern "C" fn matches(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { method(env, info, |call| call.with_matcher(|m| matches_body(env, m, &call.arg(0)))) }
}

/// One call of a bound method, `(handle, text)`: `lib/matcher.js` binds a matcher's `test`,
/// `first` and `matches` to its handle (`__matcherHandle`), so a call skips the receiver's
/// type-tag check and unwrap (two private property lookups, near half of a short call).
unsafe fn bound(
    env: sys::napi_env,
    info: sys::napi_callback_info,
    body: fn(sys::napi_env, &Matcher, &Val) -> Result<sys::napi_value>,
) -> sys::napi_value {
    let mut argc = 2;
    let mut args = [std::ptr::null_mut(); 2];
    let mut handle = -1.0;
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    let read = unsafe {
        sys::napi_get_cb_info(env, info, &mut argc, args.as_mut_ptr(), std::ptr::null_mut(), std::ptr::null_mut())
            == sys::Status::napi_ok
            && sys::napi_get_value_double(env, args[0], &mut handle) == sys::Status::napi_ok
    };
    let result = if !read || !(0.0..=9.0e15).contains(&handle) {
        Err(Error::new(ErrorKind::Internal, "a bound Matcher method lost its matcher"))
    } else {
        catch_panic(|| with_handle(handle as u64, |m| body(env, m, &Val { env, raw: args[1] })))
    };
    settle(env, result)
}

unsafe extern "C" fn bound_test(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { bound(env, info, test_body) }
}

unsafe extern "C" fn bound_first(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { bound(env, info, first_body) }
}

unsafe extern "C" fn bound_matches(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { bound(env, info, matches_body) }
}

/// `__boundTest` written with napi-rs's own `#[napi]` macro, for the bench only: its row
/// "the call alone, through napi-rs's #[napi]" beside ours is why this file uses raw N-API.
#[napi(js_name = "__napiRsBoundTest")]
pub fn napi_rs_bound_test(env: Env, handle: f64, text: Unknown) -> napi::Result<bool> {
    sync_call(&env, || {
        if !(0.0..=9.0e15).contains(&handle) {
            return Err(Error::new(ErrorKind::Internal, "a bound Matcher method lost its matcher"));
        }
        with_handle(handle as u64, |m| with_text("text", &Val::new(&env, text.raw()), |t| Ok(m.test(t.bytes()))))
    })
}

/// `__matcherHandle.call(matcher)`: the matcher's handle, for `__boundTest(handle, text)` and
/// its siblings. `lib/matcher.js` keeps it in a private field of the `Matcher`.
unsafe extern "C" fn matcher_handle(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let handle = call.handle()?;
            let mut out = std::ptr::null_mut();
            status(sys::napi_create_double(env, handle as f64, &mut out))?;
            Ok(out)
        })
    }
}

unsafe extern "C" fn find_all(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let m = call.matcher()?;
            // A string's offsets are UTF-16 units, a Buffer's bytes.
            let (found, positions) = with_text("text", &call.arg(0), |t| {
                let found = match t {
                    Text::Str(bytes) => m.find_all_utf16(bytes)?,
                    Text::Bytes(bytes) => m.find_all(bytes)?,
                };
                let positions: Vec<usize> = found.iter().flat_map(|&(_, s, e)| [s, e]).collect();
                Ok((found, positions))
            })?;
            // (pattern, start, end) flat, made into objects by `lib/matcher.js`: built here,
            // each object cost five N-API calls, many times the search itself.
            let flat: Vec<u32> = (found.iter().zip(positions.chunks(2)))
                .flat_map(|(&(pattern, _, _), se)| [pattern, se[0] as u32, se[1] as u32])
                .collect();
            typed_array(env, sys::TypedarrayType::uint32_array, &flat)
        })
    }
}

unsafe extern "C" fn test_many(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            maybe_panic("testMany");
            let m = call.matcher()?;
            let flags = list_texts(&call.arg(0), |_, t| Ok(m.test(t.bytes()) as u8))?;
            typed_array(env, sys::TypedarrayType::uint8_array, &flags)
        })
    }
}

unsafe extern "C" fn first_many(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let m = call.matcher()?;
            let firsts = list_texts(&call.arg(0), |_, t| Ok(m.first(t.bytes()).map_or(-1, |i| i as i32)))?;
            typed_array(env, sys::TypedarrayType::int32_array, &firsts)
        })
    }
}

unsafe extern "C" fn scan_lines(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    let call = unsafe { Call::read(env, info) };
    let value = super::queue::call(env, || {
        let matcher = call.matcher()?;
        let data_val = call.arg(0);
        let wrong = |v: &Val| js::wrong_type("data", "of type string or an instance of Buffer or Uint8Array", v);
        let data = match data_val.value_type() {
            ValueType::String => ScanData::Text(data_val.get_string("data")?),
            // Copied here, on the JavaScript thread: no pointer into the caller's buffer
            // reaches the threadpool, where it could be transferred, detached or resized.
            ValueType::Object => {
                ScanData::Bytes(data_val.get_bytes("data", MAX_SCAN_BYTES).ok_or_else(|| wrong(&data_val))??)
            }
            _ => return Err(wrong(&data_val)),
        };
        let mut signal_val = None;
        if let Some(o) = js::options_object("options", Some(call.arg(1)))? {
            signal_val = signal::read(o.prop("signal")?)?;
        }
        Ok((signal_val, move |watch| PoolTask::new(ScanWork { matcher, data }, watch)))
    });
    value.unwrap_or(std::ptr::null_mut())
}

/// Longest line `lines()` may be given as `maxLineBytes`.
pub const MAX_LINE_BYTES: usize = 1 << 30;

/// Most bytes one `lines()` chunk may hold (`lib/lines.js` cuts a larger one): its offsets
/// are 32-bit.
pub const MAX_LINES_CHUNK: usize = u32::MAX as usize;

/// `__matcherLines.call(matcher, pending, chunk, pick, maxLineBytes, last, signal)`: one chunk
/// of a `lines()` stream, on the threadpool through the queue. `pending` (the line the last
/// chunk ended in) and `chunk` are copied here, into one buffer. Resolves with
/// `[meta, bytes]`: `bytes` that copy (a Buffer over it, no copy again), or when the lines
/// picked are few, a copy of them alone (the chunk's buffer kept for the next), `meta` a
/// `Uint32Array` of the bytes consumed, the lines read, the first line too long (or
/// 2^32 − 1), then (line, start, end, matches) for each line picked (`pick`: 0 matching, 1
/// the others, 2 all), offsets into `bytes`.
unsafe extern "C" fn matcher_lines(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let mut argc = 7;
    let mut args = [std::ptr::null_mut(); 7];
    let mut this = std::ptr::null_mut();
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe { sys::napi_get_cb_info(env, info, &mut argc, args.as_mut_ptr(), &mut this, std::ptr::null_mut()) };
    let call = Call { env, this, args: [args[0], args[1], args[2]] };
    let arg = |i: usize| Val { env, raw: args[i] };
    let value = super::queue::call(env, || {
        let matcher = call.matcher()?;
        let wrong = |name: &str, v: &Val| js::wrong_type(name, "an instance of Buffer or Uint8Array", v);
        let (pending, chunk) = (arg(0), arg(1));
        let (Some(a), Some(b)) = (pending.typed_bytes(), chunk.typed_bytes()) else {
            return Err(if pending.typed_bytes().is_none() {
                wrong("pending", &pending)
            } else {
                wrong("chunk", &chunk)
            });
        };
        if a.len().saturating_add(b.len()) > MAX_LINES_CHUNK {
            return Err(Error::out_of_range(format!(
                "The argument 'chunk' is too large: {} bytes with the line before it. It must be at most {MAX_LINES_CHUNK}",
                a.len() + b.len()
            )));
        }
        // Copied here, on the JavaScript thread: the caller may rewrite its chunk at once.
        let mut data = lines::spare_chunk(a.len() + b.len());
        data.extend_from_slice(a);
        data.extend_from_slice(b);
        let pick = match js::integer_in("pick", &arg(2), 0, 2)? {
            0 => lines::Pick::Matching,
            1 => lines::Pick::Other,
            _ => lines::Pick::All,
        };
        let max_line = js::integer_in("options.maxLineBytes", &arg(3), 1, MAX_LINE_BYTES as i64)? as usize;
        let last = js::bool_of("last", &arg(4))?;
        let signal_val = signal::read(Some(arg(5)))?;
        Ok((signal_val, move |watch| PoolTask::new(LinesWork { matcher, data, pick, max_line, last }, watch)))
    });
    value.unwrap_or(std::ptr::null_mut())
}

/// One `lines()` chunk's work: the lines it picks, as (consumed, lines, too long) and then
/// (line, start, end, matches) each, flat.
pub struct LinesWork {
    matcher: Arc<Matcher>,
    data: Vec<u8>,
    pick: lines::Pick,
    max_line: usize,
    last: bool,
}

impl Work for LinesWork {
    type Output = Vec<u32>;

    fn name(&self) -> &'static str {
        "lines"
    }

    fn run(&mut self, check: &dyn Fn() -> Result<()>) -> Result<Vec<u32>> {
        lines::select_lines(&self.matcher, &self.data, self.last, self.pick, self.max_line, check).map(|s| s.to_wire())
    }

    fn to_js(&mut self, raw: sys::napi_env, mut list: Vec<u32>) -> napi::Result<sys::napi_value> {
        let pair = (|| -> Result<sys::napi_value> {
            let data = std::mem::take(&mut self.data);
            let data = match lines::picked_copy(&data, &mut list) {
                Some(copy) => {
                    lines::keep_chunk(data);
                    copy
                }
                None => data,
            };
            let meta = typed_array(raw, sys::TypedarrayType::uint32_array, &list)?;
            let bytes = js::buffer(raw, data).map_err(|e| Error::new(ErrorKind::Internal, e.reason))?;
            let mut out = std::ptr::null_mut();
            // SAFETY: N-API calls in the env of this call, on its thread; `out` made just now.
            status(unsafe { sys::napi_create_array_with_length(raw, 2, &mut out) })?;
            // SAFETY: N-API with the env of the current call, on its thread; out-pointers are
            // locals.
            status(unsafe { sys::napi_set_element(raw, out, 0, meta) })?;
            // SAFETY: N-API with the env of the current call, on its thread; out-pointers are
            // locals.
            status(unsafe { sys::napi_set_element(raw, out, 1, bytes) })?;
            Ok(out)
        })();
        pair.map_err(|e| napi::Error::new(napi::Status::GenericFailure, e.message))
    }
}

/// `__replaceSpans.call(matcher, text)`: what `replace` replaces in the string `text`, as
/// (pattern, start, end) in UTF-16 code units, flat in a `Uint32Array`; `lib/matcher.js`
/// builds the new string. The union it searches is built on the first call, and its memory
/// reported to V8 then.
unsafe extern "C" fn replace_spans(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            maybe_panic("replace");
            let m = call.matcher()?;
            let text = call.arg(0);
            if text.value_type() != ValueType::String {
                return Err(js::wrong_type("text", "of type string", &text));
            }
            let (union, built) = m.union()?;
            let before = if built { 0 } else { union.memory_usage() };
            let found = with_text("text", &text, |t| m.replace_spans(t.bytes()));
            // New: the union, or the engines a first text with astral characters built.
            report_external(env, union.memory_usage().saturating_sub(before) as i64);
            let found = found?;
            let flat: Vec<u32> = found.iter().flat_map(|&(p, s, e)| [p, s as u32, e as u32]).collect();
            typed_array(env, sys::TypedarrayType::uint32_array, &flat)
        })
    }
}

/// `__wellFormed(text)`: whether the string `text` holds no lone surrogate (a copy of its
/// units, checked natively: faster than `String.prototype.isWellFormed` on long strings).
unsafe extern "C" fn well_formed(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let text = call.arg(0);
            if text.value_type() != ValueType::String {
                return Err(js::wrong_type("text", "of type string", &text));
            }
            js_bool(env, text.is_well_formed(text.string_utf16_len())?)
        })
    }
}

/// `__matcherGroups.call(matcher)`: whether any pattern has a capturing group.
unsafe extern "C" fn matcher_groups(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let m = call.matcher()?;
            let (union, built) = m.union()?;
            if built {
                report_external(env, union.memory_usage() as i64);
            }
            js_bool(env, union.has_groups())
        })
    }
}

/// `__matcherDispose.call(matcher)`: one user of the matcher is done with it (see `SHARED`);
/// when it was the last, the compiled patterns are freed now (calls in flight on the
/// threadpool keep their own reference until they settle), and later calls on this object
/// throw `ERR_QR_NATIVE_DISPOSED`. On an object already freed it does nothing.
unsafe extern "C" fn matcher_dispose(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let handle = match call.handle() {
                Err(e) if e.kind == ErrorKind::Disposed => None, // a second dispose
                other => Some(other?),
            };
            if let Some(handle) = handle.filter(|&h| add_users(h, -1) == 0) {
                let reference = with_shared(env, |shared| shared.sets.remove(handle)).flatten();
                delete_references(env, reference.into_iter().collect());
                release(env, handle);
                // The wrap goes too, now (no finalizer will run): nothing of the matcher is
                // left for the event loop to free. Its type tag stays, so later calls say it
                // was disposed.
                let mut data = std::ptr::null_mut();
                if sys::napi_remove_wrap(env, call.this, &mut data) == sys::Status::napi_ok && !data.is_null() {
                    drop(Box::from_raw(data as *mut u64));
                }
            }
            let mut out = std::ptr::null_mut();
            status(sys::napi_get_undefined(env, &mut out))?;
            Ok(out)
        })
    }
}

/// `__matcherShared(patterns, options)`: the native object of the matcher kept from the same
/// patterns and options (as read: the same checks as the constructor's), with one user more;
/// `undefined` when none is kept, and `lib/matcher.js` makes one with `new`.
unsafe extern "C" fn matcher_shared(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let defaults = read_defaults(Some(call.arg(1)))?;
            let specs = read_patterns(&call.arg(0), defaults)?;
            let mut out = std::ptr::null_mut();
            if let Some((handle, reference)) = with_shared(env, |shared| shared.sets.get(&specs)).flatten() {
                status(sys::napi_get_reference_value(env, reference, &mut out))?;
                if !out.is_null() && add_users(handle, 1) > 0 {
                    return Ok(out);
                }
                // Collected, and not yet finalized: noted no longer.
                let gone = with_shared(env, |shared| shared.sets.remove(handle)).flatten();
                delete_references(env, gone.into_iter().collect());
            }
            status(sys::napi_get_undefined(env, &mut out))?;
            Ok(out)
        })
    }
}

/// N-API's `NAPI_AUTO_LENGTH`: the string is NUL-terminated.
const AUTO_LENGTH: isize = -1;

/// `__matcherLiteral.call(matcher)`: `[{ place, text, caseInsensitive }, …]`, one per pattern
/// in order, when the matcher is a few literal patterns only (`MAX_JS_LITERALS`, of which at
/// most `MAX_JS_CONTAINS` substrings); else `null`. `lib/literals.js` uses
/// it to answer such a matcher on a string in JavaScript, where comparisons cost less than
/// the call into native.
unsafe extern "C" fn matcher_literals(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    // SAFETY: `env` and `info` are the ones N-API passed to this callback, used on its thread.
    unsafe {
        method(env, info, |call| {
            let mut out = std::ptr::null_mut();
            let matcher = call.matcher()?;
            let Some(literals) = matcher.literals() else {
                status(sys::napi_get_null(env, &mut out))?;
                return Ok(out);
            };
            status(sys::napi_create_array_with_length(env, literals.len(), &mut out))?;
            for (i, lit) in literals.iter().enumerate() {
                let place = match lit.place {
                    Place::Exact => c"exact",
                    Place::Prefix => c"prefix",
                    Place::Suffix => c"suffix",
                    Place::Contains => c"contains",
                };
                let (mut item, mut place_value, mut text) =
                    (std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut());
                status(sys::napi_create_object(env, &mut item))?;
                status(sys::napi_create_string_utf8(env, place.as_ptr(), AUTO_LENGTH, &mut place_value))?;
                status(sys::napi_create_string_utf8(
                    env,
                    lit.text.as_ptr().cast(),
                    lit.text.len() as isize,
                    &mut text,
                ))?;
                status(sys::napi_set_named_property(env, item, c"place".as_ptr(), place_value))?;
                status(sys::napi_set_named_property(env, item, c"text".as_ptr(), text))?;
                status(sys::napi_set_named_property(env, item, c"caseInsensitive".as_ptr(), js_bool(env, lit.ci)?))?;
                status(sys::napi_set_element(env, out, i as u32, item))?;
            }
            Ok(out)
        })
    }
}

/// Defines the `Matcher` class on the module's exports.
#[napi(module_exports)]
pub fn define_matcher_class(exports: Object) -> napi::Result<()> {
    let env = exports.value().env;
    // Every environment (main thread, each worker) gets its share of the queue here.
    super::queue::init(env)?;
    type Callback = unsafe extern "C" fn(sys::napi_env, sys::napi_callback_info) -> sys::napi_value;
    let method = |name: &'static std::ffi::CStr, f: Callback| sys::napi_property_descriptor {
        utf8name: name.as_ptr(),
        name: std::ptr::null_mut(),
        method: Some(f),
        getter: None,
        setter: None,
        value: std::ptr::null_mut(),
        attributes: sys::PropertyAttributes::default,
        data: std::ptr::null_mut(),
    };
    let mut size = method(c"size", get_size);
    size.method = None;
    size.getter = Some(get_size);
    let properties = [
        size,
        method(c"test", test),
        method(c"first", first),
        method(c"matches", matches),
        method(c"findAll", find_all),
        method(c"testMany", test_many),
        method(c"firstMany", first_many),
        method(c"scanLines", scan_lines),
    ];
    let mut class = std::ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        napi::check_status!(sys::napi_define_class(
            env,
            c"Matcher".as_ptr(),
            7,
            Some(construct),
            std::ptr::null_mut(),
            properties.len(),
            properties.as_ptr(),
            &mut class,
        ))?;
        napi::check_status!(sys::napi_set_named_property(env, exports.raw(), c"Matcher".as_ptr(), class))?;
        let internals: [(&std::ffi::CStr, Callback); 11] = [
            (c"__matcherShared", matcher_shared),
            (c"__matcherLiteral", matcher_literals),
            (c"__matcherHandle", matcher_handle),
            (c"__boundTest", bound_test),
            (c"__boundFirst", bound_first),
            (c"__boundMatches", bound_matches),
            (c"__replaceSpans", replace_spans),
            (c"__wellFormed", well_formed),
            (c"__matcherGroups", matcher_groups),
            (c"__matcherDispose", matcher_dispose),
            (c"__matcherLines", matcher_lines),
        ];
        for (name, callback) in internals {
            let mut function = std::ptr::null_mut();
            napi::check_status!(sys::napi_create_function(
                env,
                name.as_ptr(),
                AUTO_LENGTH,
                Some(callback),
                std::ptr::null_mut(),
                &mut function,
            ))?;
            napi::check_status!(sys::napi_set_named_property(env, exports.raw(), name.as_ptr(), function))?;
        }
    }
    Ok(())
}

/// Largest `scanLines` input, in bytes (a string's UTF-8 or a Buffer's length).
pub const MAX_SCAN_BYTES: usize = 2 << 30;

/// What `scanLines` reads: a copy of the caller's Buffer, or a string's UTF-8.
enum ScanData {
    Bytes(Vec<u8>),
    Text(String),
}

/// One `scanLines` call's work.
pub struct ScanWork {
    matcher: Arc<Matcher>,
    data: ScanData,
}

impl Work for ScanWork {
    type Output = Vec<u32>;

    fn name(&self) -> &'static str {
        "scanLines"
    }

    fn run(&mut self, check: &dyn Fn() -> Result<()>) -> Result<Vec<u32>> {
        let bytes: &[u8] = match &self.data {
            ScanData::Bytes(b) => b,
            ScanData::Text(t) => t.as_bytes(),
        };
        lines::scan_lines(&self.matcher, bytes, check)
    }

    fn to_js(&mut self, raw: sys::napi_env, list: Vec<u32>) -> napi::Result<sys::napi_value> {
        // SAFETY: in the env of this call, on its thread.
        unsafe { Uint32Array::to_napi_value(raw, Uint32Array::from(list)) }
    }
}

/// One-off match: `pattern` compiled once and kept in a bounded cache (1024 patterns, least
/// recently used out first), so calling this in a loop costs a look-up, not a compile.
#[napi(ts_args_type = "pattern: string, text: Text, options?: MatcherOptions")]
pub fn is_match(env: Env, pattern: Unknown, text: Unknown, options: Option<Unknown>) -> napi::Result<bool> {
    sync_call(&env, || {
        maybe_panic("isMatch");
        let d = read_defaults(options.map(|o| Val::new(&env, o.raw())))?;
        let p = Val::new(&env, pattern.raw());
        if p.value_type() != ValueType::String {
            return Err(js::wrong_type("pattern", "of type string", &p));
        }
        let pattern = pattern_string("pattern", &p)?;
        let matcher = OneOffCache::global().get(&pattern, d.kind, d.ci, d.syntax, d.glob.as_ref())?;
        with_text("text", &Val::new(&env, text.raw()), |t| Ok(matcher.test(t.bytes())))
    })
}

/// Options of `Matcher` and `isMatch`.
// Declared for the TypeScript definitions only: options are read key by key.
#[allow(dead_code)]
#[napi(object)]
pub struct MatcherOptions {
    /// How plain-string patterns are read; default `'regex'` (unanchored).
    #[napi(ts_type = "Kind")]
    pub kind: Option<String>,
    /// Case-insensitive matching (JavaScript's `i` flag for `'js'` regexes, ASCII folding for
    /// literals, Unicode folding for `'rust'` regexes); default false.
    pub case_insensitive: Option<bool>,
    /// The regex dialect: `'js'` (default), what `new RegExp(pattern, flags)` means, with
    /// `/source/flags` read as a literal; or `'rust'`, the Rust `regex` crate's syntax.
    #[napi(ts_type = "'js' | 'rust'")]
    pub syntax: Option<String>,
    /// `'glob'` patterns (picomatch's options, read by `lib/patterns.js`): `*`, `?` and `**` also
    /// match names that start with a dot.
    pub dot: Option<bool>,
    /// `'glob'`: test the last path segment only.
    pub match_base: Option<bool>,
    /// `'glob'`: the same as `matchBase`.
    pub basename: Option<bool>,
    /// `'glob'`: braces are literal.
    pub nobrace: Option<bool>,
    /// `'glob'`: extglobs are literal.
    pub noextglob: Option<bool>,
    /// `'glob'`: `**` is the same as `*`.
    pub noglobstar: Option<bool>,
    /// `'glob'`: a leading `!` is literal.
    pub nonegate: Option<bool>,
    /// `'glob'`: a trailing `/` must match exactly.
    pub strict_slashes: Option<bool>,
    /// `'glob'`: picomatch's name for `caseInsensitive` (both given and different is an error).
    pub nocase: Option<bool>,
    /// `'glob'`: a `\\` in the text is a `/` (picomatch's `toPosixSlashes`), and globs use `/`.
    pub windows: Option<bool>,
    /// `'glob'`: texts these globs match (with the same options) match no pattern given it.
    /// `replace` refuses a matcher with it.
    #[napi(ts_type = "string | string[]")]
    pub ignore: Option<Vec<String>>,
    /// `'glob'`, in a matcher's options when every pattern is a glob: picomatch's `format`, a
    /// function of each text (strings only); `findAll`, `replace`, `scanLines` and `lines` are
    /// then refused.
    #[napi(ts_type = "(text: string) => string")]
    pub format: Option<napi::Unknown<'static>>,
    /// `'glob'`, like `format`: called as picomatch calls it, with `{ glob, posix, input, output,
    /// isMatch }`, for a glob that matches.
    #[napi(ts_type = "(result: GlobResult) => void")]
    pub on_match: Option<napi::Unknown<'static>>,
    /// `'glob'`, like `format`: called for each glob tried.
    #[napi(ts_type = "(result: GlobResult) => void")]
    pub on_result: Option<napi::Unknown<'static>>,
    /// `'glob'`, like `format`: called for a glob whose text `ignore` refused.
    #[napi(ts_type = "(result: GlobResult) => void")]
    pub on_ignore: Option<napi::Unknown<'static>>,
    /// `'glob'`: picomatch's parser options, passed on to it: Bash's rules for `*`.
    pub bash: Option<bool>,
    /// `'glob'`: POSIX bracket classes (`[[:alpha:]]`).
    pub posix: Option<bool>,
    /// `'glob'`: regex rules for `+` and for stars after a closing `)` or `]`.
    pub regex: Option<bool>,
    /// `'glob'`: the same as `noextglob`.
    pub noext: Option<bool>,
    /// `'glob'`: brackets are literal.
    pub nobracket: Option<bool>,
    /// `'glob'`: backslashes escape nothing and are removed.
    pub unescape: Option<bool>,
    /// `'glob'`: quoted text is kept with its quotes.
    pub keep_quotes: Option<bool>,
    /// `'glob'`: an unclosed bracket or parenthesis is an error (`ERR_INVALID_PATTERN`).
    pub strict_brackets: Option<bool>,
    /// `'glob'`: brackets are literal when they hold no regex characters.
    pub literal_brackets: Option<bool>,
    /// `'glob'`: picomatch's fast paths for common globs (the same answers).
    pub fastpaths: Option<bool>,
    /// `'glob'`: read by picomatch's `scan` only.
    pub noparen: Option<bool>,
    /// `'glob'`: an invalid regex made of a glob is picomatch's error, not a glob matching nothing.
    pub debug: Option<bool>,
    /// `'glob'`: the longest glob, in characters (picomatch's default 65,536, also the most here).
    pub max_length: Option<f64>,
    /// `'glob'`: how deep picomatch rewrites nested extglobs.
    pub max_extglob_recursion: Option<f64>,
    /// `'glob'`: picomatch's function for brace ranges (`{a..b}`), called as it parses.
    #[napi(ts_type = "(from: string, to: string, step?: string) => string")]
    pub expand_range: Option<napi::Unknown<'static>>,
    /// `'glob'`: the flags of picomatch's regex (`i`, as `nocase` sets).
    pub flags: Option<String>,
}

/// What picomatch's callbacks are given (`MatcherOptions.onMatch`, `onResult`, `onIgnore`).
#[allow(dead_code)]
#[napi(object)]
pub struct GlobResult {
    /// The glob tried.
    pub glob: String,
    /// Whether `windows` was given.
    pub posix: bool,
    /// The text.
    pub input: String,
    /// The text as matched: `format`'s, or with `windows` each `\\` a `/`.
    pub output: String,
    /// Whether the glob matches.
    pub is_match: bool,
}

/// The limits `lib/` checks before a call reaches native code, defined once, here and in the
/// cores (internal: read once when `lib/` loads).
#[napi(object, js_name = "Limits")]
pub struct JsLimits {
    /// Most patterns one matcher takes.
    pub max_patterns: u32,
    /// Most matches one `findAll` answers.
    pub max_find_all: u32,
    /// Largest `maxLineBytes` of `lines()`.
    pub max_line_bytes: u32,
}

/// The Unicode version of the property tables `\p{…}` reads (`unicodeVersion`, internal:
/// index.js exports it as a string).
#[napi(js_name = "__unicodeVersion")]
pub fn unicode_version() -> &'static str {
    crate::matcher::js_regex::UNICODE_VERSION
}

/// The limits `lib/` checks (internal).
#[napi(js_name = "__limits")]
pub fn limits() -> JsLimits {
    JsLimits {
        max_patterns: crate::matcher::MAX_PATTERNS as u32,
        max_find_all: crate::matcher::MAX_FIND_ALL as u32,
        max_line_bytes: MAX_LINE_BYTES as u32,
    }
}
