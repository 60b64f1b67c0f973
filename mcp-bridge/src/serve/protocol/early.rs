//! The early start (over stdio on Unix): a call started by the thread
//! that read its request, never seen by rmcp, its answer written by its
//! thread, stopped by its client's cancellation or by the shutdown.

use std::sync::Arc;

use rmcp::model::RequestId;
use rmcp::service::RequestContext;
use rmcp::RoleServer;

use super::locks::lock;
use super::notifications::notifies;
use super::requests;
use super::server::BridgeServer;
use super::shared::EarlyEntry;
use super::tasks::task_from_start;
use crate::serve::running::{ask, exec};
use crate::serve::transport::{self, pool};
use crate::spec::TaskSupport;

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

impl BridgeServer {
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
    /// ([`EarlyCalls::cancel`](transport::EarlyCalls::cancel)), and so
    /// does the shutdown ([`stop_calls`](Self::stop_calls)). The call's one wake-up is this
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
            (None, Ok(job)) => job.traced(&params.name, requests::trace_of(&context)),
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
}
