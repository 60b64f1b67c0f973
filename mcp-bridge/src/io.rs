//! Where a command's output goes: the real terminal in CLI mode, buffers
//! captured for the result in MCP mode.

use std::any::TypeId;
use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Reports progress to the client: `(done, total, message)`.
pub(crate) type ProgressFn = Arc<dyn Fn(f64, Option<f64>, Option<String>) + Send + Sync>;

/// Asks the user of an MCP client a question (an elicitation request),
/// blocking until the answer.
pub(crate) type AskFn = Arc<dyn Fn(&Question) -> Result<Answer, Unanswered> + Send + Sync>;

/// Makes the rest of a call a task of the MCP Tasks extension, blocking
/// until it is one; whether it is.
pub(crate) type StartTaskFn = Arc<dyn Fn() -> bool + Send + Sync>;

/// A question a command asks its user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Question {
    /// Yes or no.
    Confirm(String),
    /// A line of text.
    Text(String),
}

impl Question {
    pub(crate) fn text(&self) -> &str {
        match self {
            Question::Confirm(text) | Question::Text(text) => text,
        }
    }
}

/// The answer to a [`Question`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    Yes(bool),
    Text(String),
}

impl Answer {
    /// Whether it is a yes.
    fn yes(self) -> bool {
        matches!(self, Answer::Yes(true))
    }

    /// It as text.
    fn into_text(self) -> String {
        match self {
            Answer::Text(text) => text,
            Answer::Yes(yes) => yes.to_string(),
        }
    }
}

/// Why a command's question ([`Io::confirm`], [`confirm`]...) got no
/// answer. Its message says what the question was and why; with
/// [`Unanswered::instead`], also which flag answers it ahead of time
/// (`--force` in a terminal, `force: true` for a model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unanswered {
    question: String,
    reason: UnansweredReason,
    /// The argument that answers the question ahead of time.
    instead: Option<Instead>,
}

/// The argument named by [`Unanswered::instead`] or
/// [`Unanswered::instead_value`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Instead {
    /// The long name, without dashes (as the property is named).
    name: String,
    /// Whether it takes the answer as its value (else it is a flag).
    takes_value: bool,
    /// Whether the command runs as an MCP tool call.
    mcp: bool,
}

/// Why a question got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnansweredReason {
    /// In a terminal: stdin is not one, so nobody can type an answer.
    NoTerminal,
    /// Under `mcp serve`: the client cannot ask its user (it declared no
    /// elicitation support, the call runs in a child process...); says
    /// which.
    CannotAsk(String),
    /// The user declined to answer.
    Declined,
    /// The user dismissed the question, or the call was cancelled.
    Cancelled,
}

impl Unanswered {
    pub(crate) fn new(question: &Question, reason: UnansweredReason) -> Self {
        Self {
            question: question.text().to_owned(),
            reason,
            instead: None,
        }
    }

    /// The question asked.
    pub fn question(&self) -> &str {
        &self.question
    }

    /// Why it got no answer.
    pub fn reason(&self) -> &UnansweredReason {
        &self.reason
    }

    /// Names the long flag (without dashes, as the property is named)
    /// that answers the question ahead of time: the message then says to
    /// pass `--force` in a terminal, `force: true` to a model.
    pub fn instead(self, flag: &str) -> Self {
        self.answered_by(flag, false)
    }

    /// Names the long option (without dashes) that takes the answer of a
    /// [`prompt`] ahead of time: the message then says to pass
    /// `--reason <answer>` in a terminal, to set `reason` to the answer for
    /// a model.
    pub fn instead_value(self, option: &str) -> Self {
        self.answered_by(option, true)
    }

    fn answered_by(mut self, name: &str, takes_value: bool) -> Self {
        let mcp = serving() || matches!(self.reason, UnansweredReason::CannotAsk(_));
        self.instead = Some(Instead {
            name: name.to_owned(),
            takes_value,
            mcp,
        });
        self
    }
}

