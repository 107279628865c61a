//! Our own queue in front of libuv's threadpool. The pool is shared by the whole process
//! (`fs`, `dns.lookup`, `crypto`, `zlib`, every worker thread) and is FIFO and unbounded: a
//! burst of 10,000 of our tasks would make a file read wait behind all of them. So at most
//! `limit` of our tasks occupy pool threads at once; the others wait here, FIFO, and other
//! pool users always find a thread.
//!
//! The limit is process-wide: every isolate (main thread, worker threads) shares this one
//! addon instance and so this one `Schedule` (`crate::runtime::schedule`: the policy,
//! unit-tested apart; here, what carries it out). A task must be queued to libuv from its own
//! isolate's thread, so when a slot frees on a pool thread, the next waiter's thread is woken
//! through a threadsafe function and queues its task there.
//!
//! A slot is taken when a task is handed to libuv and given back when its `compute` ends on
//! the pool thread: it counts exactly our tasks occupying pool threads, and a worker that
//! exits with tasks in flight cannot leak one.

use super::js::{self, Val};
use super::signal::{self, SignalWatch};
use crate::error::{Error, ErrorKind};
use crate::runtime::schedule::{Admit, Next, Schedule, Waiter};
use napi::{sys, Env, JsValue};
use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub use crate::runtime::schedule::MAX_CONCURRENCY;

/// A task the queue can run. Its promise settles with values it builds itself, never through
/// napi-rs's `Error` (which under WebAssembly keeps a message only, not the object).
pub trait Queued: 'static {
    type Output: Send + 'static;

    /// The signal that watches it, if any.
    fn watch(&self) -> Option<&SignalWatch>;

    /// The work, on a pool thread (it catches its own panics).
    fn compute(&mut self) -> Self::Output;

    /// On its thread: what the promise resolves with (`Ok`) or rejects with (`Err`), given the
    /// output, or the error that kept it from running.
    fn settle(
        &mut self,
        env: sys::napi_env,
        output: Result<Self::Output, Error>,
    ) -> Result<sys::napi_value, sys::napi_value>;

    /// On its thread, after it settled or was cancelled: lets go of what it holds.
    fn finally(self, env: sys::napi_env);
}

/// A task's operations with its type erased, so one queue holds every kind of task.
struct Ops {
    /// Runs the work (any thread; catches its own panics).
    compute: unsafe fn(*mut c_void),
    /// Settles the promise with the result and frees the task (its thread).
    finish: unsafe fn(sys::napi_env, *mut c_void),
    /// Rejects the promise with an AbortError and frees the task (its thread).
    cancel: unsafe fn(sys::napi_env, *mut c_void),
    /// Hands the task to libuv (its thread); false if that failed (the task is then settled).
    start: unsafe fn(sys::napi_env, Entry) -> bool,
}

/// A waiting task: its data, operations, signal flag and home thread.
struct Entry {
    data: *mut c_void,
    ops: &'static Ops,
    flag: Option<*const AtomicBool>,
    home: Arc<Home>,
}

// SAFETY: the job behind `data` is touched by one thread at a time: its home thread until
// the task runs, then the pool thread that runs it, then its home thread again (`Home::send`).
unsafe impl Send for Entry {}

impl Waiter for Entry {
    fn flag(&self) -> Option<usize> {
        self.flag.map(|f| f as usize)
    }
}

/// The process-wide schedule, behind one lock held for a few instructions at a time.
type State = Schedule<Entry>;

fn state() -> &'static Mutex<State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Mutex::new(Schedule::new(default_concurrency(), pool_size(), cores))
    })
}

fn lock() -> std::sync::MutexGuard<'static, State> {
    state().lock().unwrap_or_else(|e| e.into_inner())
}

