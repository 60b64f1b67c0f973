//! Arbitrary JSON arguments → the typed value, for every tool of every
//! example and adoption CLI (`tests::fuzzing::arguments`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tests::fuzzing::arguments(data));