impl Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let question = &self.question;
        match &self.reason {
            UnansweredReason::NoTerminal => write!(
                f,
                "cannot ask \"{question}\": stdin is not a terminal, so nobody can answer"
            )?,
            UnansweredReason::CannotAsk(why) => write!(f, "cannot ask \"{question}\": {why}")?,
            UnansweredReason::Declined => write!(f, "\"{question}\" was declined")?,
            UnansweredReason::Cancelled => write!(
                f,
                "\"{question}\" was not answered (dismissed or cancelled)"
            )?,
        }
        let Some(Instead {
            name,
            takes_value,
            mcp,
        }) = &self.instead
        else {
            return Ok(());
        };
        f.write_str("; to go ahead without the question, ")?;
        match (mcp, takes_value) {
            (true, false) => write!(f, "call again with `{name}: true`"),
            (true, true) => write!(f, "call again with `{name}` set to the answer"),
            (false, false) => write!(f, "pass `--{name}`"),
            (false, true) => write!(f, "pass `--{name} <answer>`"),
        }
    }
}

impl std::error::Error for Unanswered {}

/// Asks the user of one call questions from any thread ([`Io::asker`],
/// which says in what order a client gets them).
#[derive(Clone)]
pub struct Asker {
    ask: Option<AskFn>,
    mcp: bool,
}

impl Asker {
    /// Asks the user to confirm `question` (yes or no), as
    /// [`Io::confirm`] does.
    pub fn confirm(&self, question: &str) -> Result<bool, Unanswered> {
        let question = Question::Confirm(question.to_owned());
        self.ask(&question).map(Answer::yes)
    }

    /// Asks the user for a line of text, as [`Io::prompt`] does.
    pub fn prompt(&self, question: &str) -> Result<String, Unanswered> {
        let question = Question::Text(question.to_owned());
        self.ask(&question).map(Answer::into_text)
    }

    fn ask(&self, question: &Question) -> Result<Answer, Unanswered> {
        put(
            question,
            self.ask.as_ref(),
            self.mcp,
            &mut std::io::stderr(),
        )
    }
}

/// Puts `question` to the call's client (`ask`), or, with none, says why
/// not under MCP, or asks on the terminal (writing to `err`).
fn put(
    question: &Question,
    ask: Option<&AskFn>,
    mcp: bool,
    err: &mut dyn Write,
) -> Result<Answer, Unanswered> {
    match (ask, mcp) {
        (Some(ask), _) => ask(question),
        (None, true) => Err(nobody_to_ask(question)),
        (None, false) => ask_terminal(question, err),
    }
}

impl std::fmt::Debug for Asker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Asker")
            .field("client", &self.ask.is_some())
            .field("mcp", &self.mcp)
            .finish()
    }
}

/// Why a question of a call with no client to ask gets no answer.
fn nobody_to_ask(question: &Question) -> Unanswered {
    Unanswered::new(
        question,
        UnansweredReason::CannotAsk(
            "no client can be asked here (a child process, a direct call)".to_owned(),
        ),
    )
}

/// The terminal's turn: one question at a time on it.
fn lock_terminal() -> std::sync::MutexGuard<'static, ()> {
    static TERMINAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TERMINAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Set while this process serves MCP (`mcp serve`): a question with no
/// client to ask is not put to a terminal.
static SERVING: AtomicBool = AtomicBool::new(false);

pub(crate) fn set_serving() {
    SERVING.store(true, Ordering::Relaxed);
}

fn serving() -> bool {
    SERVING.load(Ordering::Relaxed)
}

/// What a handler that does not hold an [`Io`] reaches of its call: the
/// asker, and what makes the call a task.
#[derive(Clone)]
struct Reach {
    ask: Option<AskFn>,
    start_task: Option<StartTaskFn>,
}

impl Reach {
    const NONE: Self = Self {
        ask: None,
        start_task: None,
    };
}

thread_local! {
    /// What the call running on this thread reaches (a handler printing
    /// with `println!`, run by the server on a call thread).
    static REACH: std::cell::RefCell<Reach> = const { std::cell::RefCell::new(Reach::NONE) };
}

tokio::task_local! {
    /// What the call an async handler runs for reaches.
    static TASK_REACH: Reach;
}

/// Runs an async handler's call with `ask` as its asker and `start_task`
/// as what makes it a task.
pub(crate) async fn asking_in_task<F: std::future::Future>(
    ask: Option<AskFn>,
    start_task: Option<StartTaskFn>,
    call: F,
) -> F::Output {
    TASK_REACH.scope(Reach { ask, start_task }, call).await
}

/// Makes `ask` the asker of the calls of this thread, and `start_task`
/// what makes them a task, until the guard goes.
pub(crate) fn asking_on_thread(ask: Option<AskFn>, start_task: Option<StartTaskFn>) -> AskerGuard {
    REACH.set(Reach { ask, start_task });
    AskerGuard
}