/// The default limit: `QR_NATIVE_CONCURRENCY` when set (1..=1024); else one pool thread
/// left free for others and one core left for the main thread:
/// `min(UV_THREADPOOL_SIZE − 1, available parallelism − 1)`, at least 1.
pub fn default_concurrency() -> usize {
    let given = std::env::var("QR_NATIVE_CONCURRENCY").ok().and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(n) = given.filter(|n| (1..=MAX_CONCURRENCY as usize).contains(n)) {
        return n;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    pool_size().saturating_sub(1).min(cores.saturating_sub(1)).clamp(1, MAX_CONCURRENCY as usize)
}

/// libuv's threadpool size, as libuv reads it (1..=1024, default 4).
fn pool_size() -> usize {
    std::env::var("UV_THREADPOOL_SIZE").ok().and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(4).clamp(1, 1024)
}

/// What a thread is sent about one of its tasks.
enum Message {
    /// A slot is reserved for it: hand it to libuv.
    Start(Entry),
    /// It ran on a pool thread (chained): settle its promise.
    Done(Entry),
}

/// A JavaScript thread's mailbox: the threadsafe function through which its tasks come home.
struct Home {
    /// `None` once the thread's environment is torn down (its tasks will never settle). The
    /// lock keeps a send from racing the release: a released function is freed memory.
    tsfn: Mutex<Option<Tsfn>>,
}

#[derive(Clone, Copy)]
struct Tsfn(sys::napi_threadsafe_function);

// SAFETY: N-API allows `napi_call_threadsafe_function` from any thread; nothing else is
// touched off the JavaScript thread.
unsafe impl Send for Tsfn {}

impl Home {
    /// Sends `message` home; gives it back when the thread can no longer take it.
    fn send(&self, message: Message) -> Result<(), Message> {
        let tsfn = self.tsfn.lock().unwrap_or_else(|e| e.into_inner());
        let Some(Tsfn(f)) = *tsfn else { return Err(message) };
        let boxed = Box::into_raw(Box::new(message));
        // SAFETY: `f` is live (the lock keeps `release` out), and N-API takes calls of a
        // threadsafe function from any thread; the box is taken back below if it refuses.
        if unsafe { sys::napi_call_threadsafe_function(f, boxed.cast(), 0) } == sys::Status::napi_ok {
            Ok(())
        } else {
            // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back
            // once.
            Err(*unsafe { Box::from_raw(boxed) })
        }
    }

    fn raw(&self) -> Option<sys::napi_threadsafe_function> {
        self.tsfn.lock().unwrap_or_else(|e| e.into_inner()).map(|Tsfn(f)| f)
    }
}

/// This thread's share: its mailbox, and how many of its tasks are not yet settled (every
/// result comes home through the mailbox, which keeps the event loop alive while any is
/// outstanding).
struct Local {
    home: Arc<Home>,
    outstanding: usize,
}

thread_local! {
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
}

/// Sets up this thread's mailbox; called once per environment when the module loads.
pub fn init(env: sys::napi_env) -> napi::Result<()> {
    signal::on_abort_call(abort_waiting);
    let mut name = ptr::null_mut();
    let mut tsfn = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        napi::check_status!(sys::napi_create_string_utf8(env, c"qr-native queue".as_ptr(), -1, &mut name))?;
        napi::check_status!(sys::napi_create_threadsafe_function(
            env,
            ptr::null_mut(),
            ptr::null_mut(),
            name,
            0,
            1,
            ptr::null_mut(),
            None,
            ptr::null_mut(),
            Some(on_message),
            &mut tsfn,
        ))?;
        // Only outstanding tasks keep the event loop alive (see `outstanding`).
        napi::check_status!(sys::napi_unref_threadsafe_function(env, tsfn))?;
    }
    // Through napi-rs: under WebAssembly the hook must be registered with the `napi` import
    // module's function, which it names (a raw `sys` call names another and never runs).
    Env::from_raw(env).add_env_cleanup_hook((), |()| on_teardown())?;
    let home = Arc::new(Home { tsfn: Mutex::new(Some(Tsfn(tsfn))) });
    LOCAL.with(|l| *l.borrow_mut() = Some(Local { home, outstanding: 0 }));
    Ok(())
}

