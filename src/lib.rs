//! qr-native: CPU-hot functions for Node servers, in Rust.
//!
//! - [`qr`]: QR code encoding and rendering (PNG, SVG, text), matching the `qrcode` npm package.
//! - [`decode`]: reading QR codes from images.
//! - [`napi`]: the thin JavaScript binding layer.
//! - [`error`]: the one error shape every failure takes.

#![deny(clippy::all)]

/// The allocator is chosen by measurement (`npm run bench -- --with-allocators`); either
/// way it is counted, for `stats().nativeBytes`.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: alloc::Counting<mimalloc::MiMalloc> = alloc::Counting(mimalloc::MiMalloc, &alloc::LIVE);
#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static GLOBAL: alloc::Counting<std::alloc::System> = alloc::Counting(std::alloc::System, &alloc::LIVE);

pub mod alloc;

pub mod decode;

pub mod error;
pub mod matcher;
#[cfg(feature = "node")]
pub mod napi;
pub mod qr;