/// Clears what this thread's call reaches when dropped.
pub(crate) struct AskerGuard;

impl Drop for AskerGuard {
    fn drop(&mut self) {
        REACH.set(Reach::NONE);
    }
}

/// [`Io::start_task`] for a handler that prints with `println!` (one
/// writing through [`Io`] calls [`Io::start_task`]): makes the rest of
/// its call a task of the MCP Tasks extension, for a command with
/// `#[mcp(task = "deferred")]`; whether the call runs as a task from
/// here on (`false` in CLI mode, and wherever [`Io::start_task`] says).
/// Called from the handler's own thread: a thread it started, like an
/// `async` handler (which calls [`start_task_async`]), gets `false`.
///
/// ```no_run
/// fn deploy() -> Result<(), mcp_bridge::Unanswered> {
///     let place = mcp_bridge::prompt("Where to?")?;
///     // The questions so far belong to the client's call; the long part
///     // is a task the client polls, when it can.
///     mcp_bridge::start_task();
///     println!("deploying to {place}");
///     Ok(())
/// }
/// ```
pub fn start_task() -> bool {
    let start = REACH.with_borrow(|reach| reach.start_task.clone());
    start.is_some_and(|start| start())
}

/// [`start_task`] for an `async` handler: the wait runs on a blocking
/// thread, not on the runtime.
pub async fn start_task_async() -> bool {
    let Some(start) = TASK_REACH
        .try_with(|reach| reach.start_task.clone())
        .ok()
        .flatten()
    else {
        return false;
    };
    crate::spawn::spawn_blocking(move || start())
        .await
        .unwrap_or(false)
}

/// Asks the user to confirm `question` (yes or no), from a handler that
/// prints with `println!` (one writing through [`Io`] uses
/// [`Io::confirm`]): in a terminal, on stderr, read from stdin; under
/// `mcp serve`, through the client (an MCP elicitation), when it can ask
/// its user. An `async` handler asks with [`confirm_async`] (this
/// function would block its runtime; under `mcp serve` it refuses with
/// [`UnansweredReason::CannotAsk`], saying so).
///
/// ```no_run
/// fn remove(name: &str, force: bool) -> Result<(), Box<dyn std::error::Error>> {
///     if !force && !mcp_bridge::confirm(&format!("Remove {name}?")).map_err(|e| e.instead("force"))? {
///         return Ok(());
///     }
///     println!("removed {name}");
///     Ok(())
/// }
/// ```
pub fn confirm(question: &str) -> Result<bool, Unanswered> {
    let question = Question::Confirm(question.to_owned());
    ask_here(&question).map(Answer::yes)
}

/// [`confirm`] for an `async` handler: the same question, asked without
/// blocking the runtime (the wait runs on a blocking thread).
pub async fn confirm_async(question: &str) -> Result<bool, Unanswered> {
    let question = Question::Confirm(question.to_owned());
    ask_async(question).await.map(Answer::yes)
}

/// [`prompt`] for an `async` handler.
pub async fn prompt_async(question: &str) -> Result<String, Unanswered> {
    let question = Question::Text(question.to_owned());
    ask_async(question).await.map(Answer::into_text)
}

async fn ask_async(question: Question) -> Result<Answer, Unanswered> {
    let ask = TASK_REACH
        .try_with(|reach| reach.ask.clone())
        .ok()
        .flatten();
    if ask.is_none() && serving() {
        return Err(Unanswered::new(
            &question,
            UnansweredReason::CannotAsk(
                "this handler runs where the server cannot reach the client (a runtime task the \
                 handler spawned, a child process)"
                    .to_owned(),
            ),
        ));
    }
    let asked = question.clone();
    let answered = crate::spawn::spawn_blocking(move || match ask {
        Some(ask) => ask(&asked),
        None => ask_terminal(&asked, &mut std::io::stderr()),
    })
    .await;
    answered.unwrap_or_else(|_| Err(Unanswered::new(&question, UnansweredReason::Cancelled)))
}

/// Asks the user for a line of text, as [`confirm`] asks.
pub fn prompt(question: &str) -> Result<String, Unanswered> {
    let question = Question::Text(question.to_owned());
    ask_here(&question).map(Answer::into_text)
}

