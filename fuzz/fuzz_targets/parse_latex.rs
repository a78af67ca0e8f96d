//! `cargo +nightly fuzz run parse_latex`: the parser and the engine never panic and always
//! finish, whatever the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = _core::latex::parse(s, &Default::default());
        let (gold, pred) = s.split_at(
            s.char_indices()
                .nth(s.chars().count() / 2)
                .map_or(0, |(i, _)| i),
        );
        let _ = _core::equiv::equivalent(gold, pred, &Default::default());
    }
});
