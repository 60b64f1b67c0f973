//! Calls that run past their request: a followed call's next step — its
//! result, its question as an `input_required` result kept under a
//! `requestState` until the client calls again with the answer
//! (protocol 2026-07-28), or the task its handler made of it.

use std::sync::Arc;

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tokio_util::sync::CancellationToken;

use super::followed::{Followed, Round};
use super::locks::lock;
use super::notifications::call_notifications;
use super::server::BridgeServer;
use super::shared::Shared;
use crate::io::ProgressFn;
use crate::serve::running::ask;
use crate::serve::running::exec::{self, CommandPolicy, Watch};
use crate::serve::running::results::with_output;
use crate::serve::running::run::CallOutcome;
use crate::spec::TaskSupport;

/// What a followed call did next.
enum Next {
    Done(Option<CallOutcome>),
    Asked(ask::Asked),
    /// Its handler made the rest of it a task (`Io::start_task`).
    Task(tokio::sync::oneshot::Sender<bool>),
}

impl BridgeServer {
    /// Starts a call that runs past its request: its questions go to
    /// whoever follows it ([`follow`](Self::follow), or its task), and so
    /// does its handler's `Io::start_task`. With `notify`, progress and
    /// logs go to the request until it is answered.
    pub(super) fn spawn_followed(
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
        let call =
            crate::spawn::spawn(async move { server.exec.run(&name, job, policy, watch).await });
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
            holder: super::owners::holder_of(context),
        }
    }

    /// Waits for a followed call's next step: its result, its next
    /// question as an `input_required` result (the call waits for the
    /// request that answers it), or the task its handler made of it.
    /// Cancelling this request stops the call.
    pub(super) async fn follow(
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
    pub(super) async fn resume(
        &self,
        state: &str,
        tool: &str,
        responses: Option<&rmcp::model::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = super::owners::holder_of(context);
        let round = {
            let mut rounds = lock(&self.shared.rounds);
            match rounds.get(state) {
                // Another holder's: as if there were none.
                Some(waiting)
                    if !super::owners::may_reach(
                        waiting.followed.holder.as_deref(),
                        caller.as_deref(),
                    ) =>
                {
                    None
                }
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
        crate::spawn::spawn(async move {
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
    pub(super) fn stop_rounds(&self) {
        let rounds = std::mem::take(&mut *lock(&self.rounds));
        for round in rounds.into_values() {
            round.followed.cancel.cancel();
        }
    }
}
