//! Running a call's job off the event loop, within the server's limits:
//! how many calls at once, one `#[mcp(serial)]` command at a time, one
//! output capture at a time, a timeout, cancellation, bounded output, and
//! a count of calls still running for a graceful shutdown.
//!
//! - A call waits for its turn (a slot, the `serial` lock, the capture's
//!   turn) as part of the call: its cancellation or timeout ends the wait,
//!   and its job never starts.
//! - A synchronous handler runs on a call thread (`transport/pool.rs`),
//!   never on a worker thread, so `ping` and other calls keep being
//!   answered, and a handler may start its own runtime and `block_on` it.
//! - An async handler runs as a task of the server's runtime; a cancelled
//!   or timed-out one is dropped at its next `.await`.
//! - A handler that prints to the process's streams (`println!`) runs
//!   while fd 1 and fd 2 point at pipes read into the result; such calls
//!   take turns (`turn.rs`), as two of them would otherwise print into
//!   each other's results; while a stopped one still runs, they run in a
//!   process of their own instead. Calls of handlers writing through `Io`
//!   run side by side.
//! - An isolated call runs in a child process of the binary
//!   (`isolate.rs`), killed when it is stopped.
//! - Over stdio, a synchronous handler's call that may start at once (its
//!   turn free, no timeout) is started by the thread that read its request
//!   ([`Executor::start_early`]), and rmcp never sees it: the thread writes
//!   its answer as soon as the handler returns ([`Reply`]), unless the
//!   client's cancellation or the server's shutdown stopped it first
//!   ([`Early`]); whichever comes first decides.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::sync::{Mutex, Notify, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::capture::Bounded;
use super::run::{panic_message, CallOutcome};
use super::turn::{PrintTurn, Turn, TurnState, Waited};
use crate::handler::{Ended, Job, SyncJob};
use crate::io::{Io, ProgressFn, Structured};
use crate::serve::transport::pool::{self, Pool};
use crate::serve::transport::Replier;
use crate::spec::OutputFormat;
use crate::trace::TraceContext;

/// How long a stopped async handler has to reach its next `.await` before
/// it counts as stuck with the print turn.
const ASYNC_STOP: Duration = Duration::from_millis(100);

/// The exit code of a call cut off by its timeout (as `timeout(1)`).
pub(crate) const TIMEOUT_EXIT_CODE: i32 = 124;

/// The server's limits on calls.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    /// The longest a call may run before it is answered as timed out.
    pub(crate) timeout: Option<Duration>,
    /// How many calls may run at the same time.
    pub(crate) max_concurrent: usize,
    /// The most bytes kept of each of a call's stdout and stderr.
    pub(crate) output_limit: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: None,
            max_concurrent: 16,
            // Two streams of 48 KiB stay under the ~25k tokens clients
            // accept in one tool result.
            output_limit: 48 * 1024,
        }
    }
}

/// What a command says about how it runs (`#[mcp(serial)]`,
/// `#[mcp(timeout = "...")]`, `#[mcp(isolate)]`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CommandPolicy {
    pub(crate) serial: bool,
    pub(crate) timeout: Option<Duration>,
    pub(crate) isolate: bool,
    /// `#[mcp(task)]`: whether and when a call becomes a task.
    pub(crate) task: Option<crate::spec::TaskSupport>,
    /// `#[mcp(output = "...")]`: what the command prints, parsed.
    pub(crate) output: Option<crate::spec::OutputFormat>,
    /// `#[mcp(output = Type)]`: the value its handler returns.
    pub(crate) returns: Option<super::run::Returns>,
}

/// Runs jobs within the limits.
pub(crate) struct Executor {
    limits: Limits,
    slots: Arc<Semaphore>,
    serial: Arc<Mutex<()>>,
    print_turn: Arc<PrintTurn>,
    #[cfg(unix)]
    capture: Option<Arc<super::capture::StdCapture>>,
    running: Arc<Running>,
    /// Where synchronous handlers run.
    pool: Pool,
}

/// The calls still running (a timed-out synchronous handler included).
#[derive(Default)]
pub(crate) struct Running {
    count: AtomicUsize,
    idle: Notify,
}

