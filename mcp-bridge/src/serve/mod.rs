//! Serving: the rmcp `ServerHandler` — `tools/list` from the cache,
//! `tools/call` routed by exact name to the typed build ([`Registry`]),
//! then to the user's handler ([`run`]) — and the [`transport`] it is
//! served over.

mod ask;
mod capture;
mod dispatch;
mod exec;
pub(crate) mod isolate;
mod locks;
pub(crate) mod logs;
mod outbox;
mod output;
mod pool;
mod requests;
mod results;
mod run;
pub(crate) mod transport;
mod turn;
mod values;

use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use std::collections::HashMap;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    ContentBlock, CustomRequest, CustomResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, RequestId, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::model::{
    CancelTaskParams, ClientCapabilities, CreateTaskResult, GetTaskParams, GetTaskResult,
    UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::error::{ArgError, CallError, RegistryError};
use crate::handler::{Ended, Handler, IntoHandler, Job, SyncJob};
use crate::io::{Io, ProgressFn};
use crate::registry::{Listed, Registry, Resolved, Shown, Surface, ToolMode};
use crate::spec::{CommandSpec, OutputFormat, TaskSupport, ToolSpec};
use crate::traits::McpCommand;

#[cfg(unix)]
pub(crate) use capture::StdCapture;
use dispatch::{Dispatch, Typed};
pub(crate) use exec::Limits;
pub(crate) use exec::Running;
use exec::{CommandPolicy, Executor, Ran, Watch};
use locks::{lock, read, write};
use outbox::Outbox;
pub(crate) use output::structured as structured_output;
use requests::malformed_request_error;
use results::{invalid_arguments, unfinished, with_output};
pub use run::CallOutcome;
#[cfg(feature = "http")]
pub(crate) use transport::http::{endpoint_url, serve as serve_http, HttpOptions};

struct Shared {
    typed: Box<dyn Dispatch>,
    /// What `tools/list` answers: every tool (flat), or the surface's.
    listed: RwLock<ListToolsResult>,
    /// In the grouped and search modes: how the listed tools route calls,
    /// and every tool as it is (for `help` and searches).
    surface: Option<(Surface, RwLock<Vec<Tool>>)>,
    /// `#[mcp(values = ...)]`: the values fetched at run time, and the
    /// clients told when they change.
    values: Option<Arc<values::Values>>,
    /// The clients of the sessions started, told when the tools change.
    peers: Mutex<Vec<rmcp::Peer<RoleServer>>>,
    /// Set once the task fetching values runs.
    fetching: std::sync::atomic::AtomicBool,
    /// Calls of 2026-07-28 clients waiting for the answer to a question,
    /// by the `requestState` their `input_required` result gave.
    rounds: Mutex<HashMap<String, Round>>,
    /// How each tool runs, in table order.
    policies: Vec<CommandPolicy>,
    info: ServerConfig,
    exec: Executor,
    /// Cancelled when the server is shutting down: new calls are refused,
    /// and calls waiting for an answer stop.
    draining: CancellationToken,
    /// Every call runs in a child process (`Bridge::isolate_calls`).
    isolate_all: bool,
    /// Calls of `#[mcp(task)]` commands made tasks (MCP Tasks extension):
    /// their state, answers to `tasks/get`, `tasks/update` and
    /// `tasks/cancel`.
    tasks: TaskManager,
    /// How long a task may run, from the moment it is one.
    task_ttl: Duration,
    /// The calls in flight, by session and request id, with what stops
    /// them: only a client's `notifications/cancelled` or the end of the
    /// shutdown grace period (not rmcp's own end of session, after which
    /// calls still finish their work).
    in_flight: std::sync::Mutex<HashMap<(u64, RequestId), CancellationToken>>,
    /// The calls started by the thread that read their request, which
    /// rmcp never sees ([`BridgeServer::start_early`]), until they end.
    early: std::sync::Mutex<HashMap<(u64, RequestId), EarlyEntry>>,
    /// The number of the next call started early.
    next_early: std::sync::atomic::AtomicU64,
    /// Cancelled when the shutdown stops the calls still running (its
    /// grace period is over): they are answered as not finished.
    stopped: CancellationToken,
    /// The number of the next session (HTTP serves many).
    next_session: std::sync::atomic::AtomicU64,
}

/// A call started by the thread that read its request (rmcp never sees
/// it), while it runs.
struct EarlyEntry {
    /// Told apart from a later call reusing its request id.
    number: u64,
    tool: String,
    call: exec::Early,
}

/// Starts calls on the threads that read their requests, and stops them
/// when their client cancels them ([`transport::EarlyCalls`]).
struct EarlyStarter {
    server: BridgeServer,
    runtime: tokio::runtime::Handle,
}

impl transport::EarlyCalls for EarlyStarter {
    fn start(
        &self,
        message: &mut rmcp::service::RxJsonRpcMessage<RoleServer>,
    ) -> Option<pool::Task> {
        // Built inside the runtime (the call's asker waits on it), run
        // outside it.
        let _entered = self.runtime.enter();
        self.server.start_early(message)
    }

    fn cancel(&self, id: &RequestId) -> bool {
        let key = (self.server.session.id, id.clone());
        let Some(entry) = lock(&self.server.shared.early).remove(&key) else {
            return false;
        };
        match entry.call.cancel() {
            true => tracing::info!(%id, tool = entry.tool, "call cancelled by the client"),
            false => tracing::debug!(%id, "a cancellation came as its call's answer went out"),
        }
        true
    }
}

/// A call running past the request that started it: a 2026-07-28
/// client's call whose handler asks questions, answered in later calls,
/// or a task's.
struct Followed {
    /// The tool the client called (a group's, in the grouped mode).
    called: String,
    tool: String,
    output: Option<OutputFormat>,
    task: Option<TaskSupport>,
    call: tokio::task::JoinHandle<Option<Ran>>,
    asks: tokio::sync::mpsc::UnboundedReceiver<ask::FromCall>,
    cancel: CancellationToken,
    /// The first request's notifications (progress, logs), sent before
    /// its answer.
    outbox: Option<Arc<Outbox>>,
    /// Whether progress still has a request to go to.
    live: Arc<std::sync::atomic::AtomicBool>,
}

/// A followed call waiting for the answer to its question.
struct Round {
    followed: Followed,
    waiting: ask::Asked,
}

/// What a followed call did next.
enum Next {
    Done(Option<CallOutcome>),
    Asked(ask::Asked),
    /// Its handler made the rest of it a task (`Io::start_task`).
    Task(tokio::sync::oneshot::Sender<bool>),
}

/// What belongs to one client's session: request ids are the client's
/// own, and so is the level of logs it asked for.
#[derive(Clone, Default)]
struct Session {
    id: u64,
    /// The level of the logs the client asked for (`logging/setLevel`).
    log_level: logs::ClientLevel,
    /// Where a call thread writes its call's answer itself (stdio).
    replier: Option<Arc<transport::Replier>>,
    /// The client, once its session is initialized (a call is started
    /// early only then).
    peer: Arc<std::sync::OnceLock<rmcp::Peer<RoleServer>>>,
}

/// Removes a call from the calls in flight when it ends.
struct InFlight<'a> {
    shared: &'a Shared,
    id: (u64, RequestId),
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Ok(mut in_flight) = self.shared.in_flight.lock() {
            in_flight.remove(&self.id);
        }
    }
}

