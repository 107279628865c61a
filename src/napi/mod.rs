//! The `#[napi]` binding layer: argument checks and conversions only. All work happens in
//! `crate::qr`, `crate::decode` and `crate::matcher`, which know nothing of JavaScript.

// Helpers here take the raw `napi_env` of the current call and hand it to N-API, which is
// what this layer is for; they are only called with the env N-API gave the call. Every
// `unsafe` block says on the line above it why it is sound (`// SAFETY:`; the lint below
// fails CI on one that does not).
#![allow(clippy::not_unsafe_ptr_arg_deref)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod compat;
pub mod decode;
pub mod js;
pub mod matcher;
pub mod qr;
pub mod queue;
pub mod signal;
pub mod style;
pub mod task;

/// Test-only fault injection: panics in the entry point named by `QR_NATIVE_PANIC_IN`, to
/// prove that a panic becomes an `ERR_INTERNAL` error instead of aborting Node.
#[cfg(feature = "inject-panic")]
pub fn maybe_panic(entry: &str) {
    if std::env::var("QR_NATIVE_PANIC_IN").is_ok_and(|v| v == entry || v == "*") {
        panic!("injected panic in {entry}");
    }
}
