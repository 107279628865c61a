//! What the binding's runtime decides, with no N-API in it, so `cargo test` checks it: the
//! queue's policy ([`schedule`]: which call starts, waits or is refused), the handles that
//! name native objects for JavaScript ([`handles`]) and the compiled sets matchers made from
//! the same patterns share ([`shared`]). `crate::napi` carries out what they decide.

pub mod handles;
pub mod schedule;
pub mod shared;