/// The MCP server for a CLI: an rmcp [`ServerHandler`].
///
/// Usually made by [`Bridge`](crate::Bridge); build one yourself to serve
/// over a transport of your choosing.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::{BridgeServer, Io, McpTool};
/// use std::io::Write;
///
/// #[derive(Parser, McpTool)]
/// #[command(name = "echo")]
/// struct Echo {
///     /// What to print
///     text: String,
/// }
///
/// let server = BridgeServer::new(|echo: Echo, io: &mut Io| writeln!(io.out(), "{}", echo.text)).unwrap();
/// let args = serde_json::json!({ "text": "hi" });
/// let outcome = server.call("echo", args.as_object().unwrap().clone()).unwrap();
/// assert_eq!(outcome.stdout, "hi\n");
/// ```
#[derive(Clone)]
pub struct BridgeServer {
    shared: Arc<Shared>,
    session: Session,
}

impl BridgeServer {
    /// A server for the CLI `C`, running `handler` for every tool call
    /// (any handler [`IntoHandler`] takes).
    pub fn new<C, K, H>(handler: H) -> Result<Self, RegistryError>
    where
        C: McpCommand + Send + 'static,
        H: IntoHandler<C, K>,
    {
        Ok(Self::from_registry(
            Registry::<C>::new()?,
            handler.into_handler().0,
        ))
    }

