//! Debug helper: `cargo run --example eq -- GOLD PRED` prints the engine's outcome and parses.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opts = _core::equiv::EquivOptions::default();
    for s in &args[1..] {
        let t = _core::scan::boxes::answer_text(s);
        println!(
            "{s:?} -> {:?}",
            _core::latex::parse(&t, &Default::default()).map(|e| e.to_string())
        );
    }
    if args.len() == 3 {
        println!("{:?}", _core::equiv::equivalent(&args[1], &args[2], &opts));
    }
}
