//! Single-thread throughput of `check` on GSM8K-style responses, for profiling:
//! `cargo run --release --example profile_check` (or under valgrind --tool=callgrind).

use _core::check::{check, CheckOptions, Compat, Input};

fn main() {
    let text = std::fs::read_to_string("data/answer_check/gsm8k_xwin.json")
        .expect("run from the repo root");
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).expect("valid JSON");
    let pairs: Vec<(Input, Input)> = items
        .iter()
        .map(|it| {
            let sol = it["solution"].as_str().unwrap_or("");
            let ans = it["answer"].as_str().unwrap_or("");
            (
                Input::Text(format!("{sol}\nThe answer is: {ans}.")),
                Input::Text(ans.to_string()),
            )
        })
        .collect();
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    for compat in [Compat::Fixed, Compat::Xwin] {
        let opts = CheckOptions {
            compat,
            ..CheckOptions::default()
        };
        let t = std::time::Instant::now();
        let mut ok = 0usize;
        for _ in 0..rounds {
            ok += pairs
                .iter()
                .filter(|(r, g)| check(r, g, &opts).correct)
                .count();
        }
        let n = rounds * pairs.len();
        println!(
            "{compat:?}: {:.0} items/s single thread ({ok}/{n} correct)",
            n as f64 / t.elapsed().as_secs_f64()
        );
    }
}