/// Adds `delta` to this thread's outstanding tasks: the event loop is kept alive while
/// there are any (a waiting promise must settle before the process exits), not after.
fn outstanding(env: sys::napi_env, delta: isize) {
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        let Some(local) = l.as_mut() else { return };
        let was = local.outstanding;
        local.outstanding = was.saturating_add_signed(delta);
        let Some(tsfn) = local.home.raw() else { return };
        // SAFETY: this thread's own threadsafe function, (un)referenced on this thread with
        // its env, as N-API requires.
        unsafe {
            if was == 0 && local.outstanding > 0 {
                sys::napi_ref_threadsafe_function(env, tsfn);
            } else if was > 0 && local.outstanding == 0 {
                sys::napi_unref_threadsafe_function(env, tsfn);
            }
        }
    });
}

fn on_teardown() {
    let Some(local) = LOCAL.with(|l| l.borrow_mut().take()) else { return };
    // This thread's waiting tasks will never run: out of the queue. (Their memory goes with
    // the environment's: settling them needs the environment that is going away.)
    drop(lock().take_all(|e| Arc::ptr_eq(&e.home, &local.home)));
    let tsfn = local.home.tsfn.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(Tsfn(f)) = tsfn {
        // SAFETY: taken out of the mailbox under its lock, so released once and never called
        // after.
        unsafe { sys::napi_release_threadsafe_function(f, sys::ThreadsafeFunctionReleaseMode::abort) };
    }
}

/// On a task's home thread: start it (its slot is reserved), or settle it (it ran chained).
unsafe extern "C" fn on_message(env: sys::napi_env, _js: sys::napi_value, _ctx: *mut c_void, data: *mut c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    let message = *unsafe { Box::from_raw(data as *mut Message) };
    if env.is_null() {
        // The environment is being torn down: nothing can be settled or started.
        if let Message::Start(_) = message {
            slot_freed();
        }
        return;
    }
    match message {
        Message::Start(entry) => {
            // SAFETY: `entry.data` is the job `entry.ops` was made for, still alive: only `finish`
            // or `cancel` frees it.
            if !unsafe { (entry.ops.start)(env, entry) } {
                slot_freed();
            }
        }
        Message::Done(entry) => {
            outstanding(env, -1);
            // SAFETY: `entry.data` is the job `entry.ops` was made for, still alive: only `finish`
            // or `cancel` frees it.
            unsafe { (entry.ops.finish)(env, entry.data) }
        }
    }
}

/// Gives a slot back and hands it to the next waiter, if any (any thread).
fn slot_freed() {
    let next = lock().slot_freed();
    if let Some(entry) = next {
        send_start(entry);
    }
}

/// Sends a task with a reserved slot home to start; if its home is gone, the slot goes on
/// to the next waiter.
fn send_start(mut entry: Entry) {
    loop {
        let home = entry.home.clone();
        match home.send(Message::Start(entry)) {
            Ok(()) => return,
            Err(_) => match lock().slot_freed() {
                Some(next) => entry = next,
                None => return,
            },
        }
    }
}

/// Counts a computed task and, in the same lock, takes the next waiting task (keeping the
/// slot) or gives the slot up (`Schedule::computed`), so that the counters are final before
/// the result is sent home: a caller whose promise settles reads `stats()` with the task
/// completed and, if nothing waits, no slot held. Then sends the task home and yields if
/// `yields` says so. Chaining keeps the pool thread busy with no round trip through the main
/// thread between tasks (handing each back to the main thread to queue cost a large share of
/// a burst's throughput at 1 slot, measured).
fn computed(entry: Entry, started: Instant) -> Next<Entry> {
    let (yields, next) = {
        let mut state = lock();
        let next = state.computed(started.elapsed());
        (state.yields(), next)
    };
    let home = entry.home.clone();
    // A home that is gone cannot settle the task; its memory goes with it.
    let _ = home.send(Message::Done(entry));
    if yields {
        std::thread::yield_now();
    }
    next
}

/// One task and what it needs to settle its promise.
struct Job<T: Queued> {
    task: Option<T>,
    output: Option<Result<T::Output, Error>>,
    deferred: sys::napi_deferred,
}

impl<T: Queued> Job<T> {
    const OPS: Ops = Ops { compute: compute::<T>, finish: finish::<T>, cancel: cancel::<T>, start: start::<T> };
}

