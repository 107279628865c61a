//! AbortSignal support with Node's semantics: an aborted signal rejects at once with an
//! `AbortError` (`code: 'ABORT_ERR'`, `cause: signal.reason`); aborting later sets a flag the
//! threadpool task reads before (and, for long tasks, while) it works. The listener is
//! removed when the task settles, so a signal reused across many calls does not grow.

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

    /// `Err(Aborted)` once the signal has aborted.
    pub fn check(&self) -> Result<()> {
        if self.is_set() {
            Err(Error::aborted())
        } else {
            Ok(())
        }
    }
}

/// The listener registration: references to the signal and the listener, released on the
/// main thread when the task settles.
pub struct SignalWatch {
    pub flag: AbortFlag,
    signal: sys::napi_ref,
    listener: sys::napi_ref,
}

// The raw references are only touched on the JavaScript thread (in `release`), never in
// `compute`; moving them through the threadpool is what `Send` allows.
unsafe impl Send for SignalWatch {}

unsafe extern "C" fn on_abort(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let mut data = ptr::null_mut();
    unsafe {
        sys::napi_get_cb_info(env, info, ptr::null_mut(), ptr::null_mut(), ptr::null_mut(), &mut data);
        if !data.is_null() {
            (*(data as *const AtomicBool)).store(true, Ordering::Relaxed);
        }
    }
    ptr::null_mut()
}

unsafe extern "C" fn drop_flag(_env: sys::napi_env, data: *mut std::ffi::c_void, _hint: *mut std::ffi::c_void) {
    drop(unsafe { Arc::from_raw(data as *const AtomicBool) });
}

fn call_method(val: &Val, method: &std::ffi::CStr, args: &[sys::napi_value]) -> bool {
    unsafe {
        let mut f = ptr::null_mut();
        if sys::napi_get_named_property(val.env, val.raw, method.as_ptr(), &mut f) != sys::Status::napi_ok {
            return false;
        }
        let mut result = ptr::null_mut();
        sys::napi_call_function(val.env, val.raw, f, args.len(), args.as_ptr(), &mut result) == sys::Status::napi_ok
    }
}

/// A `TypeError` unless `signal` looks like an AbortSignal (`aborted`, `addEventListener`).
pub fn check_shape(signal: &Val) -> Result<()> {
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
    let flag = AbortFlag::default();
    let raw_env = env.raw();
    unsafe {
        let data = Arc::into_raw(flag.0.clone()) as *mut std::ffi::c_void;
        let mut listener = ptr::null_mut();
        sys::napi_create_function(raw_env, c"onAbort".as_ptr(), 7, Some(on_abort), data, &mut listener);
        sys::napi_add_finalizer(raw_env, listener, data, Some(drop_flag), ptr::null_mut(), ptr::null_mut());
        let mut event = ptr::null_mut();
        sys::napi_create_string_utf8(raw_env, c"abort".as_ptr(), 5, &mut event);
        if !call_method(&signal, c"addEventListener", &[event, listener]) {
            return Err(Error::new(crate::error::ErrorKind::Internal, "could not listen to options.signal"));
        }
        let mut signal_ref = ptr::null_mut();
        let mut listener_ref = ptr::null_mut();
        sys::napi_create_reference(raw_env, signal.raw, 1, &mut signal_ref);
        sys::napi_create_reference(raw_env, listener, 1, &mut listener_ref);
        Ok(Some(SignalWatch { flag, signal: signal_ref, listener: listener_ref }))
    }
}

impl SignalWatch {
    /// The signal's `reason`, for the AbortError's `cause`.
    pub fn reason(&self, env: sys::napi_env) -> Option<sys::napi_value> {
        unsafe {
            let mut signal = ptr::null_mut();
            sys::napi_get_reference_value(env, self.signal, &mut signal);
            let mut reason = ptr::null_mut();
            (sys::napi_get_named_property(env, signal, c"reason".as_ptr(), &mut reason) == sys::Status::napi_ok)
                .then_some(reason)
        }
    }

    /// Removes the listener and drops both references (main thread only).
    pub fn release(self, env: sys::napi_env) {
        unsafe {
            let mut signal = ptr::null_mut();
            let mut listener = ptr::null_mut();
            sys::napi_get_reference_value(env, self.signal, &mut signal);
            sys::napi_get_reference_value(env, self.listener, &mut listener);
            if !signal.is_null() && !listener.is_null() {
                let mut event = ptr::null_mut();
                sys::napi_create_string_utf8(env, c"abort".as_ptr(), 5, &mut event);
                call_method(&Val { env, raw: signal }, c"removeEventListener", &[event, listener]);
            }
            sys::napi_delete_reference(env, self.signal);
            sys::napi_delete_reference(env, self.listener);
        }
    }
}

/// The AbortError for a watch, with `cause` set to the signal's reason.
pub fn abort_error(env: sys::napi_env, watch: Option<&SignalWatch>) -> napi::Error {
    let value = super::js::error_value(env, &Error::aborted());
    if let Some(reason) = watch.and_then(|w| w.reason(env)) {
        unsafe { sys::napi_set_named_property(env, value, c"cause".as_ptr(), reason) };
    }
    napi::Error::from(unsafe { napi::Unknown::from_raw_unchecked(env, value) })
}

/// The AbortError value for a signal that was already aborted when the call began.
pub fn aborted_value(env: sys::napi_env, signal: &Val) -> sys::napi_value {
    let value = super::js::error_value(env, &Error::aborted());
    if let Ok(Some(reason)) = signal.prop("reason") {
        unsafe { sys::napi_set_named_property(env, value, c"cause".as_ptr(), reason.raw) };
    }
    value
}