fn ask_here(question: &Question) -> Result<Answer, Unanswered> {
    if let Some(ask) = REACH.with_borrow(|reach| reach.ask.clone()) {
        return ask(question);
    }
    if serving() {
        return Err(Unanswered::new(
            question,
            UnansweredReason::CannotAsk(
                "this handler runs where the server cannot reach the client (a thread the \
                 handler started, a child process; an async handler asks with \
                 `confirm_async`/`prompt_async`)"
                    .to_owned(),
            ),
        ));
    }
    ask_terminal(question, &mut std::io::stderr())
}

/// Asks on a terminal: the question on `err`, the answer a line of stdin
/// (one question at a time, whichever thread asks).
fn ask_terminal(question: &Question, err: &mut dyn Write) -> Result<Answer, Unanswered> {
    use std::io::{BufRead, IsTerminal};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(Unanswered::new(question, UnansweredReason::NoTerminal));
    }
    let _turn = lock_terminal();
    let _ = match question {
        Question::Confirm(text) => write!(err, "{text} [y/N] "),
        Question::Text(text) => write!(err, "{text} "),
    };
    let _ = err.flush();
    let mut line = String::new();
    match stdin.lock().read_line(&mut line) {
        Ok(0) | Err(_) => Err(Unanswered::new(question, UnansweredReason::Cancelled)),
        Ok(_) => {
            let line = line.trim_end_matches(['\n', '\r']).to_owned();
            Ok(match question {
                Question::Confirm(_) => Answer::Yes(matches!(
                    line.trim().to_ascii_lowercase().as_str(),
                    "y" | "yes"
                )),
                Question::Text(_) => Answer::Text(line),
            })
        }
    }
}

/// The writers a handler prints through.
///
/// In CLI mode they are the process's stdout and stderr; under `mcp serve`
/// they are buffers that become the tool result, so a handler never writes
/// into the protocol channel.
///
/// ```
/// use std::io::Write;
/// use mcp_bridge::Io;
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let mut io = Io::new(&mut out, &mut err, true);
/// writeln!(io.out(), "hello").unwrap();
/// assert!(io.is_mcp());
/// drop(io);
/// assert_eq!(out, b"hello\n");
/// ```
pub struct Io<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    mcp: bool,
    cancelled: Option<Arc<AtomicBool>>,
    progress: Option<ProgressFn>,
    structured: Option<Structured>,
    ask: Option<AskFn>,
    start_task: Option<StartTaskFn>,
}

