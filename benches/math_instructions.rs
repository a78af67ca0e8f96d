//! Instructions per MATH-style response of the batch driver, for callgrind (wall time on a shared
//! machine is noise; retired instructions are not). The 800 Qwen2.5-Math responses of
//! `data/answer_check/qwen25math_math_cot_100_graded.jsonl`, `REPEATS` times over, checked on a
//! pool of `THREADS` threads exactly as `check_batch` does (`check_columns`: chunks read into blocks
//! by the calling thread, which then checks with `THREADS - 1` threads of the pool):
//!
//! ```text
//! cargo bench --bench math_instructions --no-run     # prints the binary's path
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out BIN 20 1
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg0.out BIN 0 1
//! ```
//!
//! (Ir of the first) − (Ir of the second), over 800 × REPEATS, is the cost per response in the
//! checking threads; `callgrind_annotate /tmp/cg.out` shows where it goes. Run without valgrind it
//! prints the rate (noisy on a shared machine). `cargo bench` runs it with no arguments: 2 repeats.
//! A third argument `gsm8k` checks GSM8K-style responses instead, as `benches/compare_gsm8k.py`
//! makes them: the 1,319 reference solutions of `data/answer_check/gsm8k_xwin.json` followed by
//! "The answer is: <gold>." (per response: over 1,319 × REPEATS).
mod common;

use std::time::Instant;

// The extension's allocator (rust/lib.rs installs it with feature "python"): allocation is part
// of the count.
#[cfg(not(feature = "python"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use _core::batch::{check_columns, pool};
use _core::check::{Cell, CheckOptions};
use _core::column::Texts;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let repeats: usize = args.first().map_or(2, |a| a.parse().expect("REPEATS"));
    let threads: usize = args.get(1).map_or(1, |a| a.parse().expect("THREADS"));
    let texts: Vec<(String, String)> = if args.get(2).is_some_and(|a| a == "gsm8k") {
        common::gsm8k_pairs()
    } else {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/answer_check/qwen25math_math_cot_100_graded.jsonl"
        ))
        .expect("bundled MATH data");
        // The 800 texts once; the batch's cells borrow them (as check_batch reads a Python list's
        // str objects in place), so REPEATS adds no copying to the count.
        text.lines()
            .map(|l| {
                let r: serde_json::Value = serde_json::from_str(l).expect("valid JSON");
                let field = |k: &str| r[k].as_str().unwrap_or("").to_string();
                (field("response"), field("gold"))
            })
            .collect()
    };
    let mut resp = Vec::with_capacity(texts.len() * repeats);
    let mut gold = Vec::with_capacity(texts.len() * repeats);
    for _ in 0..repeats {
        for (r, g) in &texts {
            resp.push(Cell::Text(r));
            gold.push(Cell::Text(g));
        }
    }
    let opts = CheckOptions::default();
    let p = pool(Some(threads)).expect("a pool");
    let (r, g) = (Texts::Cells(&resp), Texts::Cells(&gold));
    let t = Instant::now();
    let correct = check_columns(r, g, None, &opts, &p)
        .expect("columns of one length")
        .correct
        .iter()
        .filter(|&&c| c == 1)
        .count();
    let dt = t.elapsed().as_secs_f64();
    if !resp.is_empty() {
        println!(
            "{} responses on {threads} thread(s): {correct} correct, {:.0} responses/s",
            resp.len(),
            resp.len() as f64 / dt
        );
    }
}