/// A task handed to libuv: its libuv work, released by `complete` on its thread, and the
/// task itself, which comes home through the mailbox like every other (so results settle in
/// the order tasks ran, whichever way they started).
struct Direct {
    work: sys::napi_async_work,
    entry: Option<Entry>,
}

unsafe fn compute<T: Queued>(data: *mut c_void) {
    // SAFETY: `data` is the job this queue boxed, alive until `finish` or `cancel` frees it; one
    // thread touches it at a time.
    let job = unsafe { &mut *(data as *mut Job<T>) };
    if let Some(task) = job.task.as_mut() {
        // `compute` catches its own panics (`catch_panic`); none reaches here.
        job.output = Some(Ok(task.compute()));
    }
}

/// libuv's execute callback: the task, then waiting tasks for a while, then the slot back.
unsafe extern "C" fn execute(_env: sys::napi_env, data: *mut c_void) {
    // SAFETY: `data` is the `Direct` that `start` boxed for this libuv work; libuv runs
    // `execute` once, before `complete` frees it.
    let direct = unsafe { &mut *(data as *mut Direct) };
    let started = Instant::now();
    let mut next = direct.entry.take();
    while let Some(entry) = next.take() {
        // SAFETY: `entry.data` is the job `entry.ops` was made for, still alive: only `finish` or
        // `cancel` frees it.
        unsafe { (entry.ops.compute)(entry.data) };
        match computed(entry, started) {
            Next::Task(entry) => next = Some(entry),
            Next::Hand => break,
            Next::Released => return,
        }
    }
    slot_freed();
}

/// libuv's complete callback: only the libuv work is left to release.
unsafe extern "C" fn complete(env: sys::napi_env, _status: sys::napi_status, data: *mut c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    let direct = unsafe { Box::from_raw(data as *mut Direct) };
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { sys::napi_delete_async_work(env, direct.work) };
}

/// Settles the promise with the task's result (or error) and frees the task.
unsafe fn finish<T: Queued>(env: sys::napi_env, data: *mut c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    let mut job = unsafe { Box::from_raw(data as *mut Job<T>) };
    let Some(mut task) = job.task.take() else { return };
    let output = job.output.take().unwrap_or_else(|| Err(Error::new(ErrorKind::Internal, "the task did not run")));
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe {
        match task.settle(env, output) {
            Ok(v) => sys::napi_resolve_deferred(env, job.deferred, v),
            Err(reason) => sys::napi_reject_deferred(env, job.deferred, reason),
        };
    }
    task.finally(env);
}

/// Rejects a waiting task's promise with its AbortError and frees it.
unsafe fn cancel<T: Queued>(env: sys::napi_env, data: *mut c_void) {
    // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
    let mut job = unsafe { Box::from_raw(data as *mut Job<T>) };
    if let Some(task) = job.task.take() {
        let reason = signal::abort_error(env, task.watch());
        // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
        unsafe { sys::napi_reject_deferred(env, job.deferred, reason) };
        task.finally(env);
    }
}

/// Hands a task to libuv (its slot is reserved); on failure its promise is rejected and
/// it is settled.
unsafe fn start<T: Queued>(env: sys::napi_env, entry: Entry) -> bool {
    let data = entry.data;
    let direct = Box::into_raw(Box::new(Direct { work: ptr::null_mut(), entry: Some(entry) }));
    let mut name = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    let queued = unsafe {
        sys::napi_create_string_utf8(env, c"qr-native".as_ptr(), -1, &mut name) == sys::Status::napi_ok
            && sys::napi_create_async_work(
                env,
                ptr::null_mut(),
                name,
                Some(execute),
                Some(complete),
                direct.cast(),
                &mut (*direct).work,
            ) == sys::Status::napi_ok
            && sys::napi_queue_async_work(env, (*direct).work) == sys::Status::napi_ok
    };
    if !queued {
        // SAFETY: the pointer is the one `into_raw` made for this data, and it is taken back once.
        let direct = unsafe { Box::from_raw(direct) };
        if !direct.work.is_null() {
            // SAFETY: N-API with the env of the current call, on its thread; out-pointers are
            // locals.
            unsafe { sys::napi_delete_async_work(env, direct.work) };
        }
        // SAFETY: `data` is the job this queue boxed, alive until `finish` or `cancel` frees it;
        // one thread touches it at a time.
        let job = unsafe { &mut *(data as *mut Job<T>) };
        job.output = Some(Err(Error::new(ErrorKind::Internal, "could not queue the threadpool task")));
        // SAFETY: called on the task's home thread with its env, as `Ops` requires.
        unsafe { finish::<T>(env, data) };
        outstanding(env, -1);
    }
    queued
}

