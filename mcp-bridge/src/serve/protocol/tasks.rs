//! Tasks (the MCP Tasks extension, `#[mcp(task)]`, rmcp's
//! `TaskManager`): a followed call made a task at its start or by its
//! handler's `Io::start_task`, its questions put in the task, stopped by
//! `tasks/cancel`, by its time to live or by the shutdown; a
//! `task = "required"` call from a client without the extension refused.

use std::time::Duration;

use rmcp::model::{CallToolResponse, CallToolResult, ClientCapabilities, CreateTaskResult};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskOptions};
use rmcp::{ErrorData, RoleServer};
use tokio_util::sync::CancellationToken;

use super::followed::Followed;
use super::server::BridgeServer;
use crate::serve::running::exec::{self, CommandPolicy, Ran};
use crate::serve::running::results::with_output;
use crate::serve::running::{ask, run};
use crate::spec::TaskSupport;

impl BridgeServer {
    /// Refuses a call of a `task = "required"` tool from a client without
    /// the Tasks extension (`-32021`, naming it): before its arguments are
    /// read, as whatever they are the call cannot run.
    pub(super) fn refuse_task_required(
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

    /// The task `id` as the request's holder may see it: an unknown id
    /// and another holder's get the same answer.
    pub(super) fn reachable_task(
        &self,
        id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<rmcp::model::DetailedTask, ErrorData> {
        let caller = super::owners::holder_of(context);
        if !self.shared.task_owners.may_reach(id, caller.as_deref()) {
            return Err(super::owners::no_such_task(id));
        }
        self.shared
            .tasks
            .get_task(id)
            .map_err(|_| super::owners::no_such_task(id))
    }

    /// Makes the rest of a followed call a task of the MCP Tasks
    /// extension: the answer to the request at hand, which the client
    /// polls with `tasks/get` (its questions in it, answered with
    /// `tasks/update`) and may stop with `tasks/cancel`.
    pub(super) fn make_task(&self, followed: Followed) -> CallToolResponse {
        followed
            .live
            .store(false, std::sync::atomic::Ordering::SeqCst);
        let draining = self.shared.draining.clone();
        let ttl = self.shared.task_ttl;
        let options =
            TaskOptions::default().with_ttl_ms(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        let holder = followed.holder.clone();
        let task = self.shared.tasks.spawn(options, |task| {
            Box::pin(run_as_task(followed, task, draining, ttl))
        });
        if let Some(holder) = holder {
            self.shared.task_owners.made(&task.task_id, holder, ttl);
        }
        CallToolResponse::Task(CreateTaskResult::new(task))
    }
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
                    questions.spawn(crate::spawn::boxed(ask::ask_in_task(task.clone(), key, question)));
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

/// Whether a call of a command with `policy` is a task from its start: a
/// `#[mcp(task)]` command's (not a deferred one's), for a client with the
/// Tasks extension, whatever its protocol.
pub(super) fn task_from_start(
    policy: &CommandPolicy,
    context: &RequestContext<RoleServer>,
) -> bool {
    ask::supports_tasks(context)
        && matches!(
            policy.task,
            Some(TaskSupport::Optional | TaskSupport::Required)
        )
}

/// How long a task may run by default: rmcp's default time to live.
pub(crate) const DEFAULT_TASK_TTL: Duration =
    Duration::from_millis(rmcp::task_manager::DEFAULT_TASK_TTL_MS);
