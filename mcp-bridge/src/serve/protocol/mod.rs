//! The protocol's handlers: [`BridgeServer`], one type with an
//! `impl BridgeServer` block in each file of the part of the protocol it
//! answers (`server.rs` holds the type and its rmcp handler, which hands
//! each request on), and the state they share (`shared.rs`). They run
//! calls through `running/` and are served over `transport/` or `http/`;
//! what a request was admitted to do they read from the request
//! (`access.rs`, the `oauth` feature), not from OAuth.

#[cfg(feature = "oauth")]
pub(crate) mod access;
mod calls;
mod catalogue;
mod dispatch;
mod early;
mod fetching;
mod followed;
mod locks;
mod notifications;
mod owners;
mod requests;
mod rounds;
mod server;
mod setup;
mod shared;
mod shutdown;
mod skills;
mod tasks;
mod values;

pub use server::BridgeServer;
pub use skills::Skill;
pub(crate) use tasks::DEFAULT_TASK_TTL;
