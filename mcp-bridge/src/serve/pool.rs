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
//! back without one either — unless the call thread writes the call's
//! answer to the client itself (over stdio, `exec.rs`), when nothing waits
//! on the result in a hurry. Both spins are short and bounded; idle
//! threads park, and leave after a while.
//!
//! A call that comes after a pause finds every thread parked, and waking
//! one after the event loop has read the request puts a second wake-up in
//! a row on its path. So over stdio one idle thread parks on the
//! protocol input's readiness instead ([`Pool::watch_input`], edge
//! triggered, never reading it): a request wakes it at the same moment as
//! the event loop, and it spins for the call the loop is about to hand it.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
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

type Task = Box<dyn FnOnce() + Send>;

thread_local! {
    /// Whether this thread is a call thread of a pool.
    static CALL_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is a call thread (outside the runtime, where a
/// call may block on writing its answer), not a caller running a task
/// itself because no thread could be started.
pub(crate) fn on_call_thread() -> bool {
    CALL_THREAD.get()
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
    /// Where an idle thread waits for the protocol input to be readable.
    #[cfg(unix)]
    input: std::sync::OnceLock<Input>,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Task>,
    threads: usize,
    /// Threads parked on the condition variable.
    parked: usize,
    /// Whether a thread waits on the input's readiness.
    watching: bool,
}

/// The protocol input's readiness, waited for by one idle thread.
#[cfg(unix)]
struct Input {
    poll: Mutex<mio::Poll>,
    /// Wakes the waiting thread when a task is queued.
    waker: mio::Waker,
    /// The watched stream (a duplicate of the transport's; never read).
    _fd: std::os::fd::OwnedFd,
}

#[cfg(unix)]
const INPUT: mio::Token = mio::Token(0);
#[cfg(unix)]
const WAKER: mio::Token = mio::Token(1);

/// Who to wake for a queued task.
enum Wake {
    Nobody,
    Parked,
    Watching,
}

impl Pool {
    /// A pool of at most `max_threads` threads, started when needed.
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
                #[cfg(unix)]
                input: std::sync::OnceLock::new(),
            }),
        }
    }

    /// Lets one idle thread wait for `input` (the protocol's incoming
    /// stream, a pipe) to become readable, so that it is awake when the
    /// call a request brings is handed to it. Once; the stream is never
    /// read here.
    #[cfg(unix)]
    pub(crate) fn watch_input(&self, input: std::os::fd::OwnedFd) -> std::io::Result<()> {
        use std::os::fd::AsRawFd;
        let poll = mio::Poll::new()?;
        let waker = mio::Waker::new(poll.registry(), WAKER)?;
        poll.registry().register(
            &mut mio::unix::SourceFd(&input.as_raw_fd()),
            INPUT,
            mio::Interest::READABLE,
        )?;
        let _ = self.shared.input.set(Input {
            poll: Mutex::new(poll),
            waker,
            _fd: input,
        });
        Ok(())
    }

    /// Runs `f` on a thread of the pool; its result comes through the
    /// returned [`Pending`] (`None` if `f` panicked).
    pub(crate) fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Pending<T> {
        let slot = Arc::new(Slot {
            done: AtomicBool::new(false),
            value: Mutex::new(None),
            notify: Notify::new(),
        });
        let filled = Arc::clone(&slot);
        let task: Task = Box::new(move || {
            let value = catch_unwind(AssertUnwindSafe(f)).ok();
            if let Ok(mut slot) = filled.value.lock() {
                *slot = value;
            }
            filled.done.store(true, Ordering::Release);
            filled.notify.notify_one();
        });
        let shared = &self.shared;
        let (wake, spawn) = {
            let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            state.queue.push_back(task);
            shared.queued.fetch_add(1, Ordering::SeqCst);
            // Idle threads (spinning, parked, or on their way to look for
            // work) take the waiting tasks; a new thread starts only when
            // there are more tasks than idle threads.
            let idle = state
                .threads
                .saturating_sub(shared.busy.load(Ordering::SeqCst));
            let waiting = state.queue.len();
            if waiting <= idle {
                let spinning = shared.spinning.load(Ordering::SeqCst) > 0;
                let wake = match !spinning || waiting > 1 {
                    false => Wake::Nobody,
                    true if state.parked == 0 && state.watching => Wake::Watching,
                    true => Wake::Parked,
                };
                (wake, false)
            } else if state.threads < shared.max_threads {
                state.threads += 1;
                (Wake::Nobody, true)
            } else {
                // Every thread is busy: the first to finish takes it.
                (Wake::Nobody, false)
            }
        };
        match wake {
            Wake::Nobody => {}
            Wake::Parked => shared.available.notify_one(),
            Wake::Watching => shared.wake_watcher(),
        }
        if spawn {
            let worker = Arc::clone(shared);
            let started = std::thread::Builder::new()
                .name("mcp-bridge-call".into())
                .spawn(move || worker.work());
            if let Err(error) = started {
                tracing::error!(%error, "cannot start a thread for calls");
                let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
                state.threads -= 1;
                // Run it here rather than never.
                if let Some(task) = state.queue.pop_back() {
                    shared.queued.fetch_sub(1, Ordering::SeqCst);
                    drop(state);
                    task();
                }
            }
        }
        Pending { slot }
    }
}