/// The error for a call refused because the queue is full.
fn queue_full(max: usize) -> Error {
    Error::new(
        ErrorKind::QueueFull,
        format!("qr-native's queue is full: {max} calls are already waiting (setMaxQueue); try again later"),
    )
}

/// `Err` when a call now would find the queue full: checked before an argument is read or
/// copied, so a refused call allocates nothing.
pub fn check_room() -> crate::error::Result<()> {
    lock().room().map_err(queue_full)
}

/// Starts `task` through the queue and returns its promise: handed to libuv now if a slot
/// is free, else kept waiting here.
pub fn spawn<T: Queued>(env: sys::napi_env, task: T) -> napi::Result<sys::napi_value> {
    let flag = task.watch().map(|w| w.flag.as_ptr());
    let mut deferred = ptr::null_mut();
    let mut promise = ptr::null_mut();
    // SAFETY: N-API with the env of the current call, on its thread; out-pointers are locals.
    unsafe { napi::check_status!(sys::napi_create_promise(env, &mut deferred, &mut promise))? };
    let data: *mut c_void = Box::into_raw(Box::new(Job { task: Some(task), output: None, deferred })).cast();
    // SAFETY: called at most once, on this thread, before `data` is queued anywhere: the job is
    // ours alone, and `finish` frees it.
    let reject_now = |error: Error| unsafe {
        let job = &mut *(data as *mut Job<T>);
        job.output = Some(Err(error));
        finish::<T>(env, data);
    };
    let Some(home) = LOCAL.with(|l| l.borrow().as_ref().map(|l| l.home.clone())) else {
        reject_now(Error::new(ErrorKind::Internal, "qr-native's queue is not set up on this thread"));
        return Ok(promise);
    };
    let entry = Entry { data, ops: &Job::<T>::OPS, flag, home };
    let admitted = lock().admit(entry);
    match admitted {
        Admit::Start(entry) => {
            outstanding(env, 1);
            // SAFETY: called on the task's home thread with its env, as `Ops` requires.
            if !unsafe { start::<T>(env, entry) } {
                slot_freed();
            }
        }
        Admit::Wait => outstanding(env, 1),
        Admit::Full(_, max) => reject_now(queue_full(max)),
    }
    Ok(promise)
}

/// What every async entry point does with its arguments: refuses at once when the queue is
/// full (before `read` looks at an argument), lets `read` check and copy them, watches the
/// signal `read` found, and starts the task `read`'s maker builds with that watch. Any
/// failure is a rejected promise; a signal that had already aborted rejects with its
/// AbortError (`cause`: its reason), unless reading the arguments threw.
pub fn call<T: Queued, F: FnOnce(Option<SignalWatch>) -> T>(
    env: sys::napi_env,
    read: impl FnOnce() -> crate::error::Result<(Option<Val>, F)>,
) -> napi::Result<sys::napi_value> {
    let started = check_room().and_then(|()| read()).map_err(|e| (e, None)).and_then(|(signal_val, make)| {
        signal::watch(&Env::from_raw(env), signal_val).map(make).map_err(|e| (e, signal_val))
    });
    match started {
        Ok(task) => spawn(env, task),
        Err((e, Some(signal_val))) if e.kind == ErrorKind::Aborted && !js::exception_pending(env) => {
            js::rejected_with(env, signal::aborted_value(env, &signal_val))
        }
        Err((e, _)) => js::rejected(env, &e),
    }
}