impl<'a> Io<'a> {
    /// Writers for one run of a command; `mcp` tells the handler whether it
    /// runs as an MCP tool.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, mcp: bool) -> Self {
        Self {
            out,
            err,
            mcp,
            cancelled: None,
            progress: None,
            structured: None,
            ask: None,
            start_task: None,
        }
    }

    /// How the call asks its user questions (an MCP elicitation).
    pub(crate) fn asking(mut self, ask: Option<AskFn>) -> Self {
        self.ask = ask;
        self
    }

    /// How the call becomes a task ([`Io::start_task`]).
    pub(crate) fn tasking(mut self, start_task: Option<StartTaskFn>) -> Self {
        self.start_task = start_task;
        self
    }

    /// Asks the user to confirm `question` (yes or no): in CLI mode on
    /// the terminal (the question on stderr, the answer from stdin; an
    /// error when stdin is not a terminal); as an MCP tool, through the
    /// client (an elicitation), when it can ask its user; otherwise an
    /// error saying why ([`Unanswered::instead`] names the flag that
    /// answers ahead of time).
    ///
    /// ```
    /// use mcp_bridge::Io;
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// // Under `mcp serve` without a client that can ask: refused.
    /// let mut io = Io::new(&mut out, &mut err, true);
    /// let refused = io.confirm("Delete 3 tasks?").unwrap_err().instead("force");
    /// assert!(refused.to_string().contains("call again with `force: true`"));
    /// ```
    pub fn confirm(&mut self, question: &str) -> Result<bool, Unanswered> {
        let question = Question::Confirm(question.to_owned());
        self.ask(&question).map(Answer::yes)
    }

    /// Asks the user for a line of text, as [`Io::confirm`] asks.
    pub fn prompt(&mut self, question: &str) -> Result<String, Unanswered> {
        let question = Question::Text(question.to_owned());
        self.ask(&question).map(Answer::into_text)
    }

    fn ask(&mut self, question: &Question) -> Result<Answer, Unanswered> {
        put(question, self.ask.as_ref(), self.mcp, self.err)
    }

    /// What asks this call's user questions, as [`Io::confirm`] and
    /// [`Io::prompt`] do, from any thread: for a command that asks
    /// several questions at once (each from a thread of its own), or code
    /// that does not hold the `Io`. When the call is a task, its client
    /// gets the questions together; otherwise one at a time, the next
    /// once the last is answered (one elicitation request open per call,
    /// or one `input_required` round after the other). In CLI mode the
    /// questions take turns on the terminal (on stderr, the answers from
    /// stdin).
    ///
    /// ```
    /// use mcp_bridge::Io;
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// let io = Io::new(&mut out, &mut err, true);
    /// let asker = io.asker();
    /// // Under `mcp serve` without a client that can ask: both refused.
    /// let (name, sure) = std::thread::scope(|s| {
    ///     let name = s.spawn(|| asker.prompt("Name?"));
    ///     let sure = s.spawn(|| asker.confirm("Sure?"));
    ///     (name.join().unwrap(), sure.join().unwrap())
    /// });
    /// assert!(name.is_err() && sure.is_err());
    /// ```
    pub fn asker(&self) -> Asker {
        Asker {
            ask: self.ask.clone(),
            mcp: self.mcp,
        }
    }

    /// Makes the rest of this call a task of the MCP Tasks extension, for
    /// a command with `#[mcp(task = "deferred")]`: what came before (its
    /// questions, answered the ordinary way) belongs to the client's call,
    /// which is answered with the task at once; the client polls the task
    /// for the result, answers its later questions through it and may
    /// cancel it. A handler that prints with `println!` calls
    /// [`start_task`](crate::start_task), an `async` one
    /// [`start_task_async`](crate::start_task_async).
    ///
    /// Returns whether the call runs as a task from here on:
    ///
    /// - `true` for a deferred call of a client that supports the Tasks
    ///   extension and speaks protocol 2026-07-28 (where a call's first
    ///   questions are `input_required` rounds, which a task can follow
    ///   on from); and for a call that is a task already: one of a command
    ///   with `#[mcp(task)]` or `task = "required"`, called by a client
    ///   that supports the extension, whatever its protocol;
    /// - `false` in CLI mode; for a command without `task`; for a client
    ///   without the extension; for a deferred call of a client older
    ///   than 2026-07-28 (its questions are requests in its session, which
    ///   no task follows on from: the call stays an ordinary one); in a
    ///   child process (`Bridge::isolate_calls`; `#[mcp(isolate)]` with
    ///   `task = "deferred"` is refused at compile time); and when the call
    ///   was cancelled or timed out meanwhile.
    ///
    /// ```
    /// use mcp_bridge::Io;
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// let mut io = Io::new(&mut out, &mut err, false);
    /// // In a terminal the command just goes on.
    /// assert!(!io.start_task());
    /// ```
    pub fn start_task(&mut self) -> bool {
        self.start_task.as_ref().is_some_and(|start| start())
    }

    /// The value the handler returned as data ([`Output`]), taken.
    pub(crate) fn take_structured(&mut self) -> Option<Structured> {
        self.structured.take()
    }

    /// The flag a cancelled or timed-out call raises, and where progress
    /// goes.
    pub(crate) fn watched(
        mut self,
        cancelled: Arc<AtomicBool>,
        progress: Option<ProgressFn>,
    ) -> Self {
        self.cancelled = Some(cancelled);
        self.progress = progress;
        self
    }

    /// Whether the call was cancelled by the client or ran past its
    /// timeout: nobody waits for the result any more, so a long command
    /// should stop at the next safe point. Always `false` in CLI mode.
    pub fn cancelled(&self) -> bool {
        self.cancelled
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Reports progress (`done` of `total`, with a message) to the client,
    /// when it asked for progress of this call (`notifications/progress`);
    /// does nothing otherwise, and in CLI mode.
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(progress) = &self.progress {
            progress(done, total, message.map(str::to_owned));
        }
    }

    /// Standard output of the command.
    pub fn out(&mut self) -> &mut dyn Write {
        self.out
    }

    /// Standard error of the command.
    pub fn err(&mut self) -> &mut dyn Write {
        self.err
    }

    /// Whether the command runs as an MCP tool call (output is captured).
    pub fn is_mcp(&self) -> bool {
        self.mcp
    }
}