impl Shared {
    /// Whether this idle thread is the one to wait on the input: when no
    /// other thread waits on it or spins (one thread at a time is ready for
    /// the next call; more would only take the CPU from the ones working).
    fn may_watch(&self, state: &State) -> bool {
        #[cfg(unix)]
        return !state.watching
            && self.spinning.load(Ordering::SeqCst) == 0
            && self.input.get().is_some();
        #[cfg(not(unix))]
        return false;
    }

    /// Waits until the input has something to read, a task is queued, or
    /// `KEEP_ALIVE` passes.
    fn watch_input(&self) {
        #[cfg(unix)]
        if let Some(input) = self.input.get() {
            let mut events = mio::Events::with_capacity(2);
            let mut poll = input.poll.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(error) = poll.poll(&mut events, Some(KEEP_ALIVE)) {
                if error.kind() != std::io::ErrorKind::Interrupted {
                    tracing::debug!(%error, "cannot wait for the input");
                    drop(poll);
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
        }
    }

    fn wake_watcher(&self) {
        #[cfg(unix)]
        if let Some(input) = self.input.get() {
            if let Err(error) = input.waker.wake() {
                tracing::error!(%error, "cannot wake a call thread");
                self.available.notify_one();
            }
        }
    }

    fn take(&self) -> Option<Task> {
        if self.queued.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
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

    fn work(self: Arc<Self>) {
        CALL_THREAD.set(true);
        // Whether the last call came close after the one before (calls
        // back to back: the next one is likely as close), and whether a
        // request just woke this thread (its call is on its way). Either
        // is worth a spin; a call after a pause is not followed closely,
        // and spinning after it would only burn the CPU.
        let mut close = false;
        let mut woke = false;
        loop {
            if let Some(task) = self.take() {
                close = self.run_task(task);
                continue;
            }
            // One thread spins for the next call; the others park.
            let spins = (close || woke)
                && self
                    .spinning
                    .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
            woke = false;
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
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(task) = self.pop(&mut state) {
                    drop(state);
                    close = self.run_task(task);
                    break;
                }
                if self.may_watch(&state) {
                    state.watching = true;
                    drop(state);
                    self.watch_input();
                    state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                    state.watching = false;
                    // Back to looking for work: a request came in (its
                    // call is on its way), a task was queued, or a while
                    // passed.
                    woke = true;
                    break;
                }
                state.parked += 1;
                let (next, waited) = self
                    .available
                    .wait_timeout(state, KEEP_ALIVE)
                    .unwrap_or_else(|e| e.into_inner());
                state = next;
                state.parked -= 1;
                if waited.timed_out() && state.queue.is_empty() && state.threads > 1 {
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
    /// The result, once the call ends; `None` if it panicked. In a
    /// `hurry`, the caller spins a moment first, so a quick call comes back
    /// without a wake-up (not worth the CPU when the call thread answers
    /// the client itself).
    pub(crate) async fn wait(self, hurry: bool) -> Option<T> {
        let start = Instant::now();
        while hurry && !self.slot.done.load(Ordering::Acquire) && start.elapsed() < CALLER_SPIN {
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
            assert_eq!(pending.wait(true).await, Some(i * 2));
        }
        // A runtime of its own can be started and blocked on there.
        let nested = pool.run(|| {
            tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap()
                .block_on(async { 7 })
        });
        assert_eq!(nested.wait(true).await, Some(7));
        assert_eq!(pool.run(|| -> u8 { panic!("boom") }).wait(true).await, None);
        assert_eq!(pool.run(|| 1).wait(true).await, Some(1));
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
            assert_eq!(call.wait(true).await, Some(true));
        }
    }
}