    pub(crate) fn from_registry<C: McpCommand + Send + 'static>(
        registry: Registry<C>,
        handler: Handler<C>,
    ) -> Self {
        let tools = registry.tools().map(rmcp_tool).collect();
        let policies = registry
            .tools()
            .map(|spec| CommandPolicy {
                serial: spec.serial,
                timeout: spec.timeout,
                isolate: spec.isolate,
                task: spec.task,
                output: spec.output,
                returns: spec.returns.map(run::Returns::new),
            })
            .collect();
        let tasks = registry.tools().any(|spec| spec.task.is_some());
        let prompts = registry.tools().any(|spec| !spec.examples.is_empty());
        let values = values::Values::new(registry.tools()).map(Arc::new);
        let info = server_info(registry.root(), tasks, prompts, values.is_some());
        Self {
            shared: Arc::new(Shared {
                typed: Box::new(Typed { registry, handler }),
                listed: RwLock::new(ListToolsResult::with_all_items(tools)),
                surface: None,
                values,
                peers: Mutex::default(),
                fetching: std::sync::atomic::AtomicBool::new(false),
                rounds: Mutex::default(),
                policies,
                info,
                exec: Executor::new(),
                draining: CancellationToken::new(),
                isolate_all: false,
                tasks: TaskManager::new(),
                task_ttl: DEFAULT_TASK_TTL,
                in_flight: std::sync::Mutex::default(),
                early: std::sync::Mutex::default(),
                next_early: std::sync::atomic::AtomicU64::new(0),
                stopped: CancellationToken::new(),
                next_session: std::sync::atomic::AtomicU64::new(1),
            }),
            session: Session::default(),
        }
    }

    fn configure(mut self, change: impl FnOnce(&mut Shared)) -> Self {
        match Arc::get_mut(&mut self.shared) {
            Some(shared) => change(shared),
            None => tracing::warn!("setting ignored: the server is already shared"),
        }
        self
    }

    /// Declares no `tools.listChanged`: without sessions no notification
    /// can reach a client, which learns of fetched values by listing again.
    #[cfg(feature = "http")]
    pub(crate) fn without_list_changed(self) -> Self {
        self.configure(|shared| {
            if let Some(tools) = &mut shared.info.capabilities.tools {
                tools.list_changed = None;
            }
        })
    }

    /// Lists the tools in `mode` instead of one by one (see [`ToolMode`]);
    /// errors when a tool the mode makes has a name already taken, or a
    /// pinned pattern matches no tool.
    pub fn tool_mode(mut self, mode: &ToolMode) -> Result<Self, RegistryError> {
        let surface = self
            .shared
            .typed
            .surface(mode)
            .map_err(RegistryError::ToolMode)?;
        let Some(shared) = Arc::get_mut(&mut self.shared) else {
            return Err(RegistryError::ToolMode(
                "the tool mode is set before the server is shared".to_owned(),
            ));
        };
        let flat = match &mut shared.surface {
            Some((_, flat)) => std::mem::take(&mut *write(flat)),
            None => std::mem::take(&mut write(&shared.listed).tools),
        };
        match surface {
            None => {
                shared.listed = RwLock::new(ListToolsResult::with_all_items(flat));
                shared.surface = None;
            }
            Some(surface) => {
                let tools = surface
                    .shown
                    .iter()
                    .map(|shown| match shown {
                        Shown::Tool(index) => flat[*index].clone(),
                        Shown::Group(group) => made_tool(&group.listed),
                        Shown::Search(listed) | Shown::Call(listed) => made_tool(listed),
                    })
                    .collect();
                shared.listed = RwLock::new(ListToolsResult::with_all_items(tools));
                shared.surface = Some((surface, RwLock::new(flat)));
            }
        }
        Ok(self)
    }

    /// Starts fetching the values of `#[mcp(values = ...)]` arguments, once
    /// (on the runtime serving this server).
    fn fetch_values(&self) {
        if self.shared.values.is_none()
            || self
                .shared
                .fetching
                .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        tokio::spawn(fetch_values_while_served(Arc::downgrade(&self.shared)));
    }

    /// Starts fetching values (once), and waits at most
    /// `FIRST_VALUES_WAIT` for the first round of them.
    async fn first_values(&self) {
        if let Some(values) = &self.shared.values {
            self.fetch_values();
            values.first_round(FIRST_VALUES_WAIT).await;
        }
    }

    /// A value of `arguments` that is not among its property's fetched
    /// values (fetched again first, unless they are fresh), refused.
    async fn refused_value(
        &self,
        index: usize,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Option<ArgError> {
        let values = self.shared.values.as_ref()?;
        let (function, refusal) = values.refusal(index, tool, arguments)?;
        if !values.may_refetch(function) {
            return Some(refusal);
        }
        if values.fetch(function).await {
            self.shared.values_changed(values, &[function]).await;
        }
        values
            .refusal(index, tool, arguments)
            .map(|(_, refusal)| refusal)
    }

    /// Refuses a call of a `task = "required"` tool from a client without
    /// the Tasks extension (`-32021`, naming it): before its arguments are
    /// read, as whatever they are the call cannot run.
    fn refuse_task_required(
        &self,
        index: usize,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let required = self.shared.policies[index].task == Some(TaskSupport::Required);
        if !required || ask::supports_tasks(context) {
            return Ok(());
        }
        tracing::debug!(
            tool,
            "refused: a task, for a client without the Tasks extension"
        );
        Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        ))
    }

    /// Runs a call whose tool is found and whose value is built (or
    /// refused): within the limits, as a task when asked, cancellable.
    async fn run_prepared(
        &self,
        called: &str,
        tool: String,
        prepared: Result<(usize, Job), CallError>,
        arguments: Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        let (index, job) = match prepared {
            Ok(prepared) => prepared,
            Err(CallError::UnknownTool { name }) => {
                tracing::warn!(tool = %name, "call to an unknown tool");
                return Err(ErrorData::invalid_params(
                    CallError::UnknownTool { name }.to_string(),
                    None,
                ));
            }
            Err(CallError::InvalidArguments(error)) => {
                tracing::debug!(%error, "invalid arguments");
                return Ok(invalid_arguments(&error).into_result().into());
            }
            Err(error) => return Err(ErrorData::internal_error(error.to_string(), None)),
        };
        if let Some(refusal) = self.refused_value(index, &tool, &arguments).await {
            tracing::debug!(%refusal, "a value not among the fetched ones");
            return Ok(invalid_arguments(&refusal).into_result().into());
        }
        let policy = shared.policies[index];
        // Checked here, built again by the child from the same arguments;
        // a call that prints, too, while a stopped one holds the print turn.
        let (job, elsewhere) = match policy.isolate || shared.isolate_all {
            true => (
                Job::Isolated {
                    tool: tool.clone(),
                    arguments,
                },
                None,
            ),
            false => match shared.exec.prints(&job) {
                false => (job, None),
                true if shared.exec.print_turn_stuck() => {
                    tracing::info!(tool, "runs in a process of its own");
                    (
                        Job::Isolated {
                            tool: tool.clone(),
                            arguments,
                        },
                        None,
                    )
                }
                true => (job, Some((tool.clone(), arguments))),
            },
        };
        let job = exec::Work { job, elsewhere };
        // A task from its start: the task's questions go through
        // `tasks/get` and `tasks/update`.
        if task_from_start(&policy, &context) {
            let followed = self.spawn_followed(called, tool, job, policy, &context, false);
            return Ok(self.make_task(followed));
        }
        let per_request = requests::per_request(&context);
        // A deferred call becomes a task where it is followed (its first
        // questions in rounds): a 2026-07-28 client's. An older client's
        // questions are requests in its session, nothing follows its call,
        // and it stays an ordinary call (`start_task` returns `false`).
        let task_later = per_request
            && ask::supports_tasks(&context)
            && policy.task == Some(TaskSupport::Deferred);
        if per_request && (ask::can_ask(&context) || task_later) {
            // Its questions are answers to this request, the call goes on
            // past it (and may become a task).
            let followed = self.spawn_followed(called, tool, job, policy, &context, true);
            return self.follow(followed, &context).await;
        }
        let cancel = CancellationToken::new();
        let _in_flight = self.in_flight(&context, &cancel);
        let (outbox, progress, log) = call_notifications(&self.session, &tool, &context);
        let watch = Watch {
            cancel,
            progress,
            log,
            asker: ask::Asker::of(&context),
        };
        let outcome = shared.exec.run(&tool, job, policy, watch).await;
        if let Some(outbox) = outbox {
            // Progress and logs first, then the answer.
            outbox.flush().await;
        }
        match outcome {
            Some(ran) => Ok(ran.into_result(policy.output, &tool).into()),
            // Stopped by the shutdown: said so.
            None if shared.stopped.is_cancelled() => Ok(unfinished(&tool).into()),
            // Cancelled by the client: no answer is due.
            None => Err(ErrorData::internal_error("the call was cancelled", None)),
        }
    }

    /// Counts a call among the calls in flight until the guard is dropped:
    /// its client's cancellation (`on_cancelled`) or the end of the
    /// shutdown's grace period cancels `cancel`. A cancellation that came
    /// before (rmcp cancels the request's own token when it reads it, and
    /// may have read it before this handler ran) cancels it at once.
    fn in_flight<'a>(
        &'a self,
        context: &RequestContext<RoleServer>,
        cancel: &CancellationToken,
    ) -> InFlight<'a> {
        let key = (self.session.id, context.id.clone());
        lock(&self.shared.in_flight).insert(key.clone(), cancel.clone());
        // Looked at once, not followed: rmcp also cancels it when the
        // session ends, and a call running then finishes its work.
        if context.ct.is_cancelled() {
            tracing::info!(id = %context.id, "call cancelled by the client before it started");
            cancel.cancel();
        }
        InFlight {
            shared: &self.shared,
            id: key,
        }
    }

    /// Starts a call that runs past its request: its questions go to
    /// whoever follows it ([`follow`](Self::follow), or its task), and so
    /// does its handler's `Io::start_task`. With `notify`, progress and
    /// logs go to the request until it is answered.
    fn spawn_followed(
        &self,
        called: &str,
        tool: String,
        job: exec::Work,
        policy: CommandPolicy,
        context: &RequestContext<RoleServer>,
        notify: bool,
    ) -> Followed {
        let cancel = CancellationToken::new();
        let (asks, asked) = tokio::sync::mpsc::unbounded_channel();
        // Progress goes to this request until the first question answers
        // it; then it stops (no request is left to report to).
        let (outbox, progress, log) = match notify {
            true => call_notifications(&self.session, &tool, context),
            false => (None, None, None),
        };
        let live = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let progress = progress.map(|progress| {
            let live = Arc::clone(&live);
            Arc::new(move |done, total, message| {
                if live.load(std::sync::atomic::Ordering::SeqCst) {
                    progress(done, total, message);
                }
            }) as ProgressFn
        });
        let watch = Watch {
            cancel: cancel.clone(),
            progress,
            log,
            asker: ask::Asker::in_rounds(asks, context),
        };
        let server = Arc::clone(&self.shared);
        let name = tool.clone();
        let call = tokio::spawn(async move { server.exec.run(&name, job, policy, watch).await });
        Followed {
            called: called.to_owned(),
            tool,
            output: policy.output,
            task: policy.task,
            call,
            asks: asked,
            cancel,
            outbox,
            live,
        }
    }

    /// Waits for a followed call's next step: its result, its next
    /// question as an `input_required` result (the call waits for the
    /// request that answers it), or the task its handler made of it.
    /// Cancelling this request stops the call.
    async fn follow(
        &self,
        mut followed: Followed,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        let _in_flight = self.in_flight(context, &followed.cancel);
        // Only a deferred call becomes a task here (the others that may be
        // tasks are tasks from their start, for a client with the
        // extension), and only for a client with the extension (a followed
        // call is a 2026-07-28 client's: see `run_prepared`).
        let may_be_task =
            followed.task == Some(TaskSupport::Deferred) && ask::supports_tasks(context);
        let next = loop {
            break tokio::select! {
                done = &mut followed.call => Next::Done(match done {
                    Ok(ran) => ran.map(|ran| ran.outcome),
                    Err(_) => Some(CallOutcome::lost()),
                }),
                Some(from_call) = followed.asks.recv() => match from_call {
                    ask::FromCall::Asked(asked) => Next::Asked(asked),
                    ask::FromCall::StartTask(started) if may_be_task => Next::Task(started),
                    ask::FromCall::StartTask(started) => {
                        let _ = started.send(false);
                        continue;
                    }
                },
            };
        };
        if let Next::Asked(_) | Next::Task(_) = next {
            followed
                .live
                .store(false, std::sync::atomic::Ordering::SeqCst);
        }
        // Progress and logs first, then the answer (once: later answers
        // belong to other requests).
        if let Some(outbox) = followed.outbox.take() {
            outbox.flush().await;
        }
        match next {
            Next::Done(Some(outcome)) => {
                Ok(with_output(outcome, followed.output, &followed.tool).into())
            }
            // Cancelled: rmcp sends no answer for it.
            Next::Done(None) => Err(ErrorData::internal_error("the call was cancelled", None)),
            Next::Task(started) => {
                let task = self.make_task(followed);
                let _ = started.send(true);
                Ok(task)
            }
            // Its answer would be refused: the call stops, as those already
            // waiting did.
            Next::Asked(asked) if shared.draining.is_cancelled() => {
                followed.cancel.cancel();
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "tool `{}` stopped: it asked \"{}\" while the server was shutting \
                     down, which takes no more calls to answer it",
                    followed.tool,
                    asked.question.text()
                ))])
                .into())
            }
            Next::Asked(asked) => {
                let requests = std::collections::BTreeMap::from([(
                    ask::QUESTION_KEY.to_owned(),
                    ask::input_request(&asked.question),
                )]);
                let state = shared.keep_round(Round {
                    followed,
                    waiting: asked,
                });
                Ok(CallToolResponse::InputRequired(
                    rmcp::model::InputRequiredResult::new(Some(requests), Some(state)),
                ))
            }
        }
    }

    /// Goes on with the call waiting under `state` (`requestState`), with
    /// the answer a 2026-07-28 client sent for its question.
    async fn resume(
        &self,
        state: &str,
        tool: &str,
        responses: Option<&rmcp::model::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let round = {
            let mut rounds = lock(&self.shared.rounds);
            match rounds.get(state) {
                Some(waiting) if waiting.followed.called != tool => {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "this requestState is for a call of `{}`, not of `{tool}`",
                            waiting.followed.called
                        ),
                        None,
                    ));
                }
                _ => rounds.remove(state),
            }
        };
        let Some(round) = round else {
            return Err(ErrorData::invalid_params(
                format!(
                    "no call of `{tool}` waits for an answer under this requestState: it ended, \
                     waited longer than {} minutes, or runs on another server; call the tool \
                     again without requestState",
                    ask::ROUND_EXPIRY.as_secs() / 60
                ),
                None,
            ));
        };
        let answer = ask::answered_in_round(
            &round.waiting.question,
            responses.and_then(|responses| responses.get(ask::QUESTION_KEY)),
        );
        let _ = round.waiting.answer.send(answer);
        self.follow(round.followed, context).await
    }

    /// Answers a call still running after `timeout` with an error naming
    /// the timeout (exit code 124); a command's own
    /// `#[mcp(timeout = "...")]` wins. Off by default. The time counts from
    /// the request: a call still waiting for its turn then never starts.
    pub fn call_timeout(self, timeout: Option<Duration>) -> Self {
        self.limits(|limits| limits.timeout = timeout)
    }

    /// Runs at most `calls` calls at the same time; the others wait their
    /// turn (default 16), until they are cancelled or time out.
    pub fn max_concurrent_calls(self, calls: usize) -> Self {
        self.limits(|limits| limits.max_concurrent = calls)
    }

    /// Keeps at most `bytes` of each of a call's stdout and stderr: the
    /// start and the end, with a marker saying how much was cut between
    /// (default 48 KiB, so a result stays within what clients accept).
    pub fn output_limit(self, bytes: usize) -> Self {
        self.limits(|limits| limits.output_limit = bytes)
    }

    /// Changes the limits on calls.
    pub(crate) fn limits(self, change: impl FnOnce(&mut Limits)) -> Self {
        self.configure(|shared| {
            let mut limits = shared.exec.limits().clone();
            change(&mut limits);
            shared.exec.set_limits(limits);
        })
    }

    /// Runs every call in a child process of this binary, which receives
    /// the tool's name and JSON arguments and builds the typed value
    /// itself: a crash, `std::process::exit` or a hang cannot take the
    /// server down, and a cancelled or timed-out call is killed. It costs
    /// a process start per call (docs/benchmarks.md); `#[mcp(isolate)]`
    /// asks it for one command. Off by default. Only a server started by
    /// [`Bridge`](crate::Bridge) can do it (the child is this binary).
    pub fn isolate_calls(self, isolate: bool) -> Self {
        self.configure(|shared| shared.isolate_all = isolate)
    }

    /// How long a call made a task may run, counted from the moment it
    /// is one (its start, or its handler's `Io::start_task`) and time
    /// spent waiting for its user's answers included: past it, the call
    /// is stopped and the task fails, saying its time to live elapsed.
    /// The time to live the task shows its client (`ttlMs`); it stays
    /// readable with `tasks/get` for as long again. Default 5 minutes.
    pub fn task_ttl(self, ttl: Duration) -> Self {
        self.configure(|shared| shared.task_ttl = ttl.max(Duration::from_millis(1)))
    }

    /// Captures fd 1 and fd 2 around calls of handlers that print.
    #[cfg(unix)]
    pub(crate) fn capture_with(self, capture: Arc<StdCapture>) -> Self {
        self.configure(|shared| shared.exec.capture_with(capture))
    }

    /// Makes the rest of a followed call a task of the MCP Tasks
    /// extension: the answer to the request at hand, which the client
    /// polls with `tasks/get` (its questions in it, answered with
    /// `tasks/update`) and may stop with `tasks/cancel`.
    fn make_task(&self, followed: Followed) -> CallToolResponse {
        followed
            .live
            .store(false, std::sync::atomic::Ordering::SeqCst);
        let draining = self.shared.draining.clone();
        let ttl = self.shared.task_ttl;
        let options =
            TaskOptions::default().with_ttl_ms(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        let task = self.shared.tasks.spawn(options, |task| {
            Box::pin(run_as_task(followed, task, draining, ttl))
        });
        CallToolResponse::Task(CreateTaskResult::new(task))
    }

    /// The server answering over `transport`; over stdio on Unix, the
    /// call threads read its input, and start the calls they may
    /// ([`start_early`](Self::start_early)).
    pub(crate) fn answering_through(mut self, transport: &transport::LineTransport) -> Self {
        if tokio::runtime::Handle::try_current().is_err() {
            return self;
        }
        let Some(replier) = transport.replier() else {
            return self;
        };
        self.session.replier = Some(replier);
        let early = Arc::new(EarlyStarter {
            server: self.clone(),
            runtime: tokio::runtime::Handle::current(),
        });
        if let Some(reader) = transport.reader(early) {
            if let Err(error) = self.shared.exec.lead(reader) {
                tracing::error!(%error, "no thread can read the input");
            }
        }
        self
    }

    /// Starts the call `message` brings on the thread that read it (over
    /// stdio), when nothing before its handler needs the event loop: a
    /// synchronous handler's call, in an initialized session of a protocol
    /// before 2026-07-28, neither a task (nor a task command's call from a
    /// client with the Tasks extension) nor isolated, with no progress
    /// or logs to send, its value built (and among the fetched values, once
    /// they are) and its turn free, in the flat tool mode. The arguments
    /// are taken out of the message. rmcp never sees the call: its thread
    /// answers it, a cancellation from its client stops it
    /// ([`EarlyCalls::cancel`]), and so does the shutdown
    /// ([`stop_calls`](Self::stop_calls)). The call's one wake-up is this
    /// thread's: none for the event loop and none for another thread
    /// stands between the request and the answer.
    fn start_early(
        &self,
        message: &mut rmcp::service::RxJsonRpcMessage<RoleServer>,
    ) -> Option<pool::Task> {
        use rmcp::model::{ClientRequest, GetMeta, JsonRpcMessage};
        let JsonRpcMessage::Request(request) = message else {
            return None;
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            return None;
        };
        let shared = &self.shared;
        let (Some(replier), Some(peer)) = (&self.session.replier, self.session.peer.get()) else {
            return None;
        };
        let plain = !shared.draining.is_cancelled()
            && shared.surface.is_none()
            && shared.values.as_ref().is_none_or(|values| values.ready())
            && !shared.isolate_all
            && call.params.request_state.is_none();
        if !plain {
            return None;
        }
        let index = shared.typed.position(&call.params.name)?;
        let policy = shared.policies[index];
        if policy.isolate {
            return None;
        }
        let mut context = RequestContext::new(request.id.clone(), peer.clone());
        context.meta = request.request.get_meta().clone();
        // A task, or a call refused for not being one.
        let task = policy.task == Some(TaskSupport::Required) || task_from_start(&policy, &context);
        if task || requests::per_request(&context) || notifies(&self.session, &context) {
            return None;
        }
        let ClientRequest::CallToolRequest(call) = &mut request.request else {
            return None;
        };
        let params = &mut call.params;
        let arguments = params.arguments.take().unwrap_or_default();
        let refused = shared
            .values
            .as_ref()
            .and_then(|values| values.refusal(index, &params.name, &arguments));
        let job = match (refused, shared.typed.prepare_at(index, &arguments)) {
            (None, Ok(job)) => job,
            _ => {
                // Refused by rmcp's handler (a value not among the fetched
                // ones fetched again first), which builds it again.
                params.arguments = Some(arguments);
                return None;
            }
        };
        let key = (self.session.id, request.id.clone());
        let number = shared
            .next_early
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let forget = {
            let (server, key) = (Arc::clone(shared), key.clone());
            Box::new(move || {
                let mut early = lock(&server.early);
                // Not a later call's that reuses the id.
                if early.get(&key).is_some_and(|entry| entry.number == number) {
                    early.remove(&key);
                }
            })
        };
        let reply = exec::Reply {
            replier: Arc::clone(replier),
            id: request.id.clone(),
            output: policy.output,
            forget,
        };
        let asker = ask::Asker::of(&context);
        let (call, task) = match shared
            .exec
            .start_early(&params.name, job, policy, asker, reply)
        {
            Some(started) => started,
            None => {
                params.arguments = Some(arguments);
                return None;
            }
        };
        // The task runs once this returns.
        let tool = params.name.to_string();
        lock(&shared.early).insert(key, EarlyEntry { number, tool, call });
        tracing::debug!(tool = %params.name, "call started by the thread that read it");
        Some(task)
    }

    /// The same server for another client: its own request ids and log
    /// level, the tools, limits and running calls shared (one per HTTP
    /// session).
    pub fn for_new_session(&self) -> Self {
        let id = self
            .shared
            .next_session
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self {
            shared: Arc::clone(&self.shared),
            session: Session {
                id,
                ..Session::default()
            },
        }
    }

    /// Waits up to `grace` for the running calls to end; then stops the
    /// rest (and says so) and returns `false`.
    pub(crate) async fn finish_calls(&self, grace: Duration) -> bool {
        let running = self.running();
        if tokio::time::timeout(grace, running.idle()).await.is_ok() {
            return true;
        }
        tracing::error!(
            calls = running.count(),
            ?grace,
            "calls still running after the grace period were cut off"
        );
        self.stop_calls().await;
        // A stopped async call ends at once; a synchronous one is not
        // waited for beyond a moment.
        let _ = tokio::time::timeout(Duration::from_millis(100), running.idle()).await;
        false
    }

    /// The calls still running.
    pub(crate) fn running(&self) -> Arc<Running> {
        Arc::clone(self.shared.exec.running())
    }

    /// Refuses new calls from now on (the server is shutting down), and
    /// stops the calls waiting for an answer, in rounds or in tasks (from
    /// now on, or once they ask): no answer comes in time.
    pub(crate) fn drain(&self) {
        self.shared.draining.cancel();
        // Their answers would be refused now.
        self.shared.stop_rounds();
    }

    /// Stops every call in flight (the shutdown grace period is over),
    /// tasks' calls too; each is answered as not finished.
    async fn stop_calls(&self) {
        self.shared.stopped.cancel();
        if let Ok(in_flight) = self.shared.in_flight.lock() {
            for token in in_flight.values() {
                token.cancel();
            }
        }
        // The calls their reading threads run, which rmcp never saw.
        let early: Vec<_> = lock(&self.shared.early).drain().map(|(_, e)| e).collect();
        for entry in early {
            entry.call.stop(unfinished(&entry.tool)).await;
        }
        self.shared.stop_rounds();
        self.shared.tasks.shutdown();
    }

    /// The tool definitions exactly as `tools/list` returns them (with
    /// the values fetched so far, `#[mcp(values = ...)]`).
    pub fn tools(&self) -> Vec<Tool> {
        read(&self.shared.listed).tools.clone()
    }

    /// Refuses a prompts method when the server declares no prompts (no
    /// tool has an example: `#[mcp(example)]` or a doc-comment command
    /// line), as it refuses any method it does not offer.
    fn offers_prompts(&self, method: &str) -> Result<(), ErrorData> {
        match self.shared.info.capabilities.prompts {
            Some(_) => Ok(()),
            None => Err(requests::undeclared_method(method, "prompts")),
        }
    }

    /// How many tools `tools/list` returns.
    pub(crate) fn tool_count(&self) -> usize {
        read(&self.shared.listed).tools.len()
    }

    /// Every tool of the table, in order.
    fn specs(&self) -> impl Iterator<Item = &ToolSpec> + '_ {
        let typed = &self.shared.typed;
        (0..).map_while(|index| typed.spec(index))
    }

    /// Logs what became of the doc-comment examples of the tools (once
    /// the log is set up).
    pub(crate) fn log_doc_examples(&self) {
        crate::registry::log_doc_examples(self.specs());
    }

    /// The warnings for the doc-comment examples that were skipped.
    pub(crate) fn doc_example_warnings(&self) -> Vec<String> {
        self.specs()
            .flat_map(|tool| {
                tool.doc_examples
                    .iter()
                    .filter_map(move |example| crate::registry::doc_example_warning(tool, example))
            })
            .collect()
    }

    /// Fetches the values of `#[mcp(values = ...)]` arguments that are
    /// due, on this thread, into the tools (for a listing without a
    /// server running, `mcp tools`).
    pub(crate) fn fetch_values_here(&self) {
        if let Some(values) = &self.shared.values {
            let changed = values.fetch_due_here(None);
            self.shared.put_values(values, &changed);
        }
    }

    /// Runs one tool call to completion, as `tools/call` would, without
    /// the limits of a served call (no timeout, no capture of the
    /// process's streams: a handler that prints with `println!` prints to
    /// this process's stdout, and the outcome has its exit code only).
    ///
    /// Errors only for an unknown tool; bad arguments become an outcome
    /// with exit code 2 and the message on stderr, as clap would report
    /// them (a value not among an argument's fetched values too: they
    /// are fetched here when due). An `async` handler runs on a runtime of its own, so this must
    /// not be called from within one.
    pub fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
    ) -> Result<CallOutcome, CallError> {
        let (index, job) = match self.shared.typed.prepare(tool, &arguments) {
            Ok(prepared) => prepared,
            Err(CallError::InvalidArguments(error)) => return Ok(invalid_arguments(&error)),
            Err(other) => return Err(other),
        };
        if let Some(values) = &self.shared.values {
            let changed = values.fetch_due_here(Some(index));
            if !changed.is_empty() {
                self.shared.put_values(values, &changed);
            }
            if let Some((_, refusal)) = values.refusal(index, tool, &arguments) {
                return Ok(invalid_arguments(&refusal));
            }
        }
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        // No client to ask: a question is refused (never put to a terminal).
        let ask = ask::refusing("no client can be asked for a direct call (`BridgeServer::call`)");
        let _ask = crate::io::asking_on_thread(Some(Arc::clone(&ask)), None);
        let Ended {
            code: exit_code,
            structured,
        } = match job {
            Job::Sync(SyncJob::WithIo(f)) => {
                let mut io = Io::new(&mut stdout, &mut stderr, true).asking(Some(ask));
                let code = f(&mut io);
                let structured = io.take_structured();
                Ended { code, structured }
            }
            Job::Sync(SyncJob::Plain(f)) => f(),
            Job::Async(call) => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|error| CallError::Failed(error.to_string()))?
                .block_on(crate::io::asking_in_task(Some(ask), None, call)),
            Job::Isolated { .. } => {
                return Err(CallError::Failed(
                    "isolated calls run only when served".into(),
                ))
            }
        };
        let outcome = CallOutcome::new(
            exit_code,
            String::from_utf8_lossy(&stdout).into_owned(),
            String::from_utf8_lossy(&stderr).into_owned(),
        );
        let returns = self.shared.policies[index].returns;
        // Unbounded, as the output of a direct call is.
        Ok(outcome.with_returned(structured, returns, tool, usize::MAX))
    }
}

