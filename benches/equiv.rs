//! Criterion benches of the equivalence engine (no Python, no SymPy):
//! - `math_verify_cases`: the 276 math-verify (gold, pred) pairs, predictions extracted once up
//!   front by the library's extractor (`extract::extract`), one iteration = all pairs;
//! - `qwen800`: the 800 Qwen2.5-Math extracted answers against their golds;
//! - `power_tower`: math-verify issue #65, which never returns there;
//! - `sum300_reordered` (percentiles only): a 300-term sum against its reversal (math-verify
//!   times out on it).
//!
//! Before criterion runs, per-item latency percentiles (p50/p99/max) are printed from direct
//! timing of every item. Run: `cargo bench --bench equiv`.

use _core::equiv::{equivalent, EquivOptions};
use criterion::{criterion_group, Criterion};
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

fn rows(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn math_verify_pairs() -> Vec<(String, String)> {
    rows("data/answer_check/math_verify_cases.jsonl")
        .iter()
        .filter_map(|r| {
            // Golds are answers (the engine reads `$..$` and boxes itself).
            let g = r["gold"].as_str()?.to_string();
            let p = _core::extract::extract(r["pred"].as_str()?, &[])?.answer;
            Some((g, p))
        })
        .collect()
}

fn qwen_pairs() -> Vec<(String, String)> {
    rows("data/answer_check/qwen25math_math_cot_100_graded.jsonl")
        .iter()
        .map(|r| {
            (
                r["gold"].as_str().unwrap().to_string(),
                r["qwen_extracted"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const TOWER: &str = "\\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}";

fn percentiles(name: &str, pairs: &[(String, String)]) {
    let opts = EquivOptions::default();
    let mut times: Vec<f64> = Vec::new();
    for _ in 0..20 {
        for (g, p) in pairs {
            let t = Instant::now();
            black_box(equivalent(g, p, &opts));
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
    let total: f64 = times.iter().sum();
    println!(
        "{name}: {} items, per item p50 {:.1} us, p99 {:.1} us, max {:.1} us, {:.0} items/s on one core",
        pairs.len(),
        q(0.5),
        q(0.99),
        q(1.0),
        times.len() as f64 / (total / 1e6)
    );
}

fn bench(c: &mut Criterion) {
    let opts = EquivOptions::default();
    let mv = math_verify_pairs();
    let qw = qwen_pairs();
    c.bench_function("math_verify_cases", |b| {
        b.iter(|| {
            for (g, p) in &mv {
                black_box(equivalent(g, p, &opts));
            }
        })
    });
    c.bench_function("qwen800", |b| {
        b.iter(|| {
            for (g, p) in &qw {
                black_box(equivalent(g, p, &opts));
            }
        })
    });
    c.bench_function("power_tower", |b| {
        b.iter(|| black_box(equivalent(TOWER, "1", &opts)))
    });
}

criterion_group!(benches, bench);

fn main() {
    percentiles("math_verify_cases", &math_verify_pairs());
    percentiles("qwen800", &qwen_pairs());
    percentiles("power_tower", &[(TOWER.to_string(), "1".to_string())]);
    let terms: Vec<String> = (1..=300).map(|i| format!("x_{{{i}}}^{{{i}}}")).collect();
    let reversed: Vec<String> = terms.iter().rev().cloned().collect();
    percentiles(
        "sum300_reordered",
        &[(terms.join(" + "), reversed.join(" + "))],
    );
    benches();
    Criterion::default().configure_from_args().final_summary();
}