/// What a handler returns, turned into an exit code: what a `main`
/// returns.
///
/// `()` is success; an integer or an [`ExitCode`](std::process::ExitCode)
/// is the exit code; a `Result` reports its error on stderr (`error: ...`,
/// with the chain of causes for errors that print it with `{:#}`, as
/// `anyhow` and `eyre` do) and exits with 1; an [`Output`] is a result as
/// data (its text printed), and `Option` of any of them is success when
/// `None`.
///
/// ```
/// use mcp_bridge::{Io, Report};
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let mut io = Io::new(&mut out, &mut err, false);
/// let failed: Result<(), String> = Err("no such task".into());
/// assert_eq!(failed.report(&mut io), 1);
/// drop(io);
/// assert_eq!(String::from_utf8(err).unwrap(), "error: no such task\n");
/// ```
pub trait Report {
    /// The exit code, after writing any error to `io.err()`.
    fn report(self, io: &mut Io<'_>) -> i32;
}

impl Report for () {
    fn report(self, _: &mut Io<'_>) -> i32 {
        0
    }
}

impl Report for i32 {
    fn report(self, _: &mut Io<'_>) -> i32 {
        self
    }
}

impl Report for u8 {
    fn report(self, _: &mut Io<'_>) -> i32 {
        self.into()
    }
}

impl Report for std::process::ExitCode {
    fn report(self, _: &mut Io<'_>) -> i32 {
        // `ExitCode` does not say its number; it compares, though.
        (0..=u8::MAX)
            .find(|code| Self::from(*code) == self)
            .map_or(1, i32::from)
    }
}

impl<T: Report, E: Display> Report for Result<T, E> {
    fn report(self, io: &mut Io<'_>) -> i32 {
        match self {
            Ok(value) => value.report(io),
            Err(error) => {
                // The exit code carries the failure even if stderr is gone.
                let _ = writeln!(io.err(), "error: {error:#}");
                1
            }
        }
    }
}

/// What a handler returned as data ([`Output`]), as JSON, with what its
/// type was.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Structured {
    pub(crate) value: serde_json::Value,
    /// Known in this process; a child's value has its type's name only.
    pub(crate) type_id: Option<TypeId>,
    pub(crate) type_name: String,
}

/// A command's result as data: a handler returns `Output` (or
/// `Option<Output>`, or either in a `Result`) where it would print its
/// result.
///
/// Under `mcp serve` the value becomes the call's `structuredContent` and
/// its text the call's text content; a command declaring
/// `#[mcp(output = T)]` gets `T`'s JSON Schema as its tool's
/// `outputSchema`, and its calls must return a `T`. In CLI mode the text
/// is printed. The text is the value as JSON (indented in CLI mode) unless
/// the handler gives one: [`Output::display`] shows the value's `Display`,
/// [`Output::with_text`] any text, and a CLI with a `--json` flag passes it
/// to [`Output::json_when`], which shows the value as JSON when it is set.
/// One handler serves every command, so `Output` holds a value of
/// any type; `None` (of an `Option<Output>`) is a command that returns
/// nothing.
///
/// ```
/// use mcp_bridge::{Io, Output, Report};
///
/// #[derive(serde::Serialize)]
/// struct Summary { open: u32, done: u32 }
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let mut io = Io::new(&mut out, &mut err, false);
/// let code = Output::new(Summary { open: 2, done: 1 }).report(&mut io);
/// assert_eq!(code, 0);
/// drop(io);
/// assert_eq!(String::from_utf8(out).unwrap(), "{\n  \"open\": 2,\n  \"done\": 1\n}\n");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The value as JSON, or why it cannot be.
    value: Result<serde_json::Value, String>,
    /// The value as JSON text, its keys in the order its type writes them
    /// (a `serde_json::Value` may hold them sorted): compact, and indented
    /// unless the process serves MCP.
    json: Option<String>,
    pretty: Option<String>,
    type_id: TypeId,
    type_name: &'static str,
    text: Option<String>,
}