impl Running {
    fn enter(self: &Arc<Self>) -> RunningGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        RunningGuard(Arc::clone(self))
    }

    /// How many calls are running.
    pub(crate) fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Waits until no call runs.
    pub(crate) async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

struct RunningGuard(Arc<Running>);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// Everything a job holds while it runs, released when it really ends
/// (after its timeout, a synchronous handler still runs to its end).
struct Held {
    _slot: OwnedSemaphorePermit,
    _serial: Option<OwnedMutexGuard<()>>,
    _capture_turn: Option<Turn>,
    _running: RunningGuard,
}

/// How a job ended: its outcome, and what its handler's panic said, if it
/// panicked (the outcome then says so too, with exit code 101).
#[derive(Debug)]
pub(crate) struct Ran {
    pub(crate) outcome: CallOutcome,
    pub(crate) panic: Option<String>,
}

impl Ran {
    fn new(outcome: CallOutcome) -> Self {
        Self {
            outcome,
            panic: None,
        }
    }

    /// The result to give rmcp for this call.
    pub(crate) fn into_result(
        self,
        output: Option<OutputFormat>,
        tool: &str,
    ) -> rmcp::model::CallToolResult {
        super::results::with_output(self.outcome, output, tool)
    }
}

/// Where a call's progress and cancellation come from.
pub(crate) struct Watch {
    /// Cancelled when the client cancels the request.
    pub(crate) cancel: CancellationToken,
    pub(crate) progress: Option<ProgressFn>,
    /// Where the call's `tracing` events go, when the client asked.
    pub(crate) log: Option<Arc<super::logs::CallLog>>,
    /// Who the handler's questions go to.
    pub(crate) asker: super::ask::Asker,
}

/// A call's job, and, for one that prints, its tool and arguments, to run
/// it in a process of its own if a stopped call holds the print turn
/// when its turn comes (`turn.rs`); and its trace context.
pub(crate) struct Work {
    pub(crate) job: Job,
    pub(crate) elsewhere: Option<(String, Map<String, Value>)>,
    /// The trace context the client sent with the call.
    pub(crate) trace: Option<TraceContext>,
}

/// A call rmcp never sees ([`Executor::start_early`]): its synchronous
/// handler's thread writes the answer as soon as the handler returns, with
/// no hand-back to the event loop, and no wake-up of it, between the
/// handler and the client.
pub(crate) struct Reply {
    pub(crate) replier: Arc<Replier>,
    pub(crate) id: rmcp::model::RequestId,
    pub(crate) output: Option<OutputFormat>,
    /// Forgets the call before its answer is written (after it, the client
    /// may reuse its id at once).
    pub(crate) forget: Box<dyn FnOnce() + Send>,
}

/// Who answers a [`Reply`] call: its thread, or nobody (the client
/// cancelled it) or the server's shutdown (it stopped it); whoever comes
/// first.
const OPEN: u8 = 0;
const BY_THREAD: u8 = 1;
const STOPPED: u8 = 2;

/// What a synchronous job ended with: its outcome, the value its handler
/// returned and what its panic said.
type Finished = (CallOutcome, Option<Structured>, Option<String>);

/// A [`Reply`] call's side of the answer, on its thread.
struct ThreadAnswer {
    reply: Reply,
    tool: String,
    returns: Option<super::run::Returns>,
    /// The most bytes of the value returned as JSON.
    limit: usize,
    by: Arc<std::sync::atomic::AtomicU8>,
}

impl ThreadAnswer {
    /// A synchronous job's end: answered from its thread when it is to be
    /// (`None` then, or when it was stopped first), or given back to the
    /// event loop when it follows the call.
    fn deliver(answering: Option<Self>, finished: Finished) -> Option<Finished> {
        match answering {
            Some(answering) => {
                answering.answer(finished);
                None
            }
            None => Some(finished),
        }
    }

