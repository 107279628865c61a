//! qr-native: CPU-hot functions for Node servers, in Rust.
//!
//! - [`qr`]: QR code encoding and rendering (PNG, SVG, text), matching the `qrcode` npm package.
//! - [`napi`]: the thin JavaScript binding layer.
//! - [`error`]: the one error shape every failure takes.

#![deny(clippy::all)]

/// The allocator is chosen by measurement (`npm run bench -- --with-allocators`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod error;
pub mod matcher;
#[cfg(feature = "node")]
pub mod napi;
pub mod qr;
