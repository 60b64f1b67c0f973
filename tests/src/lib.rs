//! Test-only crate: see `tests/`.
pub mod adopt;
