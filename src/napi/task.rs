//! The one task type every async function runs on the threadpool: a `Work` (what to compute,
//! and how its answer becomes a JavaScript value) with the signal that watches it.
//!
//! `compute` runs the work on a pool thread with panics caught, asking the signal's flag
//! between steps; `settle` turns an abort (before or during the work) into the `AbortError`
//! Node gives, and an error into the contract's JS error; `finally` lets the signal go.

use super::js;
use super::queue::Queued;
use super::signal::{self, SignalWatch};
use crate::error::{catch_panic, Error, ErrorKind, Result};
use napi::sys;

/// One call's work: `run` on a pool thread, `to_js` on the calling thread afterwards.
pub trait Work: Send + 'static {
    type Output: Send + 'static;

    /// The JavaScript function it serves (fault injection names it).
    fn name(&self) -> &'static str;

    /// Does the work; `check` fails once the caller's signal has aborted, and the work asks
    /// it between its steps.
    fn run(&mut self, check: &dyn Fn() -> Result<()>) -> Result<Self::Output>;

    /// The answer as a JavaScript value (a failure here is N-API's, with its exception).
    fn to_js(&mut self, env: sys::napi_env, output: Self::Output) -> napi::Result<sys::napi_value>;
}

/// A `Work` on the threadpool, through our queue.
pub struct PoolTask<W: Work> {
    work: W,
    watch: Option<SignalWatch>,
}

impl<W: Work> PoolTask<W> {
    pub fn new(work: W, watch: Option<SignalWatch>) -> Self {
        PoolTask { work, watch }
    }
}

impl<W: Work> Queued for PoolTask<W> {
    type Output = Result<W::Output>;

    fn watch(&self) -> Option<&SignalWatch> {
        self.watch.as_ref()
    }

    fn compute(&mut self) -> Self::Output {
        catch_panic(|| {
            #[cfg(feature = "inject-panic")]
            super::maybe_panic(self.work.name());
            let flag = self.watch.as_ref().map(|w| w.flag.clone());
            self.work.run(&|| flag.as_ref().map_or(Ok(()), |f| f.check()))
        })
    }

    fn settle(
        &mut self,
        env: sys::napi_env,
        output: Result<Self::Output>,
    ) -> std::result::Result<sys::napi_value, sys::napi_value> {
        let aborted = || signal::abort_error(env, self.watch.as_ref());
        if self.watch.as_ref().is_some_and(|w| w.flag.is_set()) {
            return Err(aborted());
        }
        match output.and_then(|computed| computed) {
            Ok(out) => self.work.to_js(env, out).map_err(|e| {
                // N-API's own failure: its pending exception if it left one, else ours.
                js::take_exception(env)
                    .unwrap_or_else(|| js::error_value(env, &Error::new(ErrorKind::Internal, e.reason)))
            }),
            Err(e) if e.kind == ErrorKind::Aborted => Err(aborted()),
            Err(e) => Err(js::error_value(env, &e)),
        }
    }

    fn finally(self, env: sys::napi_env) {
        if let Some(w) = self.watch {
            w.release(env);
        }
    }
}
