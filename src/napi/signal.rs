//! AbortSignal support with Node's semantics: an aborted signal rejects at once with an
//! `AbortError` (`code: 'ABORT_ERR'`, `cause: signal.reason`); aborting later sets a flag the
//! threadpool task reads before (and, for long tasks, while) it works.
//!
//! A signal gets one listener, however many calls share it: the flag is attached to the
//! signal itself (`napi_wrap`, marked with a type tag so it is never confused with another
//! addon's data). A signal something else already wraps gets a listener per call instead,
//! removed when the call settles.

use super::js::Val;
use crate::error::{Error, Result};
use napi::{sys, Env, ValueType};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag set when the caller's signal aborts; shared with the threadpool.
#[derive(Clone, Default)]
pub struct AbortFlag(Arc<AtomicBool>);

impl AbortFlag {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag's identity, shared by every call that watches the same signal.
    pub fn as_ptr(&self) -> *const AtomicBool {
        Arc::as_ptr(&self.0)
    }

    /// `Err(Aborted)` once the signal has aborted.
    pub fn check(&self) -> Result<()> {
        if self.is_set() {
            Err(Error::aborted())
        } else {
            Ok(())
        }
    }
}

/// A call's view of its signal: the flag, a reference to the signal (for `reason`), and the
/// per-call listener to remove when the signal could not carry a shared one.
pub struct SignalWatch {
    pub flag: AbortFlag,
    signal: sys::napi_ref,
    listener: Option<sys::napi_ref>,
}

/// Marks signals that carry this addon's shared flag.
const SIGNAL_TAG: sys::napi_type_tag =
    sys::napi_type_tag { lower: 0x7172_6e61_7469_7665, upper: 0x7369_676e_616c_2d31 };

unsafe extern "C" fn drop_shared_flag(_env: sys::napi_env, data: *mut std::ffi::c_void, _hint: *mut std::ffi::c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    drop(unsafe { Box::from_raw(data as *mut Arc<AtomicBool>) });
}

/// A listener function that sets `flag`.
unsafe fn listener_for(env: sys::napi_env, flag: &AbortFlag) -> sys::napi_value {
    let data = Arc::into_raw(flag.0.clone()) as *mut std::ffi::c_void;
    let mut listener = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        sys::napi_create_function(env, c"onAbort".as_ptr(), 7, Some(on_abort), data, &mut listener);
        sys::napi_add_finalizer(env, listener, data, Some(drop_flag), ptr::null_mut(), ptr::null_mut());
    }
    listener
}

fn add_listener(signal: &Val, listener: sys::napi_value) -> bool {
    let mut event = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_create_string_utf8(signal.env, c"abort".as_ptr(), 5, &mut event) };
    call_method(signal, c"addEventListener", &[event, listener])
}

/// What `shared_flag` found on a signal.
enum Shared {
    /// The flag this signal carries for every call.
    Flag(AbortFlag),
    /// The signal is wrapped by something else: the call needs a listener of its own.
    Foreign,
    /// Adding the listener failed (user code threw): the call must fail, and the signal
    /// stays untagged so a later call tries again.
    Failed,
}

