//! What the binding's runtime decides, with no N-API in it, so `cargo test` checks it: the
//! queue's policy ([`schedule`]: which call starts, waits or is refused) and the handles that
//! name native objects for JavaScript ([`handles`]). `crate::napi` carries out what they decide.

pub mod handles;
pub mod schedule;
