//! Running a call: its job run off the event loop within the server's
//! limits (`exec.rs`) — on a call thread, taking its turn to print
//! (`turn.rs`), with what it prints captured (`capture.rs`), or in a
//! child process of its own (`isolate.rs`) — the questions its handler
//! asks (`ask.rs`), its logs (`logs.rs`) and notifications (`outbox.rs`),
//! and its result ([`CallOutcome`](run::CallOutcome) in `run.rs`,
//! `results.rs`, `output.rs`). It knows nothing of the protocol's
//! handlers, which use it; it uses only the transport (the call threads
//! and the writer of a call's answer).

pub(super) mod ask;
pub(super) mod capture;
pub(super) mod exec;
pub(crate) mod isolate;
pub(crate) mod logs;
pub(super) mod outbox;
pub(super) mod output;
pub(super) mod results;
pub(super) mod run;
mod turn;