/// The flag this signal carries for every call, attaching it (and its one listener) on first
/// use. The listener is added first and the tag set last: a tag is permanent, so it must
/// only ever mark a signal whose listener is in place.
fn shared_flag(signal: &Val) -> Shared {
    let env = signal.env;
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        let mut tagged = false;
        sys::napi_check_object_type_tag(env, signal.raw, &SIGNAL_TAG, &mut tagged);
        if tagged {
            let mut data = ptr::null_mut();
            if sys::napi_unwrap(env, signal.raw, &mut data) == sys::Status::napi_ok && !data.is_null() {
                return Shared::Flag(AbortFlag((*(data as *const Arc<AtomicBool>)).clone()));
            }
            return Shared::Foreign;
        }
        let mut existing = ptr::null_mut();
        if sys::napi_unwrap(env, signal.raw, &mut existing) == sys::Status::napi_ok {
            return Shared::Foreign;
        }
        let flag = AbortFlag::default();
        if !add_listener(signal, listener_for(env, &flag)) {
            return Shared::Failed;
        }
        let boxed = Box::into_raw(Box::new(flag.0.clone()));
        let wrapped =
            sys::napi_wrap(env, signal.raw, boxed.cast(), Some(drop_shared_flag), ptr::null_mut(), ptr::null_mut());
        if wrapped != sys::Status::napi_ok {
            drop(Box::from_raw(boxed));
            // The listener holds its own reference to the flag: this call is still watched.
            return Shared::Flag(flag);
        }
        if sys::napi_type_tag_object(env, signal.raw, &SIGNAL_TAG) != sys::Status::napi_ok {
            let mut data = ptr::null_mut();
            sys::napi_remove_wrap(env, signal.raw, &mut data);
            if !data.is_null() {
                drop(Box::from_raw(data as *mut Arc<AtomicBool>));
            }
        }
        Shared::Flag(flag)
    }
}

// SAFETY: the raw references are only touched on the JavaScript thread (in `release`), never
// in `compute`; moving them through the threadpool is what `Send` allows.
unsafe impl Send for SignalWatch {}

/// What an abort does besides setting its flag: the queue, which sits above this module,
/// registers here (`on_abort_call`) to drop the calls still waiting on the flag.
type AbortHook = fn(sys::napi_env, *const AtomicBool);
static ABORT_HOOK: std::sync::OnceLock<AbortHook> = std::sync::OnceLock::new();

/// Registers what an abort does to the calls still waiting (once per process).
pub fn on_abort_call(hook: AbortHook) {
    let _ = ABORT_HOOK.set(hook);
}

unsafe extern "C" fn on_abort(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let mut data = ptr::null_mut();
    // SAFETY: `env` and `info` are this callback's; `data` is the flag `listener_for` gave the
    // function, kept alive by its finalizer for as long as the function lives.
    unsafe {
        sys::napi_get_cb_info(env, info, ptr::null_mut(), ptr::null_mut(), ptr::null_mut(), &mut data);
        if !data.is_null() {
            (*(data as *const AtomicBool)).store(true, Ordering::Relaxed);
            // Calls still waiting in our queue leave it now, their inputs freed.
            if let Some(hook) = ABORT_HOOK.get() {
                hook(env, data as *const AtomicBool);
            }
        }
    }
    ptr::null_mut()
}

unsafe extern "C" fn drop_flag(_env: sys::napi_env, data: *mut std::ffi::c_void, _hint: *mut std::ffi::c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    drop(unsafe { Arc::from_raw(data as *const AtomicBool) });
}

fn call_method(val: &Val, method: &std::ffi::CStr, args: &[sys::napi_value]) -> bool {
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        let mut f = ptr::null_mut();
        if sys::napi_get_named_property(val.env, val.raw, method.as_ptr(), &mut f) != sys::Status::napi_ok {
            return false;
        }
        let mut result = ptr::null_mut();
        sys::napi_call_function(val.env, val.raw, f, args.len(), args.as_ptr(), &mut result) == sys::Status::napi_ok
    }
}

/// `options.signal` as every async function reads it: `None` when absent (`undefined` or
/// `null`), else the signal once `check_shape` accepts it.
pub fn read(v: Option<Val>) -> Result<Option<Val>> {
    match v {
        Some(v) if !v.is_nullish() => check_shape(&v).map(|()| Some(v)),
        _ => Ok(None),
    }
}

/// A `TypeError` unless `signal` looks like an AbortSignal (`aborted`, `addEventListener`).
fn check_shape(signal: &Val) -> Result<()> {
    let is_object = signal.value_type() == ValueType::Object;
    let is_signal = is_object
        && signal.prop("aborted")?.is_some_and(|a| a.value_type() == ValueType::Boolean)
        && signal.prop("addEventListener")?.is_some_and(|f| f.value_type() == ValueType::Function);
    if is_signal {
        Ok(())
    } else {
        Err(super::js::wrong_type("options.signal", "an instance of AbortSignal", signal))
    }
}

