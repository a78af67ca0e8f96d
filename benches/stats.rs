//! Criterion benches for the Siegel–Tukey core: one test, and the batch on 5-vs-5 scores in 1–10.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

use _core::stats::{siegel_tukey, siegel_tukey_batch, Options, Variant};

/// Deterministic scores in 1..=10 (xorshift), so the bench needs no rand crate.
fn scores(n: usize, mut state: u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 10 + 1) as f64
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let x = [5.0, 5.0, 6.0, 6.0, 5.0];
    let y = [1.0, 3.0, 5.0, 8.0, 10.0];
    c.bench_function("siegel_tukey_single_exact", |b| {
        b.iter(|| siegel_tukey(black_box(&x), black_box(&y), Options::default()))
    });
    let desc = Options {
        variant: Variant::DescTools,
        ..Options::default()
    };
    c.bench_function("siegel_tukey_single_desctools", |b| {
        b.iter(|| siegel_tukey(black_box(&x), black_box(&y), desc))
    });

    let rows = 100_000;
    let xs = scores(rows * 5, 0x9E37_79B9_7F4A_7C15);
    let ys = scores(rows * 5, 0xD1B5_4A32_D192_ED03);
    let mut g = c.benchmark_group("siegel_tukey_batch_5v5_int10");
    g.throughput(Throughput::Elements(rows as u64));
    g.sample_size(20);
    g.bench_function("exact", |b| {
        b.iter(|| siegel_tukey_batch(&xs, &ys, rows, 5, 5, Options::default()))
    });
    g.bench_function("desctools", |b| {
        b.iter(|| siegel_tukey_batch(&xs, &ys, rows, 5, 5, desc))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
