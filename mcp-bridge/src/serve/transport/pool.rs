//! The threads synchronous handlers run on: off the runtime's workers (so
//! `ping` and other calls go on, and a handler may `block_on` a runtime
//! of its own), with a hand-off cheap enough for a trivial call to cost
//! what it costs inline.
//!
//! A hand-off through tokio's blocking pool wakes a parked thread and
//! then the parked worker: four context switches, which nearly doubled the
//! round trip of a trivial call (docs/benchmarks.md). Here a thread that
//! just finished a call spins for a moment before it parks, when that call
//! came soon after the one before (calls back to back), so a call
//! following closely is picked up without a wake-up; and the caller spins
//! for a moment on the result before it awaits it, so a quick call comes
//! back without one either. Both spins are short and bounded; idle
//! threads park, and leave after a while.
//!
//! A call that comes after a pause would find every thread parked, and
//! waking one after the event loop has read the request puts a second
//! wake-up in a row on its path. So over stdio the threads read the
//! protocol input themselves ([`Pool::lead`]), one at a time: the thread a
//! request wakes hands the message on to the event loop or, when it is a
//! call this thread may run ([`Lead::lead`] gives it), runs it, lending
//! the input meanwhile to a thread standing by, which is woken only if
//! something comes before the call ends, or was read with it
//! ([`Lead::stand_by`]).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How long a thread that finished a call looks for the next one before it
/// parks (when that call came within this time of the one before), and
/// what "soon after" means for that.
const THREAD_SPIN: Duration = Duration::from_micros(100);
/// How long the caller looks for a result before it awaits it.
const CALLER_SPIN: Duration = Duration::from_micros(50);
/// How long a parked thread waits for work before it leaves (one stays).
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Work for a call thread.
pub(crate) type Task = Box<dyn FnOnce() + Send>;

/// The input, read by the threads of a pool ([`Pool::lead`]): one
/// thread leads (reads it), and, while the leader runs a call it read, one
/// stands by, woken only if something comes meanwhile.
pub(crate) trait Lead: Send + Sync {
    /// Reads the input and hands its messages on, until one brings a call
    /// for this thread to run (returned: the input is then lent to the
    /// thread standing by), or the input ends (`None`).
    fn lead(&self) -> Option<Task>;
    /// After the call [`lead`](Self::lead) gave: whether this thread leads
    /// on (nobody took the input over meanwhile).
    fn reclaim(&self) -> bool;
    /// Waits, standing by, until the input is lent and something comes
    /// (or a while passes): whether this thread took the input over, and
    /// leads now.
    fn stand_by(&self) -> bool;
}

/// A pool of threads for synchronous handlers.
pub(crate) struct Pool {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    available: Condvar,
    /// Tasks queued, readable without the lock (for spinning threads).
    queued: AtomicUsize,
    /// Threads spinning for work (at most one: more would only take the
    /// CPU from the threads that answer).
    spinning: AtomicUsize,
    /// Threads running a task.
    busy: AtomicUsize,
    /// When the last task ended, in nanoseconds since `epoch` (0: none
    /// yet).
    last_end: std::sync::atomic::AtomicU64,
    epoch: Instant,
    max_threads: usize,
    /// The input the threads read, one at a time, when they lead it.
    input: OnceLock<Arc<dyn Lead>>,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Task>,
    threads: usize,
    /// Threads parked on the condition variable.
    parked: usize,
    /// Whether a thread leads the input (reads it, or runs a call it
    /// read while another stands by).
    leading: bool,
    /// Threads standing by for the input.
    standing_by: usize,
    /// Whether the input has ended (nobody reads it any more).
    input_ended: bool,
}

impl Pool {
    /// A pool of at most `max_threads` threads running calls, started when
    /// needed (and, once it reads the input, one more to read it).
    pub(crate) fn new(max_threads: usize) -> Self {
        Self {
            shared: Arc::new(Shared {
                state: Mutex::default(),
                available: Condvar::new(),
                queued: AtomicUsize::new(0),
                spinning: AtomicUsize::new(0),
                busy: AtomicUsize::new(0),
                last_end: std::sync::atomic::AtomicU64::new(0),
                epoch: Instant::now(),
                max_threads: max_threads.max(1),
                input: OnceLock::new(),
            }),
        }
    }