    /// Writes the answer from this thread, unless the call was stopped
    /// first (cancelled: no answer is due; stopped by the shutdown:
    /// answered by it).
    fn answer(self, (done, returned, _panic): Finished) {
        let won = self
            .by
            .compare_exchange(OPEN, BY_THREAD, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        (self.reply.forget)();
        if !won {
            return;
        }
        let outcome = done.with_returned(returned, self.returns, &self.tool, self.limit);
        let result = super::results::with_output(outcome, self.reply.output, &self.tool);
        self.reply.replier.reply(self.reply.id, result);
    }
}

impl Executor {
    /// An executor with the default limits.
    pub(crate) fn new() -> Self {
        let limits = Limits::default();
        Self {
            slots: Arc::new(Semaphore::new(limits.max_concurrent)),
            pool: Pool::new(limits.max_concurrent),
            limits,
            serial: Arc::default(),
            print_turn: Arc::default(),
            #[cfg(unix)]
            capture: None,
            running: Arc::default(),
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Sets the limits (at least one call at once, 64 bytes of output).
    pub(crate) fn set_limits(&mut self, mut limits: Limits) {
        limits.max_concurrent = limits.max_concurrent.max(1);
        limits.output_limit = limits.output_limit.max(64);
        self.slots = Arc::new(Semaphore::new(limits.max_concurrent));
        self.pool = Pool::new(limits.max_concurrent);
        self.limits = limits;
    }

    /// Captures fd 1 and fd 2 for handlers that print (set when serving
    /// over stdio).
    #[cfg(unix)]
    pub(crate) fn capture_with(&mut self, capture: Arc<super::capture::StdCapture>) {
        self.capture = Some(capture);
    }

    /// Makes the call threads read the protocol input ([`Pool::lead`]).
    pub(crate) fn lead(&self, input: Arc<dyn pool::Lead>) -> std::io::Result<()> {
        self.pool.lead(input)
    }

    pub(crate) fn running(&self) -> &Arc<Running> {
        &self.running
    }

    /// Runs `job` for `tool`; `None` when the client cancelled it (no
    /// answer is due).
    pub(crate) async fn run(
        &self,
        tool: &str,
        work: Work,
        policy: CommandPolicy,
        watch: Watch,
    ) -> Option<Ran> {
        let Work {
            job,
            elsewhere,
            trace,
        } = work;
        let job = job.traced(tool, trace.clone());
        // Counted from here: a call waiting for its turn is running for a
        // shutdown, which gives it the grace period too.
        let running = self.running.enter();
        let mut capture = self.capture_for(&job);
        let control = Control::new();
        let Watch {
            cancel,
            progress,
            log,
            asker,
        } = watch;
        // The call's turn; `true` when it is to run in a process of its
        // own, as a stopped call that prints still holds the print turn.
        let (prints, may_move) = (capture.is_some(), elsewhere.is_some());
        // A stopped synchronous handler runs on until it returns; an async
        // one is dropped at its next `.await` (or is stuck, when it blocks).
        let sync = matches!(job, Job::Sync(_));
        let hold = async {
            control.waits_for(WAIT_SLOT);
            let slot = Arc::clone(&self.slots)
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            control.waits_for(WAIT_SERIAL);
            let serial = match policy.serial {
                true => Some(Arc::clone(&self.serial).lock_owned().await),
                false => None,
            };
            control.waits_for(WAIT_TURN);
            let (capture_turn, moved) = match (prints, may_move) {
                (false, _) => (None, false),
                (true, true) => match self.print_turn.wait().await {
                    Waited::Turn(turn) => (Some(turn), false),
                    Waited::Elsewhere => (None, true),
                },
                (true, false) => (Some(self.print_turn.wait_always().await), false),
            };
            if let (Some(turn), true) = (&capture_turn, sync) {
                let _ = control.turn.set(turn.state());
            }
            control.started.store(true, Ordering::SeqCst);
            let held = Held {
                _slot: slot,
                _serial: serial,
                _capture_turn: capture_turn,
                _running: running,
            };
            (held, moved)
        };
        let limit = self.limits.output_limit;
        // A question waits until the call is stopped, at the latest; a
        // call no client can be asked for refuses it, saying so.
        let start_task = asker.task_starter(control.abort.clone());
        let ask = Some(asker.blocking(control.abort.clone()));
        let outcome = |exit_code, stdout, stderr| CallOutcome::new(exit_code, stdout, stderr);
        // Waiting for its turn is part of the call: a cancellation or the
        // timeout ends the wait too, and the job never starts.
        let run = async {
            let (held, moved) = hold.await;
            let job = match (moved, elsewhere) {
                (true, Some((tool, arguments))) => {
                    tracing::info!(tool, "runs in a process of its own");
                    capture = None;
                    Job::Isolated { tool, arguments }
                }
                _ => job,
            };
            match job {
                // Synchronous: on the pool, holding the call's turn until
                // the handler really returns.
                Job::Sync(job) => {
                    let on_thread = OnThread {
                        job,
                        held,
                        capture,
                        limit,
                        stop: Arc::clone(&control.stop),
                        progress,
                        log,
                        ask,
                        start_task,
                        answering: None,
                    };
                    self.pool.run(move || on_thread.run()).wait().await
                }
                // Isolated: a child process, killed when stopped.
                Job::Isolated { tool, arguments } => {
                    let abort = control.abort.clone();
                    crate::spawn::spawn(async move {
                        let _held = held;
                        let started =
                            super::isolate::Child::start(&tool, &arguments, trace.as_ref());
                        let child = match started.await {
                            Ok(child) => child,
                            Err(error) => {
                                let error =
                                    format!("cannot start the command's process: {error}\n");
                                return (outcome(101, String::new(), error), None, None);
                            }
                        };
                        // A child's panic is its exit code and stderr, and
                        // (on Unix) what it said comes back as a value would.
                        let (done, returned) = tokio::select! {
                            done = child.finish(limit) => done,
                            () = abort.cancelled() => (
                                outcome(TIMEOUT_EXIT_CODE, String::new(), String::new()),
                                super::isolate::Returned::default(),
                            ),
                        };
                        (done, returned.value, returned.panic)
                    })
                    .await
                    .ok()
                    .map(Some)
                }
                // Async: a task of the runtime, dropped when stopped.
                Job::Async(call) => {
                    let abort = control.abort.clone();
                    crate::spawn::spawn(async move {
                        let turn = held._capture_turn.as_ref().map(Turn::state);
                        let _held = held;
                        let capturing = start_capture(capture, limit);
                        let call = crate::io::asking_in_task(ask, start_task, call);
                        let mut task = crate::spawn::spawn(super::logs::in_task(log, call));
                        let (code, returned, panic) = tokio::select! {
                            done = &mut task => match done {
                                Ok(Ended { code, structured }) => (code, structured, None),
                                Err(error) if error.is_panic() => {
                                    let message = panic_message(&*error.into_panic());
                                    tracing::error!("command panicked: {message}");
                                    eprintln!("command panicked: {message}");
                                    (101, None, Some(message))
                                }
                                Err(_) => (101, None, None),
                            },
                            () = abort.cancelled() => {
                                task.abort();
                                if tokio::time::timeout(ASYNC_STOP, &mut task).await.is_err() {
                                    // It blocks: it is stuck with the turn.
                                    if let Some(turn) = &turn {
                                        turn.stopped();
                                    }
                                    let _ = task.await;
                                }
                                (TIMEOUT_EXIT_CODE, None, None)
                            }
                        };
                        let done = finish_capture(
                            capturing,
                            outcome(code, String::new(), String::new()),
                            limit,
                        );
                        (done, returned, panic)
                    })
                    .await
                    .ok()
                    .map(Some)
                }
            }
        };
        self.conclude(tool, run, &control, policy, cancel).await
    }

    /// Starts a synchronous `job` for `tool` on this thread, the one that
    /// read its request, when it may start at once (a slot free, and the
    /// locks it needs) and no timeout applies: the task to run here, which
    /// answers the call through `reply`, and what stops it. `None` (nothing
    /// started) otherwise. Call it inside the runtime; run the task
    /// outside it.
    pub(crate) fn start_early(
        &self,
        tool: &str,
        job: Job,
        policy: CommandPolicy,
        asker: super::ask::Asker,
        reply: Reply,
    ) -> Option<(Early, pool::Task)> {
        let capture = self.capture_for(&job);
        let sync = match job {
            Job::Sync(sync) if policy.timeout.or(self.limits.timeout).is_none() => sync,
            _ => return None,
        };
        let held = self.try_hold(policy.serial, capture.is_some())?;
        let control = Arc::new(Control::new());
        control.started.store(true, Ordering::SeqCst);
        if let Some(turn) = &held._capture_turn {
            let _ = control.turn.set(turn.state());
        }
        let early = Early {
            control: Arc::clone(&control),
            replier: Arc::clone(&reply.replier),
            id: reply.id.clone(),
        };
        let on_thread = OnThread {
            job: sync,
            held,
            capture,
            limit: self.limits.output_limit,
            stop: Arc::clone(&control.stop),
            progress: None,
            log: None,
            start_task: asker.task_starter(control.abort.clone()),
            ask: Some(asker.blocking(control.abort.clone())),
            answering: Some(ThreadAnswer {
                reply,
                tool: tool.to_owned(),
                returns: policy.returns,
                limit: self.limits.output_limit,
                by: Arc::clone(&control.by),
            }),
        };
        let task: pool::Task = Box::new(move || {
            // A panic is caught around the handler; nothing is left to
            // catch here.
            let _ = on_thread.run();
        });
        Some((early, task))
    }

    /// The call's turn, if it is free now: a slot, the `serial` lock
    /// when `serial`, the capture's turn when it `takes_turns`.
    fn try_hold(&self, serial: bool, takes_turns: bool) -> Option<Held> {
        let slot = Arc::clone(&self.slots).try_acquire_owned().ok()?;
        let serial = match serial {
            true => Some(Arc::clone(&self.serial).try_lock_owned().ok()?),
            false => None,
        };
        let capture_turn = match takes_turns {
            true => Some(self.print_turn.try_take()?),
            false => None,
        };
        Some(Held {
            _slot: slot,
            _serial: serial,
            _capture_turn: capture_turn,
            _running: self.running.enter(),
        })
    }

    /// Whether `job`'s handler prints to the process's stdout, captured
    /// (so its call takes the print turn).
    pub(crate) fn prints(&self, job: &Job) -> bool {
        self.capture_for(job).is_some()
    }

    /// Whether a stopped call still holds the print turn: calls that print
    /// run in a process of their own meanwhile.
    pub(crate) fn print_turn_stuck(&self) -> bool {
        self.print_turn.stuck()
    }

    /// The capture a job's call takes (and the turn it waits for): when it
    /// prints to the process's streams and those are captured.
    #[cfg(unix)]
    fn capture_for(&self, job: &Job) -> Capture {
        self.capture.clone().filter(|_| job.prints_to_process())
    }

    #[cfg(not(unix))]
    fn capture_for(&self, _job: &Job) -> Capture {
        None
    }

    /// Waits for a call's `run` to end, its cancellation or its timeout,
    /// whichever comes first, and says how the call ended.
    async fn conclude(
        &self,
        tool: &str,
        run: impl std::future::Future<Output = Option<Option<Finished>>>,
        control: &Control,
        policy: CommandPolicy,
        cancel: CancellationToken,
    ) -> Option<Ran> {
        let timeout = policy.timeout.or(self.limits.timeout);
        let timer = async {
            match timeout {
                Some(timeout) => tokio::time::sleep(timeout).await,
                None => std::future::pending().await,
            }
        };
        // A cancellation that came first wins: a call already cancelled
        // when its turn comes never starts.
        tokio::select! {
            biased;
            () = cancel.cancelled() => {
                tracing::info!(tool, "call stopped");
                control.stop();
                None
            }
            done = run => Some(match done {
                Some(Some((done, returned, panic))) => Ran {
                    outcome: done.with_returned(
                        returned,
                        policy.returns,
                        tool,
                        self.limits.output_limit,
                    ),
                    panic,
                },
                // The job's thread answered nothing (it is not ours to).
                Some(None) | None => Ran::new(CallOutcome::lost()),
            }),
            () = timer => {
                let timeout = timeout.unwrap_or_default();
                tracing::warn!(tool, ?timeout, "call timed out");
                control.stop();
                let waited = match control.waiting.load(Ordering::SeqCst) {
                    WAIT_SLOT => format!(
                        "a free slot: at most {} calls run at once, raised with \
                         `Bridge::max_concurrent_calls`",
                        self.limits.max_concurrent
                    ),
                    WAIT_SERIAL => "the calls of `#[mcp(serial)]` commands before it: they \
                                    run one at a time"
                        .to_owned(),
                    _ => "the calls before it that print to the process's stdout: they run \
                          one at a time, as each one's output is what the process prints"
                        .to_owned(),
                };
                let stderr = match control.started.load(Ordering::SeqCst) {
                    true => format!(
                        "tool `{tool}` timed out after {}: the command was asked to stop \
                         and its result is not waited for\n",
                        describe(timeout)
                    ),
                    false => format!(
                        "tool `{tool}` timed out after {} before it started: it waited for \
                         {waited}\n",
                        describe(timeout),
                    ),
                };
                Some(Ran::new(CallOutcome::new(TIMEOUT_EXIT_CODE, String::new(), stderr)))
            }
        }
    }
}

/// The capture of fd 1 and fd 2 a call takes, if any.
#[cfg(unix)]
type Capture = Option<Arc<super::capture::StdCapture>>;
#[cfg(not(unix))]
type Capture = Option<()>;

#[cfg(unix)]
fn start_capture(capture: Capture, limit: usize) -> Option<super::capture::Capturing> {
    capture.and_then(|capture| match capture.start(limit) {
        Ok(capturing) => Some(capturing),
        Err(error) => {
            tracing::error!(%error, "cannot capture the call's output");
            None
        }
    })
}

#[cfg(unix)]
fn finish_capture(
    capturing: Option<super::capture::Capturing>,
    outcome: CallOutcome,
    limit: usize,
) -> CallOutcome {
    match capturing {
        Some(capturing) => {
            let (out, err) = capturing.finish(limit);
            CallOutcome {
                stdout: outcome.stdout + &out,
                stderr: outcome.stderr + &err,
                ..outcome
            }
        }
        None => outcome,
    }
}

#[cfg(not(unix))]
fn start_capture(_capture: Capture, _limit: usize) -> Option<()> {
    None
}

#[cfg(not(unix))]
fn finish_capture(_capturing: Option<()>, outcome: CallOutcome, _limit: usize) -> CallOutcome {
    outcome
}

/// What a call waits for before it starts ([`Control::waiting`]).
const WAIT_SLOT: u8 = 0;
const WAIT_SERIAL: u8 = 1;
const WAIT_TURN: u8 = 2;

/// What stops a call, and who answers it: shared by the thread running it
/// and whoever stops it.
struct Control {
    /// Set when the call is stopped ([`Io::cancelled`]).
    stop: Arc<AtomicBool>,
    /// Cancelled when the call is stopped: its questions, an isolated
    /// child, an async task.
    abort: CancellationToken,
    /// Who answers ([`OPEN`], [`BY_THREAD`], [`STOPPED`]).
    by: Arc<std::sync::atomic::AtomicU8>,
    /// Set once the call has its turn (a slot, and the locks it needs).
    started: AtomicBool,
    /// Until then, what it waits for (`WAIT_*`).
    waiting: std::sync::atomic::AtomicU8,
    /// The print turn it holds, if any.
    turn: std::sync::OnceLock<Arc<TurnState>>,
}

impl Control {
    fn new() -> Self {
        Self {
            stop: Arc::default(),
            abort: CancellationToken::new(),
            by: Arc::new(std::sync::atomic::AtomicU8::new(OPEN)),
            started: AtomicBool::new(false),
            waiting: std::sync::atomic::AtomicU8::new(WAIT_SLOT),
            turn: std::sync::OnceLock::new(),
        }
    }

    fn waits_for(&self, what: u8) {
        self.waiting.store(what, Ordering::SeqCst);
    }

    /// Stops the call; one holding the print turn whose handler still
    /// runs is stuck ([`TurnState::stopped`]).
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.abort.cancel();
        if let Some(turn) = self.turn.get() {
            turn.stopped();
        }
    }
}

/// A call started on the thread that read its request
/// ([`Executor::start_early`]), which rmcp never sees: what stops it.
pub(crate) struct Early {
    control: Arc<Control>,
    replier: Arc<Replier>,
    id: rmcp::model::RequestId,
}

impl Early {
    /// Stops the call, as its client asked: [`Io::cancelled`] says so, its
    /// questions go unanswered, and no answer goes out; whether that held
    /// (`false`: its thread was writing its answer already).
    pub(crate) fn cancel(&self) -> bool {
        let before_the_answer = self.take_answer();
        self.control.stop();
        before_the_answer
    }