/// Watches a signal already checked by `check_shape`: `Ok(None)` when absent,
/// `Err(Aborted)` when already aborted, otherwise a registered watch.
pub fn watch(env: &Env, signal: Option<Val>) -> Result<Option<SignalWatch>> {
    let Some(signal) = signal else { return Ok(None) };
    if signal.prop("aborted")?.and_then(|a| a.get_bool()).unwrap_or(false) {
        return Err(Error::aborted());
    }
    let raw_env = env.raw();
    let mut signal_ref = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_create_reference(raw_env, signal.raw, 1, &mut signal_ref) };
    match shared_flag(&signal) {
        Shared::Flag(flag) => return Ok(Some(SignalWatch { flag, signal: signal_ref, listener: None })),
        Shared::Failed => {
            // SAFETY: N-API with the env of the current call, on its thread; out-pointers are
            // locals.
            unsafe { sys::napi_delete_reference(raw_env, signal_ref) };
            return Err(Error::new(crate::error::ErrorKind::Internal, "could not listen to options.signal"));
        }
        Shared::Foreign => {}
    }
    // The signal is someone else's wrapped object: a listener of this call's own.
    let flag = AbortFlag::default();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        let listener = listener_for(raw_env, &flag);
        if !add_listener(&signal, listener) {
            sys::napi_delete_reference(raw_env, signal_ref);
            return Err(Error::new(crate::error::ErrorKind::Internal, "could not listen to options.signal"));
        }
        let mut listener_ref = ptr::null_mut();
        sys::napi_create_reference(raw_env, listener, 1, &mut listener_ref);
        Ok(Some(SignalWatch { flag, signal: signal_ref, listener: Some(listener_ref) }))
    }
}

impl SignalWatch {
    /// The signal's `reason`, for the AbortError's `cause`.
    pub fn reason(&self, env: sys::napi_env) -> Option<sys::napi_value> {
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe {
            let mut signal = ptr::null_mut();
            sys::napi_get_reference_value(env, self.signal, &mut signal);
            let mut reason = ptr::null_mut();
            (sys::napi_get_named_property(env, signal, c"reason".as_ptr(), &mut reason) == sys::Status::napi_ok)
                .then_some(reason)
        }
    }

    /// Removes a per-call listener, if any, and drops the references (main thread only).
    pub fn release(self, env: sys::napi_env) {
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe {
            if let Some(listener_ref) = self.listener {
                let mut signal = ptr::null_mut();
                let mut listener = ptr::null_mut();
                sys::napi_get_reference_value(env, self.signal, &mut signal);
                sys::napi_get_reference_value(env, listener_ref, &mut listener);
                if !signal.is_null() && !listener.is_null() {
                    let mut event = ptr::null_mut();
                    sys::napi_create_string_utf8(env, c"abort".as_ptr(), 5, &mut event);
                    call_method(&Val { env, raw: signal }, c"removeEventListener", &[event, listener]);
                }
                sys::napi_delete_reference(env, listener_ref);
            }
            sys::napi_delete_reference(env, self.signal);
        }
    }
}

/// The AbortError for a watch, with `cause` set to the signal's reason.
pub fn abort_error(env: sys::napi_env, watch: Option<&SignalWatch>) -> sys::napi_value {
    let value = super::js::error_value(env, &Error::aborted());
    if let Some(reason) = watch.and_then(|w| w.reason(env)) {
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe { sys::napi_set_named_property(env, value, c"cause".as_ptr(), reason) };
    }
    value
}

/// The AbortError value for a signal that was already aborted when the call began.
pub fn aborted_value(env: sys::napi_env, signal: &Val) -> sys::napi_value {
    let value = super::js::error_value(env, &Error::aborted());
    if let Ok(Some(reason)) = signal.prop("reason") {
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe { sys::napi_set_named_property(env, value, c"cause".as_ptr(), reason.raw) };
    }
    value
}
