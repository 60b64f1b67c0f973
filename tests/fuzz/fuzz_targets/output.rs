//! Bytes → `#[mcp(output = "...")]`'s parsers: no panic, and what they
//! make agrees with the formats' own readers (`tests::fuzzing::output`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tests::fuzzing::output(data));
