//! The benchmark servers live in `src/bin`; this library is empty.
