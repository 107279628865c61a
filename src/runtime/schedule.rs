//! The queue's policy, with no N-API in it: which call starts at once, which waits and which
//! is refused; what a pool thread does after a task; what an abort, a new limit or a thread's
//! end takes out of the queue. `crate::napi::queue` keeps one `Schedule` for the process
//! behind a lock and carries out what it decides (threadsafe functions, libuv work, promises).
//!
//! The rules: at most `limit` of our tasks occupy pool threads at once; the others wait,
//! first in, first out, at most `max_queue` of them; a pool thread that finishes a task takes
//! the next waiting one in the same slot (no round trip through the main thread), except when
//! our limit takes the whole pool, where it gives the slot back after `CHAIN_TIME` so that
//! other pool users get turns.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

/// Most tasks `setConcurrency` allows at once.
pub const MAX_CONCURRENCY: u32 = 1024;

/// How long a pool thread keeps running waiting tasks of ours before it gives its slot back
/// through libuv's FIFO, when our limit takes every pool thread (see `Schedule::computed`).
pub const CHAIN_TIME: Duration = Duration::from_millis(20);

/// A waiting task as the policy sees it: the signal flag that watches it, if any (an
/// address: every call that shares a signal shares its flag).
pub trait Waiter {
    fn flag(&self) -> Option<usize>;
}

/// What becomes of a call that arrives.
#[derive(Debug, PartialEq)]
pub enum Admit<E> {
    /// A slot is free and nothing waits: the slot is reserved for it; start it now.
    Start(E),
    /// It waits its turn.
    Wait,
    /// The queue holds `max_queue` calls already: refuse it.
    Full(E, usize),
}

/// What a pool thread does after one of our tasks.
#[derive(Debug, PartialEq)]
pub enum Next<E> {
    /// Run this waiting task in the same slot.
    Task(E),
    /// Give the slot back through libuv (the chain ran its time; tasks wait).
    Hand,
    /// Nothing: no task waited, and the slot is given up.
    Released,
}

/// The queue: its limits, the tasks running and waiting, and its counters.
pub struct Schedule<E> {
    pub limit: usize,
    /// libuv's pool size (`UV_THREADPOOL_SIZE`, default 4).
    pub pool: usize,
    /// The machine's available parallelism.
    pub cores: usize,
    /// `None`: unbounded.
    pub max_queue: Option<usize>,
    running: usize,
    /// Waiting tasks by ticket: FIFO, the smallest ticket goes first.
    waiting: BTreeMap<u64, E>,
    /// The tickets each signal's flag watches among them, so an abort finds its calls
    /// without a scan of the whole queue.
    by_flag: HashMap<usize, BTreeSet<u64>>,
    next_ticket: u64,
    completed: u64,
    rejected: u64,
}

impl<E: Waiter> Schedule<E> {
    pub fn new(limit: usize, pool: usize, cores: usize) -> Self {
        Schedule {
            limit,
            pool,
            cores,
            max_queue: None,
            running: 0,
            waiting: BTreeMap::new(),
            by_flag: HashMap::new(),
            next_ticket: 0,
            completed: 0,
            rejected: 0,
        }
    }

    /// Whether a pool thread that just finished one of our tasks should give its core up
    /// for a moment (`sched_yield`) before the next. With fewer of ours running than there
    /// are cores, the thread it yields to is someone else's (the main thread just woken to
    /// settle the result, a V8 helper, another pool user), which then runs at once instead
    /// of after the scheduler's slice (the queue bench's timer lateness shows it). With as
    /// many of ours as cores, ours would only yield to each other, which cost a burst's
    /// throughput.
    pub fn yields(&self) -> bool {
        self.running < self.cores
    }

    /// `Err(max_queue)` when a call now would find the queue full (counted as refused):
    /// asked before a call's arguments are read, so a refused call copies nothing.
    pub fn room(&mut self) -> Result<(), usize> {
        match self.max_queue {
            Some(max) if self.running >= self.limit && self.waiting.len() >= max => {
                self.rejected += 1;
                Err(max)
            }
            _ => Ok(()),
        }
    }

    /// A call arrives with its arguments read.
    pub fn admit(&mut self, entry: E) -> Admit<E> {
        if self.running < self.limit && self.waiting.is_empty() {
            self.running += 1;
            return Admit::Start(entry);
        }
        if let Some(max) = self.max_queue.filter(|&max| self.waiting.len() >= max) {
            self.rejected += 1;
            return Admit::Full(entry, max);
        }
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        if let Some(flag) = entry.flag() {
            self.by_flag.entry(flag).or_default().insert(ticket);
        }
        self.waiting.insert(ticket, entry);
        Admit::Wait
    }