    /// Stops the call, as the server's shutdown does once its grace
    /// period is over: the answer that says so is `result`, written here
    /// unless the call's thread was writing its own already.
    pub(crate) async fn stop(&self, result: rmcp::model::CallToolResult) {
        self.control.stop();
        if self.take_answer() {
            self.replier.reply_async(self.id.clone(), result).await;
        }
    }

    /// Whether the answer is to be written here, not by the call's thread.
    fn take_answer(&self) -> bool {
        self.control
            .by
            .compare_exchange(OPEN, STOPPED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }
}

/// A synchronous job and everything it runs with on its thread.
struct OnThread {
    job: SyncJob,
    /// The call's turn, held until the handler really returns.
    held: Held,
    capture: Capture,
    limit: usize,
    stop: Arc<AtomicBool>,
    progress: Option<ProgressFn>,
    log: Option<Arc<super::logs::CallLog>>,
    ask: Option<crate::io::AskFn>,
    start_task: Option<crate::io::StartTaskFn>,
    answering: Option<ThreadAnswer>,
}

impl OnThread {
    /// Runs the handler; its end, unless this thread answered the call.
    fn run(self) -> Option<Finished> {
        let Self {
            job,
            held,
            capture,
            limit,
            stop,
            progress,
            log,
            ask,
            start_task,
            answering,
        } = self;
        // Stopped before it started (a cancellation read with its call):
        // the handler never runs.
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let _log = super::logs::Entered::on_thread(log);
        // `confirm()` from an `Io` handler asks too.
        let _ask = crate::io::asking_on_thread(ask.clone(), start_task.clone());
        let Held {
            _slot,
            _serial,
            _capture_turn,
            _running,
        } = held;
        let capturing = start_capture(capture, limit);
        let (done, returned, panic) = match job {
            SyncJob::WithIo(f) => {
                let mut out = Bounded::new(limit);
                let mut err = Bounded::new(limit);
                let ((code, panic), returned) = {
                    let mut io = Io::new(&mut out, &mut err, true)
                        .watched(stop, progress)
                        .asking(ask)
                        .tasking(start_task);
                    let code = run_caught(&mut io, f);
                    (code, io.take_structured())
                };
                let done = CallOutcome::new(code, out.into_text(), err.into_text());
                (done, returned, panic)
            }
            SyncJob::Plain(f) => {
                let mut returned = None;
                let (code, panic) = {
                    let mut sink = std::io::stderr();
                    let mut nothing = std::io::sink();
                    let mut io = Io::new(&mut nothing, &mut sink, true);
                    run_caught(&mut io, |_| {
                        let Ended { code, structured } = f();
                        returned = structured;
                        code
                    })
                };
                let done = CallOutcome::new(code, String::new(), String::new());
                (done, returned, panic)
            }
        };
        let done = finish_capture(capturing, done, limit);
        // The handler has returned and its output is read: its turn is
        // free before its answer goes out, so that a call sent on that
        // answer finds it free (the call counts as running until then).
        drop((_slot, _serial, _capture_turn));
        ThreadAnswer::deliver(answering, (done, returned, panic))
    }
}

/// Runs a synchronous handler, turning a panic into exit code 101 with
/// its message on the call's stderr; with the message.
fn run_caught(io: &mut Io<'_>, f: impl FnOnce(&mut Io<'_>) -> i32) -> (i32, Option<String>) {
    match catch_unwind(AssertUnwindSafe(|| f(io))) {
        Ok(code) => (code, None),
        Err(panic) => {
            let message = panic_message(&*panic);
            tracing::error!("command panicked: {message}");
            let _ =
                std::io::Write::write_fmt(io.err(), format_args!("command panicked: {message}\n"));
            (101, Some(message))
        }
    }
}

/// `30s`, `1.5s`, `250ms`.
pub(crate) fn describe(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{}s", duration.as_secs())
    } else if duration < Duration::from_secs(1) {
        format!("{}ms", duration.as_millis())
    } else {
        format!("{:.1}s", duration.as_secs_f64())
    }
}
