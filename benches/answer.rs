//! Criterion benches for protocol A's core: one check per mode on GSM8K-style responses, and the
//! rayon batch. `cargo bench --bench answer`.
mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

use _core::batch::{check_batch, pool};
use _core::check::{check, CheckOptions, Input};
use _core::verdict::Compat;

fn gsm8k() -> Vec<(Input, Input)> {
    common::gsm8k_pairs()
        .into_iter()
        .map(|(r, g)| (Input::Text(r), Input::Text(g)))
        .collect()
}

fn bench(c: &mut Criterion) {
    let pairs = gsm8k();
    let mut g = c.benchmark_group("gsm8k");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    for compat in [Compat::Fixed, Compat::Xwin] {
        let opts = CheckOptions {
            compat,
            ..CheckOptions::default()
        };
        g.bench_function(format!("check_{}", compat.as_str()), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|(r, gold)| check(black_box(r), black_box(gold), &opts).correct)
                    .count()
            })
        });
    }
    let (resp, gold): (Vec<Input>, Vec<Input>) = pairs.iter().cloned().unzip();
    let opts = CheckOptions::default();
    let all_cores = pool(None).expect("the shared batch pool");
    g.bench_function("check_batch_fixed_all_cores", |b| {
        b.iter(|| {
            check_batch(black_box(&resp), black_box(&gold), None, &opts, &all_cores)
                .map(|v| v.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