// MCP logging is deprecated (SEP-2577) but still what clients of protocol
// versions up to 2025-11-25 use; see `logs.rs`.
#[allow(deprecated)]
fn server_info(root: &CommandSpec, tasks: bool, prompts: bool, changing: bool) -> ServerConfig {
    let version = root.version.clone().unwrap_or_else(|| "0.0.0".to_owned());
    let mut implementation = Implementation::new(root.name.clone(), version);
    if let Some(about) = &root.about {
        implementation = implementation.with_description(about.clone());
    }
    let mut capabilities = match tasks {
        true => ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_resources()
            .enable_tasks()
            .build(),
        false => ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_resources()
            .build(),
    };
    if prompts {
        capabilities.prompts = Some(rmcp::model::PromptsCapability::default());
    }
    if changing {
        // Fetched values change the tools: clients are told.
        if let Some(tools) = &mut capabilities.tools {
            tools.list_changed = Some(true);
        }
    }
    ServerConfig::new(capabilities).with_server_info(implementation)
}

/// The scheme of the resources: each tool's `--help` (`help://<tool>`).
const HELP_SCHEME: &str = "help://";

/// The message of a tool's prompt: what the tool does and its example
/// calls.
fn prompt_message(spec: &ToolSpec) -> rmcp::model::PromptMessage {
    let summary = spec.description.lines().next().unwrap_or_default();
    let mut text = format!("Use the tool `{}` ({summary}). Calls look like:", spec.name);
    for example in &spec.examples {
        text.push('\n');
        text.push_str(&Value::Object(example.clone()).to_string());
    }
    rmcp::model::PromptMessage::new_text(rmcp::model::Role::User, text)
}

