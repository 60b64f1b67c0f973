//! Serving: the rmcp `ServerHandler` — `tools/list` from the cache,
//! `tools/call` routed by exact name to the typed build ([`Registry`]),
//! then to the user's handler — and what it is served over. One folder a
//! concern, and imports between them run one way, from the first to the
//! last:
//!
//! - `http/`: Streamable HTTP (`mod.rs`), which serves a `BridgeServer`,
//!   and OAuth on it (`oauth/`, the `oauth` feature).
//! - `protocol/`: [`BridgeServer`], one type with its methods in the files
//!   of the parts of the protocol they answer: the type and its rmcp
//!   handler, which hands each request on (`server.rs`); calls
//!   (`calls.rs`) and the rounds of those followed past their request
//!   (`rounds.rs`, `followed.rs`); tasks (`tasks.rs`) and who they belong
//!   to (`owners.rs`); the calls started early (`early.rs`); the catalogue
//!   of tools, prompts and resources (`catalogue.rs`); fetched values
//!   (`fetching.rs`, `values.rs`); the skills (`skills.rs`); a call's
//!   notifications (`notifications.rs`); making and setting up a server
//!   (`setup.rs`); the shutdown (`shutdown.rs`); telling requests apart
//!   (`requests.rs`); the typed side behind `dyn Dispatch`
//!   (`dispatch.rs`); what a request was admitted to do, as OAuth put it
//!   in the request (`access.rs`); locks (`locks.rs`). The state they
//!   share is in `shared.rs`.
//! - `running/`: running a call within the server's limits (`exec.rs`,
//!   the print turn in `turn.rs`), its output captured (`capture.rs`), in
//!   a child process (`isolate.rs`), its questions (`ask.rs`), logs
//!   (`logs.rs`) and notifications (`outbox.rs`), and its result
//!   (`run.rs`, `results.rs`, `output.rs`).
//! - `transport/`: the stdio transport, and the call threads synchronous
//!   handlers run on (`pool.rs`), which over stdio read its input (the
//!   input reader implements the pool's `Lead`, so the pool sits here,
//!   below `running/`, which runs calls on it).
//!
//! This file only declares and re-exports; no file below imports from it.
//! What protocol's handlers read of OAuth, they read through
//! `protocol/access.rs`, which `http/oauth/` fills in.
//!
//! [`Registry`]: crate::registry::Registry

#[cfg(feature = "http")]
mod http;
mod protocol;
mod running;
pub(crate) mod transport;

#[cfg(feature = "oauth")]
pub(crate) use http::oauth;
#[cfg(feature = "http")]
pub(crate) use http::{endpoint_url, serve as serve_http, HttpOptions};
pub(crate) use protocol::DEFAULT_TASK_TTL;
pub use protocol::{BridgeServer, Skill};
#[cfg(unix)]
pub(crate) use running::capture::StdCapture;
pub(crate) use running::exec::Limits;
#[cfg(feature = "testing")]
pub(crate) use running::output::structured as structured_output;
pub use running::run::CallOutcome;
pub(crate) use running::{isolate, logs};