    /// The next waiter, with a slot reserved for it, when a slot is free.
    pub fn take_next(&mut self) -> Option<E> {
        if self.running >= self.limit {
            return None;
        }
        let entry = self.pop()?;
        self.running += 1;
        Some(entry)
    }

    /// A slot is given back (a task done, or one that could not start): the next waiter,
    /// with the slot reserved for it, if any.
    pub fn slot_freed(&mut self) -> Option<E> {
        self.running -= 1;
        self.take_next()
    }

    /// A pool thread finished a task, having chained tasks for `ran_for`: counts it, and
    /// takes the next waiting task (keeping the slot) or gives the slot up, in one step, so
    /// that the counters are final before the result is sent home.
    ///
    /// While our limit leaves pool threads free, others always find one, so the chain runs
    /// until the queue is empty; when the limit takes the whole pool, it stops after
    /// `CHAIN_TIME` and the slot goes back through libuv's FIFO.
    pub fn computed(&mut self, ran_for: Duration) -> Next<E> {
        self.completed += 1;
        if self.limit >= self.pool && ran_for >= CHAIN_TIME && !self.waiting.is_empty() {
            Next::Hand
        } else if let Some(next) = self.pop() {
            Next::Task(next)
        } else {
            self.running -= 1;
            Next::Released
        }
    }

    /// A new limit: the waiting tasks that start because it rose, slots reserved.
    pub fn set_limit(&mut self, limit: usize) -> Vec<E> {
        self.limit = limit;
        std::iter::from_fn(|| self.take_next()).collect()
    }

    /// Takes out the waiting tasks `flag` watches that `also` accepts (an abort).
    pub fn take_flagged(&mut self, flag: usize, also: impl Fn(&E) -> bool) -> Vec<E> {
        let tickets = self.by_flag.get(&flag).cloned().unwrap_or_default();
        let mine: Vec<u64> = tickets.into_iter().filter(|t| self.waiting.get(t).is_some_and(&also)).collect();
        mine.into_iter().filter_map(|t| self.take(t)).collect()
    }

    /// Takes out every waiting task `which` accepts (a thread's end).
    pub fn take_all(&mut self, which: impl Fn(&E) -> bool) -> Vec<E> {
        let gone: Vec<u64> = self.waiting.iter().filter(|(_, e)| which(e)).map(|(t, _)| *t).collect();
        gone.into_iter().filter_map(|t| self.take(t)).collect()
    }

    /// `[queued, running, completed, rejected]`.
    pub fn stats(&self) -> [f64; 4] {
        [self.waiting.len() as f64, self.running as f64, self.completed as f64, self.rejected as f64]
    }

    /// Takes the first waiting task (FIFO).
    fn pop(&mut self) -> Option<E> {
        let (ticket, entry) = self.waiting.pop_first()?;
        self.forget(ticket, &entry);
        Some(entry)
    }

    /// Takes the waiting task `ticket`, if still waiting.
    fn take(&mut self, ticket: u64) -> Option<E> {
        let entry = self.waiting.remove(&ticket)?;
        self.forget(ticket, &entry);
        Some(entry)
    }

