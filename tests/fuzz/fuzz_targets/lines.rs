//! Bytes → the stdio framing → the server: every line answered once, with
//! its id when readable (`tests::fuzzing::lines`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tests::fuzzing::lines(data));
