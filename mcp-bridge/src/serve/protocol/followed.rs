//! A call that runs past the request that started it ([`Followed`]),
//! and one waiting in a round for the answer to its question
//! ([`Round`]): what the rounds (`rounds.rs`) and the tasks (`tasks.rs`)
//! both hold.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::serve::running::ask;
use crate::serve::running::exec::Ran;
use crate::serve::running::outbox::Outbox;
use crate::spec::{OutputFormat, TaskSupport};

/// A call running past the request that started it: a 2026-07-28
/// client's call whose handler asks questions, answered in later calls,
/// or a task's.
pub(super) struct Followed {
    /// The tool the client called (a group's, in the grouped mode).
    pub(super) called: String,
    pub(super) tool: String,
    pub(super) output: Option<OutputFormat>,
    pub(super) task: Option<TaskSupport>,
    pub(super) call: tokio::task::JoinHandle<Option<Ran>>,
    pub(super) asks: tokio::sync::mpsc::UnboundedReceiver<ask::FromCall>,
    pub(super) cancel: CancellationToken,
    /// The first request's notifications (progress, logs), sent before
    /// its answer.
    pub(super) outbox: Option<Arc<Outbox>>,
    /// Whether progress still has a request to go to.
    pub(super) live: Arc<std::sync::atomic::AtomicBool>,
    /// The token holder whose request started it (with OAuth): only the
    /// same holder reaches its round or its task.
    pub(super) holder: Option<String>,
}

/// A followed call waiting for the answer to its question.
pub(super) struct Round {
    pub(super) followed: Followed,
    pub(super) waiting: ask::Asked,
}