    /// Makes the threads read the input through `input`, one at a time:
    /// the thread a message wakes runs the call it brings when
    /// [`Lead::lead`] gives it one, lending the input to the thread
    /// standing by meanwhile. Once; starts the first reader.
    pub(crate) fn lead(&self, input: Arc<dyn Lead>) -> std::io::Result<()> {
        if self.shared.input.set(input).is_err() {
            return Ok(());
        }
        self.shared.lock().threads += 1;
        self.shared.start_thread()
    }

    /// Runs `f` on a thread of the pool; its result comes through the
    /// returned [`Pending`] (`None` if `f` panicked).
    pub(crate) fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Pending<T> {
        let (pending, fill) = pending();
        let task: Task = Box::new(move || fill(f));
        let shared = &self.shared;
        let (wake, spawn) = {
            let mut state = shared.lock();
            state.queue.push_back(task);
            shared.queued.fetch_add(1, Ordering::SeqCst);
            // Idle threads (spinning, parked, or on their way to look for
            // work) take the waiting tasks; a new thread starts only when
            // there are more tasks than idle threads. The threads leading
            // the input and standing by for it are not idle.
            let idle = state
                .threads
                .saturating_sub(shared.busy.load(Ordering::SeqCst))
                .saturating_sub(usize::from(state.leading))
                .saturating_sub(state.standing_by);
            let waiting = state.queue.len();
            if waiting <= idle {
                let spinning = shared.spinning.load(Ordering::SeqCst) > 0;
                (!spinning || waiting > 1, false)
            } else if state.threads < shared.thread_cap() {
                state.threads += 1;
                (false, true)
            } else {
                // Every thread is busy: the first to finish takes it.
                (false, false)
            }
        };
        if wake {
            shared.available.notify_one();
        }
        if spawn && shared.start_thread().is_err() {
            let mut state = shared.lock();
            // Run it here rather than never.
            if let Some(task) = state.queue.pop_back() {
                shared.queued.fetch_sub(1, Ordering::SeqCst);
                drop(state);
                task();
            }
        }
        pending
    }
}

