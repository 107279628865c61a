//! qr-native: CPU-hot functions for Node servers, in Rust.
//!
//! The cores know nothing of JavaScript: [`qr`] writes QR codes as the `qrcode` npm package
//! does (and styled ones), [`decode`] reads them from images, [`matcher`] matches many
//! patterns in linear time; [`error`] is the one error shape every failure takes and
//! [`alloc`] counts native memory. [`napi`] is the binding over them, and [`runtime`] the
//! policy its queue and handles follow, with no N-API in it. CONTRIBUTING.md maps
//! every file, from its own header.

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
pub mod runtime;
pub mod text;