    fn forget(&mut self, ticket: u64, entry: &E) {
        let Some(flag) = entry.flag() else { return };
        if let Some(tickets) = self.by_flag.get_mut(&flag) {
            tickets.remove(&ticket);
            if tickets.is_empty() {
                self.by_flag.remove(&flag);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task: its number, its flag, its thread.
    #[derive(Debug, PartialEq)]
    struct T(u32, Option<usize>, u8);

    impl Waiter for T {
        fn flag(&self) -> Option<usize> {
            self.1
        }
    }

    fn t(n: u32) -> T {
        T(n, None, 0)
    }

    #[test]
    fn calls_start_up_to_the_limit_then_wait_and_start_first_in_first_out() {
        let mut s = Schedule::new(2, 4, 2);
        assert_eq!(s.admit(t(1)), Admit::Start(t(1)));
        assert_eq!(s.admit(t(2)), Admit::Start(t(2)));
        assert_eq!(s.admit(t(3)), Admit::Wait);
        assert_eq!(s.admit(t(4)), Admit::Wait);
        assert_eq!(s.stats(), [2.0, 2.0, 0.0, 0.0]);
        assert_eq!(s.take_next(), None, "no slot free");
        assert_eq!(s.slot_freed(), Some(t(3)), "a freed slot goes to the first waiter");
        assert_eq!(s.stats(), [1.0, 2.0, 0.0, 0.0], "its slot reserved");
    }

    #[test]
    fn a_call_waits_behind_waiting_calls_even_when_a_slot_is_free() {
        let mut s = Schedule::new(1, 4, 2);
        assert_eq!(s.admit(t(1)), Admit::Start(t(1)));
        assert_eq!(s.admit(t(2)), Admit::Wait);
        s.limit = 2; // a slot frees without the queue being asked
        assert_eq!(s.admit(t(3)), Admit::Wait, "no overtaking");
        assert_eq!(s.take_next(), Some(t(2)));
    }

    #[test]
    fn past_max_queue_a_call_is_refused_and_counted() {
        let mut s = Schedule::new(1, 4, 2);
        s.max_queue = Some(1);
        assert_eq!(s.room(), Ok(()));
        assert_eq!(s.admit(t(1)), Admit::Start(t(1)));
        assert_eq!(s.admit(t(2)), Admit::Wait);
        assert_eq!(s.room(), Err(1), "asked before the arguments are read");
        assert_eq!(s.admit(t(3)), Admit::Full(t(3), 1));
        assert_eq!(s.stats(), [1.0, 1.0, 0.0, 2.0]);
        s.max_queue = None;
        assert_eq!(s.room(), Ok(()));
        assert_eq!(s.admit(t(4)), Admit::Wait);
    }

    #[test]
    fn a_pool_thread_chains_waiting_tasks_and_releases_its_slot_when_none_wait() {
        let mut s = Schedule::new(1, 4, 2);
        s.admit(t(1));
        s.admit(t(2));
        assert_eq!(s.computed(Duration::ZERO), Next::Task(t(2)), "same slot, no round trip");
        assert_eq!(s.computed(Duration::from_secs(1)), Next::Released, "limit under the pool: chains run on");
        assert_eq!(s.stats(), [0.0, 0.0, 2.0, 0.0]);
    }

    #[test]
    fn when_our_limit_takes_the_whole_pool_a_chain_hands_its_slot_back_after_chain_time() {
        let mut s = Schedule::new(4, 4, 2);
        for n in 1..=6 {
            s.admit(t(n));
        }
        assert_eq!(s.computed(CHAIN_TIME - Duration::from_millis(1)), Next::Task(t(5)));
        assert_eq!(s.computed(CHAIN_TIME), Next::Hand, "other pool users get a turn");
        assert_eq!(s.stats()[1], 4.0, "the slot is still held until handed back");
        assert_eq!(s.slot_freed(), Some(t(6)), "and the hand-back starts the next waiter");
        assert_eq!(s.computed(CHAIN_TIME), Next::Released, "nothing waits: released, not handed");
    }

    #[test]
    fn a_raised_limit_starts_waiting_tasks_at_once_and_a_lowered_one_starts_none() {
        let mut s = Schedule::new(1, 4, 2);
        for n in 1..=4 {
            s.admit(t(n));
        }
        assert_eq!(s.set_limit(3), vec![t(2), t(3)]);
        assert_eq!(s.set_limit(1), vec![]);
        assert_eq!(s.slot_freed(), None, "three running, limit one: nothing starts");
        assert_eq!(s.slot_freed(), None);
        assert_eq!(s.slot_freed(), Some(t(4)));
    }

    #[test]
    fn an_abort_takes_out_only_the_waiting_calls_its_signal_watches_on_its_thread() {
        let mut s = Schedule::new(1, 4, 2);
        s.admit(T(1, Some(7), 0));
        s.admit(T(2, Some(7), 0));
        s.admit(T(3, Some(8), 0));
        s.admit(T(4, Some(7), 1));
        s.admit(T(5, None, 0));
        assert_eq!(s.take_flagged(7, |e| e.2 == 0), vec![T(2, Some(7), 0)], "the running one is not in the queue");
        assert_eq!(s.take_flagged(7, |e| e.2 == 0), vec![], "taken once");
        assert_eq!(s.take_flagged(7, |e| e.2 == 1), vec![T(4, Some(7), 1)]);
        assert_eq!(s.take_next(), None);
        assert_eq!(s.slot_freed(), Some(T(3, Some(8), 0)), "FIFO among the rest");
        assert!(!s.by_flag.contains_key(&7), "no ticket of 7 left behind");
    }

    #[test]
    fn a_threads_end_takes_out_its_waiting_calls_and_no_others() {
        let mut s = Schedule::new(1, 4, 2);
        s.admit(T(1, None, 0));
        s.admit(T(2, Some(9), 1));
        s.admit(T(3, None, 0));
        s.admit(T(4, None, 1));
        assert_eq!(s.take_all(|e| e.2 == 1), vec![T(2, Some(9), 1), T(4, None, 1)]);
        assert!(s.by_flag.is_empty(), "the flag's tickets are gone with them");
        assert_eq!(s.slot_freed(), Some(T(3, None, 0)));
    }

    #[test]
    fn pool_threads_yield_only_while_fewer_of_ours_run_than_there_are_cores() {
        let mut s = Schedule::new(4, 4, 2);
        s.admit(t(1));
        assert!(s.yields());
        s.admit(t(2));
        assert!(!s.yields());
    }
}