/// A result to come, and what fills it with the value of a function run
/// elsewhere (`None` if it panicked).
pub(crate) fn pending<T: Send + 'static, F: FnOnce() -> T>() -> (Pending<T>, impl FnOnce(F) + Send)
{
    let slot = Arc::new(Slot {
        done: AtomicBool::new(false),
        value: Mutex::new(None),
        notify: Notify::new(),
    });
    let filled = Arc::clone(&slot);
    let fill = move |f: F| {
        let value = catch_unwind(AssertUnwindSafe(f)).ok();
        if let Ok(mut slot) = filled.value.lock() {
            *slot = value;
        }
        filled.done.store(true, Ordering::Release);
        filled.notify.notify_one();
    };
    (Pending { slot }, fill)
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The most threads: the calls', and one leading the input and one
    /// standing by.
    fn thread_cap(&self) -> usize {
        self.max_threads + 2 * usize::from(self.input.get().is_some())
    }

    /// Starts a thread, counted in `threads` by the caller (and uncounted
    /// here if it cannot start).
    fn start_thread(self: &Arc<Self>) -> std::io::Result<()> {
        let worker = Arc::clone(self);
        std::thread::Builder::new()
            .name("mcp-bridge-call".into())
            .spawn(move || worker.work())
            .map(drop)
            .inspect_err(|error| {
                tracing::error!(%error, "cannot start a thread for calls");
                self.lock().threads -= 1;
            })
    }

    /// Whether this idle thread is the one to lead the input (no other
    /// does) or to stand by for it (no other does).
    fn may_stand_by(&self, state: &State) -> bool {
        (!state.leading || state.standing_by == 0)
            && !state.input_ended
            && self.input.get().is_some()
    }

    fn take(&self) -> Option<Task> {
        if self.queued.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let mut state = self.lock();
        self.pop(&mut state)
    }

    /// Takes the next task, counting this thread busy (under the lock, so
    /// a task is always either queued or counted).
    fn pop(&self, state: &mut State) -> Option<Task> {
        let task = state.queue.pop_front()?;
        self.queued.fetch_sub(1, Ordering::SeqCst);
        self.busy.fetch_add(1, Ordering::SeqCst);
        Some(task)
    }

    /// Runs `task`; whether it came within [`THREAD_SPIN`] of the end of
    /// the pool's call before (on any thread: calls back to back go round
    /// the threads).
    fn run_task(&self, task: Task) -> bool {
        let since = |epoch: Instant| epoch.elapsed().as_nanos() as u64;
        let last = self.last_end.load(Ordering::Relaxed);
        let close =
            last != 0 && since(self.epoch).saturating_sub(last) < THREAD_SPIN.as_nanos() as u64;
        task();
        self.busy.fetch_sub(1, Ordering::SeqCst);
        self.last_end
            .store(since(self.epoch).max(1), Ordering::Relaxed);
        close
    }

    /// Leads the input, or stands by for it, taking turns with another
    /// thread, until the input ends or nothing came for a while.
    fn follow_input(self: &Arc<Self>, input: &Arc<dyn Lead>, mut lead: bool) {
        loop {
            if lead && !self.lead(input) {
                return;
            }
            {
                let mut state = self.lock();
                if !state.queue.is_empty() || state.standing_by > 0 {
                    // Calls wait (run them first), or another thread
                    // stands by already.
                    return;
                }
                state.standing_by += 1;
            }
            lead = input.stand_by();
            self.lock().standing_by -= 1;
            if !lead {
                return;
            }
        }
    }

    /// Leads the input: reads it, and runs the calls it brings for this
    /// thread, for as long as this thread keeps the lead; whether it lost
    /// it to the thread standing by (`false`: the input ended).
    fn lead(self: &Arc<Self>, input: &Arc<dyn Lead>) -> bool {
        loop {
            let Some(task) = input.lead() else {
                let mut state = self.lock();
                state.leading = false;
                state.input_ended = true;
                return false;
            };
            // The input is lent while the call runs: make sure a thread
            // stands by for it.
            let start = {
                let mut state = self.lock();
                self.busy.fetch_add(1, Ordering::SeqCst);
                let idle = state
                    .threads
                    .saturating_sub(self.busy.load(Ordering::SeqCst));
                match (state.standing_by > 0, state.parked > 0) {
                    (true, _) => false,
                    (false, true) => {
                        self.available.notify_one();
                        false
                    }
                    (false, false) if idle == 0 && state.threads < self.thread_cap() => {
                        state.threads += 1;
                        true
                    }
                    (false, false) => false,
                }
            };
            if start {
                // If it cannot start, nobody stands by: what comes
                // meanwhile waits for this call.
                let _ = self.start_thread();
            }
            self.run_task(task);
            if !input.reclaim() {
                // The thread standing by took the input over.
                return true;
            }
        }
    }

    fn work(self: Arc<Self>) {
        // Whether the last call came close after the one before (calls
        // back to back: the next one is likely as close). Worth a spin; a
        // call after a pause is not followed closely, and spinning after
        // it would only burn the CPU.
        let mut close = false;
        loop {
            if let Some(task) = self.take() {
                close = self.run_task(task);
                continue;
            }
            // One thread spins for the next call; the others park.
            let spins = close
                && self
                    .spinning
                    .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
            let start = Instant::now();
            let mut found = None;
            let mut turns = 0u32;
            while spins && start.elapsed() < THREAD_SPIN {
                if let Some(task) = self.take() {
                    found = Some(task);
                    break;
                }
                turns += 1;
                if turns.is_multiple_of(32) {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
            if spins {
                self.spinning.fetch_sub(1, Ordering::SeqCst);
            }
            if let Some(task) = found {
                close = self.run_task(task);
                continue;
            }
            let mut state = self.lock();
            loop {
                if let Some(task) = self.pop(&mut state) {
                    drop(state);
                    close = self.run_task(task);
                    break;
                }
                if let (true, Some(input)) = (self.may_stand_by(&state), self.input.get()) {
                    let lead = !state.leading;
                    state.leading = true;
                    drop(state);
                    self.follow_input(input, lead);
                    close = false;
                    break;
                }
                state.parked += 1;
                let (next, waited) = self
                    .available
                    .wait_timeout(state, KEEP_ALIVE)
                    .unwrap_or_else(|e| e.into_inner());
                state = next;
                state.parked -= 1;
                // One thread stays; while the input is read, so do the one
                // leading it and one to stand by.
                let staying = 1 + 2 * usize::from(self.input.get().is_some());
                if waited.timed_out() && state.queue.is_empty() && state.threads > staying {
                    state.threads -= 1;
                    return;
                }
            }
        }
    }
}

struct Slot<T> {
    done: AtomicBool,
    value: Mutex<Option<T>>,
    notify: Notify,
}

/// The result of a call running on the pool.
pub(crate) struct Pending<T> {
    slot: Arc<Slot<T>>,
}

impl<T> Pending<T> {
    /// The result, once the call ends; `None` if it panicked. The caller
    /// spins a moment first, so a quick call comes back without a
    /// wake-up.
    pub(crate) async fn wait(self) -> Option<T> {
        let start = Instant::now();
        while !self.slot.done.load(Ordering::Acquire) && start.elapsed() < CALLER_SPIN {
            std::hint::spin_loop();
        }
        loop {
            if self.slot.done.load(Ordering::Acquire) {
                return self.slot.value.lock().ok().and_then(|mut v| v.take());
            }
            self.slot.notify.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn calls_run_off_the_runtime_and_return_their_results() {
        let pool = Pool::new(4);
        let results: Vec<_> = (0..64).map(|i| pool.run(move || i * 2)).collect();
        for (i, pending) in results.into_iter().enumerate() {
            assert_eq!(pending.wait().await, Some(i * 2));
        }
        // A runtime of its own can be started and blocked on there.
        let nested = pool.run(|| {
            tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap()
                .block_on(async { 7 })
        });
        assert_eq!(nested.wait().await, Some(7));
        assert_eq!(pool.run(|| -> u8 { panic!("boom") }).wait().await, None);
        assert_eq!(pool.run(|| 1).wait().await, Some(1));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn calls_run_side_by_side() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        use std::time::{Duration, Instant};

        // Each call waits until all four have started: only calls running
        // at the same time can all return `true`.
        let pool = Pool::new(4);
        let started = Arc::new(AtomicUsize::new(0));
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let started = Arc::clone(&started);
                pool.run(move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    let give_up = Instant::now() + Duration::from_secs(10);
                    while started.load(Ordering::SeqCst) < 4 && Instant::now() < give_up {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    started.load(Ordering::SeqCst) == 4
                })
            })
            .collect();
        for call in calls {
            assert_eq!(call.wait().await, Some(true));
        }
    }

    /// An input whose first message brings a call that runs until another
    /// thread has read the input on (or 10 s pass); then the input ends.
    #[derive(Default)]
    struct Scripted {
        state: std::sync::Mutex<Script>,
        changed: std::sync::Condvar,
    }

    #[derive(Default)]
    struct Script {
        /// The thread that ran the call, once it runs.
        caller: Option<std::thread::ThreadId>,
        lent: bool,
        /// Whether another thread read on while the call ran.
        read_on: Option<bool>,
    }

    impl Scripted {
        /// Whether another thread read on while the call ran, once known
        /// (10 s at most).
        fn read_on(&self) -> Option<bool> {
            let script = self.state.lock().unwrap();
            let limit = std::time::Duration::from_secs(10);
            let (script, _) = self
                .changed
                .wait_timeout_while(script, limit, |s| s.read_on.is_none())
                .unwrap();
            script.read_on
        }
    }

    impl super::Lead for std::sync::Arc<Scripted> {
        fn lead(&self) -> Option<super::Task> {
            let mut script = self.state.lock().unwrap();
            if script.caller.is_none() {
                script.caller = Some(std::thread::current().id());
                script.lent = true;
                self.changed.notify_all();
                let input = std::sync::Arc::clone(self);
                return Some(Box::new(move || {
                    assert_eq!(input.read_on(), Some(true), "nobody read on");
                }));
            }
            let other = script.caller != Some(std::thread::current().id());
            script.read_on.get_or_insert(other);
            self.changed.notify_all();
            None
        }

        fn reclaim(&self) -> bool {
            let mut script = self.state.lock().unwrap();
            std::mem::take(&mut script.lent)
        }

        fn stand_by(&self) -> bool {
            let script = self.state.lock().unwrap();
            let (mut script, _) = self
                .changed
                .wait_timeout_while(script, std::time::Duration::from_millis(200), |s| !s.lent)
                .unwrap();
            std::mem::take(&mut script.lent)
        }
    }

    #[test]
    fn while_the_reading_thread_runs_a_call_another_reads_on() {
        let pool = Pool::new(2);
        let input = std::sync::Arc::new(Scripted::default());
        pool.lead(std::sync::Arc::new(std::sync::Arc::clone(&input)))
            .unwrap();
        assert_eq!(input.read_on(), Some(true));
    }
}
