//! One call's notifications (progress, logs), queued from any thread —
//! a call thread, an async handler, a `tracing` layer — and sent to the
//! client in order, all of them before the call's answer.
#![allow(deprecated)]

use std::sync::Arc;

use rmcp::model::{LoggingMessageNotificationParam, ProgressNotificationParam};
use rmcp::service::Peer;
use rmcp::RoleServer;
use tokio::sync::{mpsc, oneshot};

enum Outgoing {
    Progress(ProgressNotificationParam),
    Log(LoggingMessageNotificationParam),
    /// Answered once everything queued before it was handed to the
    /// transport.
    Flush(oneshot::Sender<()>),
}

/// The queue of one call's notifications.
pub(crate) struct Outbox {
    sender: mpsc::UnboundedSender<Outgoing>,
}

impl Outbox {
    /// A queue sending to `peer`, served by a task of the current runtime.
    pub(crate) fn new(peer: Peer<RoleServer>) -> Arc<Self> {
        let (sender, mut receiver) = mpsc::unbounded_channel();
        crate::spawn::spawn(async move {
            // After a failed send the client is gone: what follows is
            // dropped, but flushes are still answered.
            let mut open = true;
            while let Some(outgoing) = receiver.recv().await {
                let sent = match outgoing {
                    Outgoing::Flush(done) => {
                        let _ = done.send(());
                        continue;
                    }
                    _ if !open => continue,
                    Outgoing::Progress(progress) => peer.notify_progress(progress).await,
                    Outgoing::Log(message) => peer.notify_logging_message(message).await,
                };
                if let Err(error) = sent {
                    tracing::debug!(%error, "a call's notification was not sent");
                    open = false;
                }
            }
        });
        Arc::new(Self { sender })
    }

    pub(crate) fn progress(&self, progress: ProgressNotificationParam) {
        let _ = self.sender.send(Outgoing::Progress(progress));
    }

    pub(crate) fn log(&self, message: LoggingMessageNotificationParam) {
        let _ = self.sender.send(Outgoing::Log(message));
    }

    /// Waits until every notification queued so far was handed to the
    /// transport, so that none arrives after the call's answer.
    pub(crate) async fn flush(&self) {
        let (done, flushed) = oneshot::channel();
        if self.sender.send(Outgoing::Flush(done)).is_ok() {
            let _ = flushed.await;
        }
    }
}