/// On this thread, `flag`'s signal aborted: every task it watches that is still waiting
/// leaves the queue now, its promise rejected and its input freed.
pub fn abort_waiting(env: sys::napi_env, flag: *const AtomicBool) {
    let Some(home) = LOCAL.with(|l| l.borrow().as_ref().map(|l| l.home.clone())) else { return };
    // A flag belongs to one thread's signal; the home check is a guard.
    let cancelled = lock().take_flagged(flag as usize, |e| Arc::ptr_eq(&e.home, &home));
    outstanding(env, -(cancelled.len() as isize));
    for entry in cancelled {
        // SAFETY: `entry.data` is the job `entry.ops` was made for, still alive: only `finish` or
        // `cancel` frees it.
        unsafe { (entry.ops.cancel)(env, entry.data) };
    }
}

/// `setConcurrency(n)`: a new limit; waiting tasks start at once if it rose.
pub fn set_limit(n: usize) {
    let starts = lock().set_limit(n);
    for entry in starts {
        send_start(entry);
    }
}

pub fn limit() -> usize {
    lock().limit
}

pub fn set_max_queue_to(n: Option<usize>) {
    lock().max_queue = n;
}

/// `{ queued, running, completed, rejected }`.
pub fn stats() -> [f64; 4] {
    lock().stats()
}

/// Reads `n` for `setConcurrency` / `setMaxQueue`.
fn whole_number(
    env: &Env,
    name: &str,
    value: napi::Unknown,
    max: u32,
    infinite_ok: bool,
) -> crate::error::Result<Option<u32>> {
    let v = js::Val::new(env, value.raw());
    if infinite_ok && v.get_f64() == Some(f64::INFINITY) {
        return Ok(None);
    }
    let lo = if infinite_ok { 0 } else { 1 };
    Ok(Some(js::integer_in(name, &v, lo, max as i64)? as u32))
}

/// Sets the most of our tasks that occupy libuv threadpool threads at once, for the whole
/// process (worker threads share it). Waiting calls start at once if it rose.
#[napi_derive::napi(ts_args_type = "n: number")]
pub fn set_concurrency(env: Env, n: napi::Unknown) -> napi::Result<()> {
    super::js::sync_call(&env, || {
        set_limit(whole_number(&env, "n", n, MAX_CONCURRENCY, false)?.unwrap_or(1) as usize);
        Ok(())
    })
}

/// The current limit of our tasks on threadpool threads at once. The default is
/// `min(UV_THREADPOOL_SIZE − 1, available parallelism − 1)`, at least 1.
#[napi_derive::napi]
pub fn concurrency() -> u32 {
    limit() as u32
}

/// Bounds the calls waiting in the queue: past `n`, a call rejects at once with
/// `ERR_QR_NATIVE_QUEUE_FULL`, having read and copied nothing. `Infinity` (the default)
/// lifts the bound.
#[napi_derive::napi(ts_args_type = "n: number")]
pub fn set_max_queue(env: Env, n: napi::Unknown) -> napi::Result<()> {
    super::js::sync_call(&env, || {
        let max = whole_number(&env, "n", n, u32::MAX, true)?;
        set_max_queue_to(max.map(|m| m as usize));
        Ok(())
    })
}

/// The queue's counters, cheap enough to read on every request.
#[napi_derive::napi(object, js_name = "QueueStats")]
pub struct JsQueueStats {
    /// Calls waiting for a slot.
    pub queued: f64,
    /// Our tasks on threadpool threads now.
    pub running: f64,
    /// Tasks whose work finished, since the process started.
    pub completed: f64,
    /// Calls refused because the queue was full (`ERR_QR_NATIVE_QUEUE_FULL`).
    pub rejected: f64,
    /// Bytes the addon's Rust code holds now (its live heap allocations, on every thread):
    /// compiled matchers, caches, queued inputs, results not yet handed to JS. Not the JS
    /// heap and not the process's RSS.
    pub native_bytes: f64,
}

/// `{ queued, running, completed, rejected, nativeBytes }` for the whole process.
#[napi_derive::napi(js_name = "stats")]
pub fn js_stats() -> JsQueueStats {
    let [queued, running, completed, rejected] = stats();
    let native_bytes = crate::alloc::live_bytes() as f64;
    JsQueueStats { queued, running, completed, rejected, native_bytes }
}