/// The answer of a grouped or search call that runs no tool: a command's
/// definition, the tools a search found, or a refusal (`isError`, the
/// message alone: no command ran).
fn surface_answer(answered: Resolved<'_>, surface: &Surface, flat: &[Tool]) -> CallToolResult {
    let text = match answered {
        Resolved::Help { index, group } => {
            let tool = &flat[index];
            let mut text = format!(
                "{}\n\nCall `{group}` with this `command` and `arguments` that match its input \
                 schema: {}",
                tool.description.as_deref().unwrap_or_default(),
                Value::Object((*tool.input_schema).clone())
            );
            if let Some(schema) = &tool.output_schema {
                text.push_str("\n\nIts structured content matches this output schema: ");
                text.push_str(&Value::Object((**schema).clone()).to_string());
            }
            text
        }
        Resolved::Found { indices, query } if indices.is_empty() => format!(
            "No tool matches `{query}`. The commands are: {}. Search for one of them, or for \
             other words of what you want to do.",
            surface.commands().join(", ")
        ),
        Resolved::Found { indices, .. } => {
            let found: Vec<&Tool> = indices.iter().map(|&index| &flat[index]).collect();
            match serde_json::to_string(&found) {
                Ok(json) => json,
                Err(error) => error.to_string(),
            }
        }
        Resolved::Refused(message) => {
            return CallToolResult::error(vec![ContentBlock::text(message)]);
        }
        Resolved::Tool { .. } => unreachable!("a tool call is run, not answered"),
    };
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// A followed call as a task, from its start or from its handler's
/// `Io::start_task`: each question put in the task under a key of its own
/// (several may wait at once), `tasks/cancel` stopping the call (the task
/// then ends `cancelled`), a panic ending it `failed`: a command that
/// failed is a result (`completed`, `isError`), a handler that broke is
/// none. When the server shuts down (`draining`), a call waiting for an
/// answer stops and its task fails, as a call waiting in a round stops;
/// so does a call still running past the task's time to live (`ttl`):
/// rmcp would fail it only at the next request about tasks, and the call
/// would hold its slot until then.
async fn run_as_task(
    mut followed: Followed,
    task: TaskContext,
    draining: CancellationToken,
    ttl: Duration,
) -> Result<CallToolResult, TaskExit> {
    let expired = tokio::time::sleep(ttl);
    tokio::pin!(expired);
    // Dropped (the task outlived its TTL, the server stopped): the call
    // stops too.
    let _stop = followed.cancel.clone().drop_guard();
    let mut asked = 0u32;
    // The questions waiting in the task (dropped with it).
    let mut questions = tokio::task::JoinSet::new();
    let done = loop {
        tokio::select! {
            biased;
            done = &mut followed.call => break done,
            Some(from_call) = followed.asks.recv() => match from_call {
                ask::FromCall::Asked(question) => {
                    asked += 1;
                    let key = format!("{}-{asked}", ask::QUESTION_KEY);
                    questions.spawn(ask::ask_in_task(task.clone(), key, question));
                }
                // Already one.
                ask::FromCall::StartTask(started) => {
                    let _ = started.send(true);
                }
            },
            Some(_) = questions.join_next(), if !questions.is_empty() => {}
            () = task.cancelled() => {
                // Stopped as a cancelled call is, then settled.
                followed.cancel.cancel();
                let _ = (&mut followed.call).await;
                return Err(TaskExit::Cancelled);
            }
            () = &mut expired => {
                tracing::info!(
                    tool = followed.tool,
                    ?ttl,
                    "a task outlived its time to live: its call is stopped"
                );
                followed.cancel.cancel();
                let _ = (&mut followed.call).await;
                return Err(TaskExit::Error(ErrorData::internal_error(
                    format!(
                        "tool `{}`: task expired: its time to live ({}) elapsed before it \
                         completed (time waiting for answers included)",
                        followed.tool,
                        exec::describe(ttl)
                    ),
                    None,
                )));
            }
            () = draining.cancelled(), if !questions.is_empty() => {
                tracing::info!(
                    tool = followed.tool,
                    "shutting down: a task's question goes unanswered, its call is stopped"
                );
                followed.cancel.cancel();
                let _ = (&mut followed.call).await;
                return Err(TaskExit::Error(ErrorData::internal_error(
                    format!(
                        "tool `{}`: stopped, as the server shut down while the task waited for \
                         an answer",
                        followed.tool
                    ),
                    None,
                )));
            }
        }
    };
    match done {
        Ok(Some(Ran {
            panic: Some(message),
            ..
        })) => Err(TaskExit::Error(ErrorData::internal_error(
            format!("tool `{}`: the command panicked: {message}", followed.tool),
            None,
        ))),
        Ok(Some(ran)) => Ok(with_output(ran.outcome, followed.output, &followed.tool)),
        Ok(None) => Err(TaskExit::Cancelled),
        Err(_) => Err(TaskExit::Error(ErrorData::internal_error(
            format!("tool `{}`: {}", followed.tool, run::LOST),
            None,
        ))),
    }
}

/// How long a task may run by default: rmcp's default time to live.
pub(crate) const DEFAULT_TASK_TTL: Duration =
    Duration::from_millis(rmcp::task_manager::DEFAULT_TASK_TTL_MS);

/// How long the first `tools/list` waits for fetched values.
const FIRST_VALUES_WAIT: Duration = Duration::from_secs(3);

/// Fetches values when they are due, for as long as the server lives:
/// puts them in the tools and tells the clients when they change.
async fn fetch_values_while_served(shared: Weak<Shared>) {
    loop {
        let Some(server) = shared.upgrade() else {
            return;
        };
        let Some(values) = server.values.clone() else {
            return;
        };
        let mut changed = Vec::new();
        for at in values.due(std::time::Instant::now()) {
            if values.fetch(at).await {
                changed.push(at);
            }
        }
        // In the tools before the first list is answered (which waits for
        // them a while, so its client need not be told).
        server.put_values(&values, &changed);
        if values.set_ready(!changed.is_empty()) {
            server.notify_tools_changed().await;
        }
        let wait = values.until_due(std::time::Instant::now());
        drop(server);
        tokio::time::sleep(wait).await;
    }
}

impl Shared {
    /// Keeps a call waiting for an answer; the `requestState` that names
    /// it. A call still waiting after `ROUND_EXPIRY` is stopped.
    fn keep_round(self: &Arc<Self>, round: Round) -> String {
        use std::hash::{BuildHasher, Hasher};
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let count = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Hard to guess (two keyed hashes): another client cannot answer
        // the question by naming the call.
        let mut state = String::new();
        for part in 0..2u64 {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u64(count);
            hasher.write_u64(part);
            hasher.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |since| since.as_nanos()),
            );
            state.push_str(&format!("{:016x}", hasher.finish()));
        }
        lock(&self.rounds).insert(state.clone(), round);
        let shared = Arc::downgrade(self);
        let expiring = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(ask::ROUND_EXPIRY).await;
            let Some(shared) = shared.upgrade() else {
                return;
            };
            let gone = lock(&shared.rounds).remove(&expiring);
            if let Some(round) = gone {
                tracing::info!(
                    tool = round.followed.tool,
                    "a question went unanswered: the call is stopped"
                );
                round.followed.cancel.cancel();
            }
        });
        state
    }

    /// Stops the calls waiting for the answer to a question.
    fn stop_rounds(&self) {
        let rounds = std::mem::take(&mut *lock(&self.rounds));
        for round in rounds.into_values() {
            round.followed.cancel.cancel();
        }
    }

    /// Puts the values of the `changed` functions in the tools using them,
    /// and tells every client the tools changed.
    async fn values_changed(&self, values: &values::Values, changed: &[usize]) {
        self.put_values(values, changed);
        self.notify_tools_changed().await;
    }

    /// Tells every client the tools changed.
    async fn notify_tools_changed(&self) {
        let peers: Vec<rmcp::Peer<RoleServer>> = {
            let mut peers = lock(&self.peers);
            peers.retain(|peer| !peer.is_transport_closed());
            peers.clone()
        };
        tracing::info!(
            clients = peers.len(),
            "the tools changed: telling the clients"
        );
        for peer in peers {
            if let Err(error) = peer.notify_tool_list_changed().await {
                tracing::debug!(%error, "a client was not told the tools changed");
            }
        }
    }

    /// Puts the values of the `changed` functions in the tools using them.
    fn put_values(&self, values: &values::Values, changed: &[usize]) {
        let tools: Vec<(usize, Tool)> = values
            .tools_using(changed)
            .into_iter()
            .filter_map(|at| Some((at, rmcp_tool(&values.patched(at, self.typed.spec(at)?)))))
            .collect();
        match &self.surface {
            None => {
                let mut listed = write(&self.listed);
                for (at, tool) in tools {
                    listed.tools[at] = tool;
                }
            }
            Some((surface, flat)) => {
                let mut flat = write(flat);
                for (at, tool) in tools {
                    flat[at] = tool;
                }
                let mut listed = write(&self.listed);
                for (position, shown) in surface.shown.iter().enumerate() {
                    if let Shown::Tool(at) = shown {
                        listed.tools[position] = flat[*at].clone();
                    }
                }
            }
        }
    }
}

