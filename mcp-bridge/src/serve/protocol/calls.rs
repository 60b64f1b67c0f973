//! `tools/call`: a call routed by exact name to its tool (or answered by
//! the grouped or search mode), its value built and checked, and run
//! within the server's limits — an ordinary call, or one followed in
//! rounds or as a task; the calls in flight and their cancellation; a
//! direct call ([`BridgeServer::call`]).

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    ContentBlock, RequestId,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::catalogue::surface_answer;
use super::locks::{lock, read};
use super::notifications::call_notifications;
use super::requests;
use super::server::BridgeServer;
use super::shared::Shared;
use super::tasks::task_from_start;
use crate::error::CallError;
use crate::handler::{Ended, Job, SyncJob};
use crate::io::Io;
use crate::registry::Resolved;
use crate::serve::running::ask;
use crate::serve::running::exec::{self, Watch};
use crate::serve::running::results::{invalid_arguments, unfinished};
use crate::serve::running::run::CallOutcome;
use crate::spec::TaskSupport;

/// Removes a call from the calls in flight when it ends.
pub(super) struct InFlight<'a> {
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

impl BridgeServer {
    /// `tools/call`: refused while the server shuts down, an answer for a
    /// call waiting in a round, or a call routed to its tool.
    pub(super) async fn tool_call(
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
        // An OAuth token's scopes, checked again here for what its HTTP
        // `403` did not stop.
        #[cfg(feature = "oauth")]
        if let Some(scope) = super::access::Access::of(&context)
            .and_then(|access| access.missing_scope(&request.name))
        {
            return Err(ErrorData::invalid_request(
                format!("the tool `{}` needs the scope {scope}", request.name),
                None,
            ));
        }
        // What calls are checked against (and `help` shows) waits for the
        // first values, as the first list does.
        self.first_values().await;
        let arguments = request.arguments.unwrap_or_default();
        // The tool, its value built (or refused), and the arguments of a
        // grouped tool's command (`None`: the call's own). One `.await`
        // of `run_prepared` below: each await point is code of its own
        // (polling and dropping the future it holds).
        let (tool, prepared, own) = match &shared.surface {
            None => {
                if let Some(index) = shared.typed.position(&request.name) {
                    self.refuse_task_required(index, &request.name, &context)?;
                }
                let prepared = shared.typed.prepare(&request.name, &arguments);
                (request.name.to_string(), prepared, None)
            }
            Some((surface, flat)) => {
                let lookup = |name: &str| shared.typed.position(name);
                match surface.resolve(&request.name, &arguments, lookup) {
                    None => {
                        let name = request.name.to_string();
                        let unknown = CallError::UnknownTool { name: name.clone() };
                        (name, Err(unknown), None)
                    }
                    Some(Resolved::Tool { index, arguments }) => {
                        let name = read(flat)[index].name.to_string();
                        self.refuse_task_required(index, &name, &context)?;
                        let job = shared.typed.prepare_at(index, &arguments);
                        (
                            name,
                            job.map(|job| (index, job)),
                            Some(arguments.into_owned()),
                        )
                    }
                    Some(answered) => {
                        return Ok(surface_answer(answered, surface, &read(flat)).into());
                    }
                }
            }
        };
        let arguments = own.unwrap_or(arguments);
        self.run_prepared(&request.name, tool, prepared, arguments, context)
            .await
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
        // Checked here, built again by the child from the same arguments
        // (the operator's pinned values joined to them: the child's own
        // table has none); a call that prints, too, while a stopped one
        // holds the print turn.
        let mut arguments = arguments;
        let pinned = shared
            .typed
            .spec(index)
            .map_or(&[][..], |spec| &spec.pinned);
        for pinned in pinned.iter().filter(|p| !p.by_cli) {
            arguments.insert(pinned.name.clone(), pinned.value.clone());
        }
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
        let job = exec::Work {
            job,
            elsewhere,
            trace: requests::trace_of(&context),
        };
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
    pub(super) fn in_flight<'a>(
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

    /// A client's `notifications/cancelled`: the call it names, in flight,
    /// is cancelled.
    pub(super) fn cancelled(&self, notification: CancelledNotificationParam) {
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
