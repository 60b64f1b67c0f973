//! The state a server's sessions share ([`Shared`]: the tools, the
//! limits, the calls running, waiting in rounds or started early, the
//! tasks), and what belongs to one client's [`Session`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rmcp::model::{ListToolsResult, RequestId, ServerConfig, Tool};
use rmcp::task_manager::TaskManager;
use rmcp::RoleServer;
use tokio_util::sync::CancellationToken;

use super::dispatch::Dispatch;
use super::followed::Round;
use super::values;
use crate::registry::Surface;
use crate::serve::running::exec::{self, CommandPolicy, Executor};
use crate::serve::running::logs;
use crate::serve::transport;

pub(super) struct Shared {
    pub(super) typed: Box<dyn Dispatch>,
    /// What `tools/list` answers: every tool (flat), or the surface's.
    pub(super) listed: RwLock<ListToolsResult>,
    /// In the grouped and search modes: how the listed tools route calls,
    /// and every tool as it is (for `help` and searches).
    pub(super) surface: Option<(Surface, RwLock<Vec<Tool>>)>,
    /// `#[mcp(values = ...)]`: the values fetched at run time, and the
    /// clients told when they change.
    pub(super) values: Option<Arc<values::Values>>,
    /// The clients of the sessions started, told when the tools change.
    pub(super) peers: Mutex<Vec<rmcp::Peer<RoleServer>>>,
    /// Set once the task fetching values runs.
    pub(super) fetching: std::sync::atomic::AtomicBool,
    /// Calls of 2026-07-28 clients waiting for the answer to a question,
    /// by the `requestState` their `input_required` result gave.
    pub(super) rounds: Mutex<HashMap<String, Round>>,
    /// How each tool runs, in table order.
    pub(super) policies: Vec<CommandPolicy>,
    pub(super) info: ServerConfig,
    /// The skills offered (none unless the CLI gives some).
    pub(super) skills: super::skills::Skills,
    pub(super) exec: Executor,
    /// Cancelled when the server is shutting down: new calls are refused,
    /// and calls waiting for an answer stop.
    pub(super) draining: CancellationToken,
    /// Every call runs in a child process (`Bridge::isolate_calls`).
    pub(super) isolate_all: bool,
    /// Calls of `#[mcp(task)]` commands made tasks (MCP Tasks extension):
    /// their state, answers to `tasks/get`, `tasks/update` and
    /// `tasks/cancel`.
    pub(super) tasks: TaskManager,
    /// How long a task may run, from the moment it is one.
    pub(super) task_ttl: Duration,
    /// Who made each task, with OAuth.
    pub(super) task_owners: super::owners::TaskOwners,
    /// The calls in flight, by session and request id, with what stops
    /// them: only a client's `notifications/cancelled` or the end of the
    /// shutdown grace period (not rmcp's own end of session, after which
    /// calls still finish their work).
    pub(super) in_flight: std::sync::Mutex<HashMap<(u64, RequestId), CancellationToken>>,
    /// The calls started by the thread that read their request, which
    /// rmcp never sees
    /// ([`BridgeServer::start_early`](super::server::BridgeServer::start_early)),
    /// until they end.
    pub(super) early: std::sync::Mutex<HashMap<(u64, RequestId), EarlyEntry>>,
    /// The number of the next call started early.
    pub(super) next_early: std::sync::atomic::AtomicU64,
    /// Cancelled when the shutdown stops the calls still running (its
    /// grace period is over): they are answered as not finished.
    pub(super) stopped: CancellationToken,
    /// The number of the next session (HTTP serves many).
    pub(super) next_session: std::sync::atomic::AtomicU64,
}

/// A call started by the thread that read its request (rmcp never sees
/// it), while it runs.
pub(super) struct EarlyEntry {
    /// Told apart from a later call reusing its request id.
    pub(super) number: u64,
    pub(super) tool: String,
    pub(super) call: exec::Early,
}

/// What belongs to one client's session: request ids are the client's
/// own, and so is the level of logs it asked for.
#[derive(Clone, Default)]
pub(super) struct Session {
    pub(super) id: u64,
    /// The level of the logs the client asked for (`logging/setLevel`).
    pub(super) log_level: logs::ClientLevel,
    /// Where a call thread writes its call's answer itself (stdio).
    pub(super) replier: Option<Arc<transport::Replier>>,
    /// The client, once its session is initialized (a call is started
    /// early only then).
    pub(super) peer: Arc<std::sync::OnceLock<rmcp::Peer<RoleServer>>>,
}
