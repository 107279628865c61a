//! qr-native: CPU-hot functions for Node servers, in Rust.
//!
//! - [`qr`]: QR code encoding and rendering (PNG, SVG, text), matching the `qrcode` npm package.
//! - [`napi`]: the thin JavaScript binding layer.
//! - [`error`]: the one error shape every failure takes.

#![deny(clippy::all)]

pub mod error;
pub mod matcher;
#[cfg(feature = "node")]
pub mod napi;
pub mod qr;
