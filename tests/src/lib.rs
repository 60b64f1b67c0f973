//! Test-only crate: see `tests/`.
pub mod adopt;
pub mod fuzzing;
pub mod oracle;
