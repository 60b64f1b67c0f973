//! Arbitrary JSON arguments → the typed value, for every tool of every
//! example and adoption CLI (`tests::fuzzing::arguments`).
#![no_main]

libfuzzer_sys::fuzz_target!(
    // The CLIs' own parsers may panic on hostile values (the adoption
    // corpus's `conv` multiplies minutes without a check, as real CLIs
    // do); mcp-bridge turns such a panic into a refusal of the value.
    // libfuzzer-sys's hook would abort on the caught panic, so the default
    // hook is put back: a panic that escapes the call still aborts (the
    // harness aborts on an unwinding panic), after its message.
    init: std::panic::set_hook(Box::new(|info| eprintln!("{info}"))),
    |data: &[u8]| tests::fuzzing::arguments(data)
);
