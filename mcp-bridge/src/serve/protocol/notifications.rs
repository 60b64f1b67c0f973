//! A call's notifications: progress to its request, logs at the level
//! its request or its session asked for (`logging/setLevel`).

use std::sync::{Arc, Mutex};

use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::requests;
use super::server::BridgeServer;
use super::shared::Session;
use crate::io::ProgressFn;
use crate::serve::running::logs;
use crate::serve::running::outbox::Outbox;

impl BridgeServer {
    /// `logging/setLevel`: the level of the logs this session's calls send
    /// (refused under 2026-07-28, whose requests name their own).
    #[allow(deprecated)]
    pub(super) fn set_log_level(
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
}

/// Whether a call has notifications to send: progress (its request
/// carries a progress token) or logs (its request or its session asked for
/// them).
pub(super) fn notifies(session: &Session, context: &RequestContext<RoleServer>) -> bool {
    context.meta.get_progress_token().is_some()
        || context.meta.log_level().is_some()
        || session.log_level.lock().is_ok_and(|level| level.is_some())
}

/// Where a call's notifications go: progress when its request carries a
/// progress token, `tracing` events when the request or its session asked
/// for logs; `None` (no queue at all) when neither.
pub(super) fn call_notifications(
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
