//! The values of `#[mcp(values = fn)]` arguments while served: fetched
//! when due by a task that lives as long as the server, put in the listed
//! tools, the clients of the sessions started told when they change; a
//! call's value checked against them (`values.rs` fetches and keeps them).

use std::sync::{Arc, Weak};
use std::time::Duration;

use rmcp::model::Tool;
use rmcp::RoleServer;
use serde_json::{Map, Value};

use super::catalogue::rmcp_tool;
use super::locks::{lock, write};
use super::server::BridgeServer;
use super::shared::Shared;
use super::values;
use crate::error::ArgError;
use crate::registry::Shown;

impl BridgeServer {
    /// A client whose session is initialized: told when fetched values
    /// change the tools, and the values fetched (once).
    pub(super) fn initialized(&self, client: rmcp::Peer<RoleServer>) {
        if self.shared.values.is_some() {
            // Told when fetched values change the tools.
            let mut peers = lock(&self.shared.peers);
            peers.retain(|peer| !peer.is_transport_closed());
            peers.push(client);
            drop(peers);
            self.fetch_values();
        }
    }

    /// Starts fetching the values of `#[mcp(values = ...)]` arguments, once
    /// (on the runtime serving this server).
    fn fetch_values(&self) {
        if self.shared.values.is_none()
            || self
                .shared
                .fetching
                .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        crate::spawn::spawn(fetch_values_while_served(Arc::downgrade(&self.shared)));
    }

    /// Starts fetching values (once), and waits at most
    /// `FIRST_VALUES_WAIT` for the first round of them.
    pub(super) async fn first_values(&self) {
        if let Some(values) = &self.shared.values {
            self.fetch_values();
            values.first_round(FIRST_VALUES_WAIT).await;
        }
    }

    /// A value of `arguments` that is not among its property's fetched
    /// values (fetched again first, unless they are fresh), refused.
    pub(super) async fn refused_value(
        &self,
        index: usize,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Option<ArgError> {
        let values = self.shared.values.as_ref()?;
        let (function, refusal) = values.refusal(index, tool, arguments)?;
        if !values.may_refetch(function) {
            return Some(refusal);
        }
        if values.fetch(function).await {
            self.shared.values_changed(values, &[function]).await;
        }
        values
            .refusal(index, tool, arguments)
            .map(|(_, refusal)| refusal)
    }

    /// Fetches the values of `#[mcp(values = ...)]` arguments that are
    /// due, on this thread, into the tools (for a listing without a
    /// server running, `mcp tools`).
    pub(crate) fn fetch_values_here(&self) {
        if let Some(values) = &self.shared.values {
            let changed = values.fetch_due_here(None);
            self.shared.put_values(values, &changed);
        }
    }
}

/// How long the first `tools/list` waits for fetched values.
const FIRST_VALUES_WAIT: Duration = Duration::from_secs(3);

/// Fetches values when they are due, for as long as the server lives:
/// puts them in the tools and tells the clients when they change.
async fn fetch_values_while_served(shared: Weak<Shared>) {
    loop {
        let Some(server) = shared.upgrade() else {
            return;
        };
        let Some(values) = server.values.clone() else {
            return;
        };
        let mut changed = Vec::new();
        for at in values.due(std::time::Instant::now()) {
            if values.fetch(at).await {
                changed.push(at);
            }
        }
        // In the tools before the first list is answered (which waits for
        // them a while, so its client need not be told).
        server.put_values(&values, &changed);
        if values.set_ready(!changed.is_empty()) {
            server.notify_tools_changed().await;
        }
        let wait = values.until_due(std::time::Instant::now());
        drop(server);
        tokio::time::sleep(wait).await;
    }
}

impl Shared {
    /// Puts the values of the `changed` functions in the tools using them,
    /// and tells every client the tools changed.
    async fn values_changed(&self, values: &values::Values, changed: &[usize]) {
        self.put_values(values, changed);
        self.notify_tools_changed().await;
    }

    /// Tells every client the tools changed.
    async fn notify_tools_changed(&self) {
        let peers: Vec<rmcp::Peer<RoleServer>> = {
            let mut peers = lock(&self.peers);
            peers.retain(|peer| !peer.is_transport_closed());
            peers.clone()
        };
        tracing::info!(
            clients = peers.len(),
            "the tools changed: telling the clients"
        );
        for peer in peers {
            if let Err(error) = peer.notify_tool_list_changed().await {
                tracing::debug!(%error, "a client was not told the tools changed");
            }
        }
    }

    /// Puts the values of the `changed` functions in the tools using them.
    pub(super) fn put_values(&self, values: &values::Values, changed: &[usize]) {
        let tools: Vec<(usize, Tool)> = values
            .tools_using(changed)
            .into_iter()
            .filter_map(|at| Some((at, rmcp_tool(&values.patched(at, self.typed.spec(at)?)))))
            .collect();
        match &self.surface {
            None => {
                let mut listed = write(&self.listed);
                for (at, tool) in tools {
                    listed.tools[at] = tool;
                }
            }
            Some((surface, flat)) => {
                let mut flat = write(flat);
                for (at, tool) in tools {
                    flat[at] = tool;
                }
                let mut listed = write(&self.listed);
                for (position, shown) in surface.shown.iter().enumerate() {
                    if let Shown::Tool(at) = shown {
                        listed.tools[position] = flat[*at].clone();
                    }
                }
            }
        }
    }
}