/// A tool the grouped or search mode makes. It has no `outputSchema`:
/// one such tool answers for commands of several shapes (and with a
/// command's definition, for `help`); a command's own is in its
/// definition.
fn made_tool(listed: &Listed) -> Tool {
    let tool = Tool::new(
        listed.name.clone(),
        listed.description.clone(),
        Arc::new(listed.schema.clone()),
    );
    described(
        tool,
        listed.title.as_ref(),
        listed.icon.as_ref(),
        listed.hints,
    )
}

fn rmcp_tool(spec: &ToolSpec) -> Tool {
    let mut tool = Tool::new(
        spec.name.clone(),
        spec.description.clone(),
        Arc::new(spec.input_schema()),
    );
    if let Some(schema) = spec.output_schema() {
        tool.output_schema = Some(Arc::new(schema));
    }
    described(tool, spec.title.as_ref(), spec.icon.as_ref(), spec.hints)
}

/// A tool's title, icon and annotations, where it has them.
fn described(
    mut tool: Tool,
    title: Option<&String>,
    icon: Option<&String>,
    hints: crate::spec::ToolHints,
) -> Tool {
    if let Some(title) = title {
        tool = tool.with_title(title.clone());
    }
    if let Some(src) = icon {
        let mut icon = rmcp::model::Icon::new(src.clone());
        if let Some(mime) = icon_mime_type(src) {
            icon = icon.with_mime_type(mime);
        }
        tool = tool.with_icons(vec![icon]);
    }
    if !hints.is_empty() {
        tool = tool.annotate(rmcp::model::ToolAnnotations::from_raw(
            None,
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
        ));
    }
    tool
}