impl Output {
    /// The value, shown as JSON.
    pub fn new<T: serde::Serialize + 'static>(value: T) -> Self {
        let (json, parsed) = match serde_json::to_string(&value) {
            Ok(json) => {
                let parsed = serde_json::from_str(&json).map_err(|error| error.to_string());
                (Some(json), parsed)
            }
            Err(error) => (None, Err(error.to_string())),
        };
        let pretty = match serving() || json.is_none() {
            true => None,
            false => serde_json::to_string_pretty(&value).ok(),
        };
        Self {
            value: parsed,
            json,
            pretty,
            type_id: TypeId::of::<T>(),
            type_name: std::any::type_name::<T>(),
            text: None,
        }
    }

    /// The value, shown as `text` (what the CLI prints; the text content
    /// of an MCP result).
    pub fn with_text<T: serde::Serialize + 'static>(value: T, text: impl Into<String>) -> Self {
        Self {
            text: Some(text.into()),
            ..Self::new(value)
        }
    }

    /// The value, shown as its `Display` renders it.
    pub fn display<T: serde::Serialize + Display + 'static>(value: T) -> Self {
        let text = value.to_string();
        Self::with_text(value, text)
    }

    /// Shown as JSON after all when `json` is set, whatever text was
    /// given: what a CLI's `--json` flag asks for. In CLI mode the JSON is
    /// indented; under MCP it is the text content, beside the same value as
    /// `structuredContent`.
    ///
    /// ```
    /// use mcp_bridge::{Io, Output, Report};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Open { open: u32 }
    /// impl std::fmt::Display for Open {
    ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    ///         write!(f, "{} open", self.open)
    ///     }
    /// }
    ///
    /// let print = |json: bool| {
    ///     let (mut out, mut err) = (Vec::new(), Vec::new());
    ///     let mut io = Io::new(&mut out, &mut err, false);
    ///     Output::display(Open { open: 2 }).json_when(json).report(&mut io);
    ///     drop(io);
    ///     String::from_utf8(out).unwrap()
    /// };
    /// assert_eq!(print(false), "2 open\n");
    /// assert_eq!(print(true), "{\n  \"open\": 2\n}\n");
    /// ```
    #[must_use]
    pub fn json_when(mut self, json: bool) -> Self {
        if json {
            self.text = None;
        }
        self
    }

    /// The value as JSON (an error when it cannot be written as JSON).
    pub fn value(&self) -> Result<&serde_json::Value, &str> {
        self.value.as_ref().map_err(String::as_str)
    }

    /// The name of the value's type.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

impl Report for Output {
    fn report(self, io: &mut Io<'_>) -> i32 {
        let value = match self.value {
            Ok(value) => value,
            Err(error) => {
                let _ = writeln!(
                    io.err(),
                    "error: the command's result (`{}`) cannot be written as JSON: {error}",
                    self.type_name
                );
                return 1;
            }
        };
        let mut text = match (self.text, self.json, self.pretty) {
            (Some(text), _, _) => text,
            (None, Some(json), _) if io.mcp => json,
            (None, _, Some(pretty)) if !io.mcp => pretty,
            (None, _, _) => match io.mcp {
                true => value.to_string(),
                false => serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string()),
            },
        };
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        let _ = io.out().write_all(text.as_bytes());
        if io.mcp {
            io.structured = Some(Structured {
                value,
                type_id: Some(self.type_id),
                type_name: self.type_name.to_owned(),
            });
        }
        0
    }
}

/// `None`: the command returned nothing (exit code 0).
impl<T: Report> Report for Option<T> {
    fn report(self, io: &mut Io<'_>) -> i32 {
        match self {
            Some(value) => value.report(io),
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Question, Unanswered, UnansweredReason};

    #[test]
    fn an_unanswered_question_names_the_argument_that_answers_it() {
        let question = Question::Text("Why deploy?".to_owned());
        let terminal = Unanswered::new(&question, UnansweredReason::NoTerminal);
        assert_eq!(
            terminal.clone().instead_value("reason").to_string(),
            "cannot ask \"Why deploy?\": stdin is not a terminal, so nobody can answer; to go \
             ahead without the question, pass `--reason <answer>`"
        );
        assert!(terminal
            .instead("force")
            .to_string()
            .ends_with("pass `--force`"));
        let client = Unanswered::new(
            &question,
            UnansweredReason::CannotAsk("the client cannot ask its user".to_owned()),
        );
        assert_eq!(
            client.clone().instead_value("reason").to_string(),
            "cannot ask \"Why deploy?\": the client cannot ask its user; to go ahead without \
             the question, call again with `reason` set to the answer"
        );
        assert!(client
            .instead("force")
            .to_string()
            .ends_with("call again with `force: true`"));
    }
}
