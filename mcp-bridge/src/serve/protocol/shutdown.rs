//! The end of serving: new calls refused, calls waiting for an answer
//! stopped, the running ones given a grace period, then stopped and
//! answered as not finished.

use std::sync::Arc;
use std::time::Duration;

use super::locks::lock;
use super::server::BridgeServer;
use crate::serve::running::exec::Running;
use crate::serve::running::results::unfinished;

impl BridgeServer {
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
}