/// The MIME type of an icon: a `data:` URI's own, or the one its URL's
/// extension names; `None` leaves it to the client.
fn icon_mime_type(src: &str) -> Option<&str> {
    if let Some(data) = src.strip_prefix("data:") {
        return data.split([';', ',']).next().filter(|m| !m.is_empty());
    }
    let path = src.split(['?', '#']).next().unwrap_or(src);
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "gif" => "image/gif",
        _ => return None,
    })
}

/// Where a call's notifications go: progress when its request carries a
/// progress token, `tracing` events when the request or its session asked
/// for logs; `None` (no queue at all) when neither.
/// Whether a call of a command with `policy` is a task from its start: a
/// `#[mcp(task)]` command's (not a deferred one's), for a client with the
/// Tasks extension, whatever its protocol.
fn task_from_start(policy: &CommandPolicy, context: &RequestContext<RoleServer>) -> bool {
    ask::supports_tasks(context)
        && matches!(
            policy.task,
            Some(TaskSupport::Optional | TaskSupport::Required)
        )
}

/// Whether a call has notifications to send: progress (its request
/// carries a progress token) or logs (its request or its session asked for
/// them).
fn notifies(session: &Session, context: &RequestContext<RoleServer>) -> bool {
    context.meta.get_progress_token().is_some()
        || context.meta.log_level().is_some()
        || session.log_level.lock().is_ok_and(|level| level.is_some())
}

