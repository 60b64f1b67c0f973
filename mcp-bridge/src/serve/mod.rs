//! Serving: the rmcp `ServerHandler` — `tools/list` from the cache,
//! `tools/call` routed by exact name to the typed build ([`Registry`]),
//! then to the user's handler ([`run`]) — and what it is served over:
//! the stdio [`transport`], or Streamable HTTP (`http.rs`).
//!
//! [`BridgeServer`] is one type with its methods in the files of the
//! parts of the protocol they answer: the type and its rmcp handler,
//! which hands each request on (`server.rs`); calls (`calls.rs`) and the
//! rounds of those followed past their request (`rounds.rs`); tasks
//! (`tasks.rs`); the calls started early (`early.rs`); the catalogue of
//! tools, prompts and resources (`catalogue.rs`); fetched values
//! (`fetching.rs`); a call's notifications (`notifications.rs`) and its
//! result (`results.rs`); making and setting up a server (`setup.rs`);
//! the shutdown (`shutdown.rs`). The state they share is in `shared.rs`.
//! Imports run one way: this file only declares and re-exports; `http.rs`,
//! which serves a `BridgeServer`, sits beside the server's files rather
//! than in `transport/`, which they use.
//!
//! [`Registry`]: crate::registry::Registry

mod ask;
mod calls;
mod capture;
mod catalogue;
mod dispatch;
mod early;
mod exec;
mod fetching;
mod followed;
#[cfg(feature = "http")]
mod http;
pub(crate) mod isolate;
mod locks;
pub(crate) mod logs;
mod notifications;
#[cfg(feature = "oauth")]
pub(crate) mod oauth;
mod outbox;
mod output;
mod owners;
mod pool;
mod requests;
mod results;
mod rounds;
mod run;
mod server;
mod setup;
mod shared;
mod shutdown;
mod skills;
mod tasks;
pub(crate) mod transport;
mod turn;
mod values;

#[cfg(unix)]
pub(crate) use capture::StdCapture;
pub(crate) use exec::Limits;
#[cfg(feature = "http")]
pub(crate) use http::{endpoint_url, serve as serve_http, HttpOptions};
#[cfg(feature = "testing")]
pub(crate) use output::structured as structured_output;
pub use run::CallOutcome;
pub use server::BridgeServer;
pub use skills::Skill;
pub(crate) use tasks::DEFAULT_TASK_TTL;
