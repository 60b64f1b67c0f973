//! Making a server and setting it up: [`BridgeServer::new`], the limits
//! on calls, isolation, the tasks' time to live, the same server for
//! another session, and what `initialize` answers (`server_info`).

use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use rmcp::model::{Implementation, ListToolsResult, ServerCapabilities, ServerConfig};
use rmcp::task_manager::TaskManager;
use tokio_util::sync::CancellationToken;

#[cfg(unix)]
use super::catalogue::rmcp_tool;
use super::dispatch::{Checked, Dispatch, Typed};
use super::server::BridgeServer;
use super::shared::{Session, Shared};
use super::skills::{About, Skill, Skills};
use super::tasks::DEFAULT_TASK_TTL;
use super::values;
use crate::error::RegistryError;
use crate::handler::{Handler, IntoHandler};
use crate::registry::Registry;
use crate::serve::running::capture::StdCapture;
use crate::serve::running::exec::{CommandPolicy, Executor, Limits};
use crate::serve::running::run;
use crate::spec::CommandSpec;
use crate::traits::McpCommand;
use serde_json::Value;

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
        Self::from_dispatch(Box::new(Typed { registry, handler }))
    }

    /// A server that runs every call in a process of its own (the
    /// drop-in `mcp_bridge::parse`): it checks a call's arguments by
    /// building the CLI's value, which never leaves the thread it is built
    /// on, so the CLI's type need not be `Send`.
    pub(crate) fn isolating<C: McpCommand + 'static>(registry: Registry<C>) -> Self {
        Self::from_dispatch(Box::new(Checked { registry })).isolate_calls(true)
    }

    /// [`from_registry`](Self::from_registry) with the CLI's type erased:
    /// compiled once, here.
    fn from_dispatch(typed: Box<dyn Dispatch>) -> Self {
        let registry = typed.table();
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
                typed,
                listed: RwLock::new(ListToolsResult::with_all_items(tools)),
                surface: None,
                values,
                peers: Mutex::default(),
                fetching: std::sync::atomic::AtomicBool::new(false),
                rounds: Mutex::default(),
                policies,
                info,
                skills: super::skills::Skills::default(),
                exec: Executor::new(),
                draining: CancellationToken::new(),
                isolate_all: false,
                tasks: TaskManager::new(),
                task_owners: Default::default(),
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

    /// Offers `skills` (SEP-2640): the Skills extension is declared, and
    /// their files served as `skill://` resources. Refused, saying why,
    /// when a skill cannot be served as it is.
    pub fn skills(self, skills: &[Skill]) -> Result<Self, RegistryError> {
        if skills.is_empty() {
            return Ok(self);
        }
        let shared = &self.shared;
        let read = {
            let root = shared.typed.root();
            let about = || About {
                name: &root.name,
                about: root.about.as_deref(),
                long_about: root.long_about.as_deref(),
                tools: (0..)
                    .map_while(|index| shared.typed.spec(index))
                    .map(|spec| {
                        let examples = spec
                            .examples
                            .iter()
                            .map(|example| Value::Object(example.clone()).to_string())
                            .collect();
                        (spec.name.as_ref(), spec.description.as_ref(), examples)
                    })
                    .collect(),
            };
            Skills::read(skills, &about)?
        };
        let folders = read.has_folders();
        Ok(self.configure(|shared| {
            let declared = match folders {
                true => ServerCapabilities::builder().enable_skills_with_directory_read(),
                false => ServerCapabilities::builder().enable_skills(),
            };
            if let Some(extensions) = declared.build().extensions {
                shared
                    .info
                    .capabilities
                    .extensions
                    .get_or_insert_with(Default::default)
                    .extend(extensions);
            }
            shared.skills = read;
        }))
    }

    /// Captures fd 1 and fd 2 around calls of handlers that print.
    #[cfg(unix)]
    pub(crate) fn capture_with(self, capture: Arc<StdCapture>) -> Self {
        self.configure(|shared| shared.exec.capture_with(capture))
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
}

// MCP logging is deprecated (SEP-2577) but still what clients of protocol
// versions up to 2025-11-25 use; see `running/logs.rs`.
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