fn call_notifications(
    session: &Session,
    tool: &str,
    context: &RequestContext<RoleServer>,
) -> (
    Option<Arc<Outbox>>,
    Option<ProgressFn>,
    Option<Arc<logs::CallLog>>,
) {
    if !notifies(session, context) {
        return (None, None, None);
    }
    let token = context.meta.get_progress_token();
    // A 2026-07-28 request names its own log level; an older client sets
    // one for its session.
    let level = match context.meta.log_level() {
        Some(level) => {
            logs::asked();
            Some(Arc::new(Mutex::new(Some(level))))
        }
        None => session
            .log_level
            .lock()
            .is_ok_and(|level| level.is_some())
            .then(|| Arc::clone(&session.log_level)),
    };
    let outbox = Outbox::new(context.peer.clone());
    let progress = token.map(|token| {
        let outbox = Arc::clone(&outbox);
        Arc::new(move |done, total, message| {
            let mut progress = ProgressNotificationParam::new(token.clone(), done);
            progress.total = total;
            progress.message = message;
            outbox.progress(progress);
        }) as ProgressFn
    });
    let log = level.map(|level| logs::CallLog::new(tool, level, Arc::clone(&outbox)));
    (Some(outbox), progress, log)
}

impl ServerHandler for BridgeServer {
    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        let _ = self.session.peer.set(context.peer.clone());
        if self.shared.values.is_some() {
            // Told when fetched values change the tools.
            let mut peers = lock(&self.shared.peers);
            peers.retain(|peer| !peer.is_transport_closed());
            peers.push(context.peer);
            drop(peers);
            self.fetch_values();
        }
    }

    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    // Prompts: the tools with examples (`#[mcp(example = "...")]`, or
    // command lines of their doc comments).
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, ErrorData> {
        self.offers_prompts("prompts/list")?;
        let typed = &self.shared.typed;
        let prompts = (0..)
            .map_while(|index| typed.spec(index))
            .filter(|spec| !spec.examples.is_empty())
            .map(|spec| {
                rmcp::model::Prompt::new(
                    spec.name.clone(),
                    Some(format!(
                        "Use the tool `{}`, as its examples show",
                        spec.name
                    )),
                    None,
                )
            })
            .collect();
        Ok(rmcp::model::ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, ErrorData> {
        self.offers_prompts("prompts/get")?;
        let typed = &self.shared.typed;
        let spec = typed
            .position(&request.name)
            .and_then(|index| typed.spec(index))
            .filter(|spec| !spec.examples.is_empty())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "no prompt named `{}`: prompts/list names the tools with examples",
                        request.name
                    ),
                    None,
                )
            })?;
        Ok(
            rmcp::model::GetPromptResult::new(vec![prompt_message(spec)])
                .with_description(format!("Use the tool `{}`", spec.name))
                .into(),
        )
    }

    // Resources: each tool's `--help`, as `help://<tool>`.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        let typed = &self.shared.typed;
        let resources = (0..)
            .map_while(|index| typed.spec(index))
            .map(|spec| {
                rmcp::model::Resource::new(format!("{HELP_SCHEME}{}", spec.name), spec.name.clone())
                    .with_description(format!("`{} --help`", spec.path.join(" ")))
                    .with_mime_type("text/plain")
            })
            .collect();
        Ok(rmcp::model::ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        let template = rmcp::model::ResourceTemplate::new(format!("{HELP_SCHEME}{{tool}}"), "help")
            .with_description("The `--help` text of a tool's command")
            .with_mime_type("text/plain");
        Ok(rmcp::model::ListResourceTemplatesResult::with_all_items(
            vec![template],
        ))
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        let typed = &self.shared.typed;
        let text = request
            .uri
            .strip_prefix(HELP_SCHEME)
            .and_then(|name| typed.position(name))
            .and_then(|index| typed.help(index))
            .ok_or_else(|| {
                ErrorData::resource_not_found(
                    format!(
                        "no resource `{}`: the resources are `{HELP_SCHEME}<tool>`, one per tool",
                        request.uri
                    ),
                    None,
                )
            })?;
        Ok(
            rmcp::model::ReadResourceResult::new(vec![rmcp::model::ResourceContents::text(
                text,
                request.uri.clone(),
            )])
            .into(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The first list has the values, unless they take too long.
        self.first_values().await;
        Ok(read(&self.shared.listed).clone())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let listed = read(&self.shared.listed);
        if let Some((surface, flat)) = &self.shared.surface {
            let shown = surface.position(name).and_then(|at| listed.tools.get(at));
            return shown
                .cloned()
                .or_else(|| read(flat).get(self.shared.typed.position(name)?).cloned());
        }
        // The cached list is in registry order.
        let index = self.shared.typed.position(name)?;
        listed.tools.get(index).cloned()
    }

    /// rmcp hands over a standard request whose params do not fit its
    /// type as a "custom" request; answer it as invalid params, not as an
    /// unknown method.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(malformed_request_error(
            &request.method,
            request.params.as_ref(),
            requests::per_request(&context),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        if shared.draining.is_cancelled() {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "tool `{}` not run: the server is shutting down",
                request.name
            ))])
            .into());
        }
        if let Some(state) = &request.request_state {
            // The answer to a question of a call that is waiting for it.
            let responses = request.input_responses.as_ref();
            return self.resume(state, &request.name, responses, &context).await;
        }
        // What calls are checked against (and `help` shows) waits for the
        // first values, as the first list does.
        self.first_values().await;
        let arguments = request.arguments.unwrap_or_default();
        let prepared = match &shared.surface {
            None => {
                if let Some(index) = shared.typed.position(&request.name) {
                    self.refuse_task_required(index, &request.name, &context)?;
                }
                shared.typed.prepare(&request.name, &arguments)
            }
            Some((surface, flat)) => {
                let lookup = |name: &str| shared.typed.position(name);
                match surface.resolve(&request.name, &arguments, lookup) {
                    None => Err(CallError::UnknownTool {
                        name: request.name.to_string(),
                    }),
                    Some(Resolved::Tool { index, arguments }) => {
                        let name = read(flat)[index].name.to_string();
                        self.refuse_task_required(index, &name, &context)?;
                        let job = shared.typed.prepare_at(index, &arguments);
                        return self
                            .run_prepared(
                                &request.name,
                                name,
                                job.map(|job| (index, job)),
                                arguments.into_owned(),
                                context,
                            )
                            .await;
                    }
                    Some(answered) => {
                        return Ok(surface_answer(answered, surface, &read(flat)).into());
                    }
                }
            }
        };
        self.run_prepared(
            &request.name,
            request.name.to_string(),
            prepared,
            arguments,
            context,
        )
        .await
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if requests::per_request(&context) {
            // A 2026-07-28 request names its level in its own `_meta`.
            return Err(requests::removed_method("logging/setLevel"));
        }
        if let Ok(mut level) = self.session.log_level.lock() {
            *level = Some(request.level);
        }
        logs::asked();
        Ok(())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.shared
            .tasks
            .get_task(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.shared
            .tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.shared.tasks.cancel_task(&request.task_id)
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        let Some(id) = notification.request_id else {
            return;
        };
        let token = match self.shared.in_flight.lock() {
            Ok(mut in_flight) => in_flight.remove(&(self.session.id, id.clone())),
            Err(_) => None,
        };
        if let Some(token) = token {
            tracing::info!(%id, reason = ?notification.reason, "call cancelled by the client");
            token.cancel();
        }
    }
}
