//! Search speed on small, fully solvable trees, where per-node overhead is everything:
//! `cargo bench -p duel-search --features bench --bench search`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use duel_connect4::{Connect4, Threats};
use duel_core::Game;
use duel_search::reference::{Reference, ReferenceOptions};
use duel_search::searcher::{Limits, SearchConfig, Searcher};
use duel_tictactoe::{OpenLines, TicTacToe};
use std::hint::black_box;

fn tictactoe(c: &mut Criterion) {
    let start = TicTacToe::start();
    let mut g = c.benchmark_group("tictactoe");
    g.bench_function("alpha-beta soft d9", |b| {
        b.iter(|| {
            Reference::AlphaBetaSoft.search(black_box(&start), &OpenLines, 9, Default::default())
        })
    });
    g.bench_function("minimax d9", |b| {
        b.iter(|| {
            Reference::Minimax.search(
                black_box(&start),
                &OpenLines,
                9,
                ReferenceOptions::default(),
            )
        })
    });
    // A fresh game each time (empty table), as a one-off solve would see it; the table is
    // allocated outside the timing, as an engine does at start-up.
    g.bench_function("engine solve", |b| {
        b.iter_batched_ref(
            || Searcher::new(OpenLines, SearchConfig::default()),
            |s| s.search(black_box(&start), &Limits::default(), |_| {}),
            BatchSize::PerIteration,
        )
    });
    let fixed = SearchConfig {
        iterative: false,
        ..SearchConfig::default()
    };
    g.bench_function("engine fixed depth 9", |b| {
        b.iter_batched_ref(
            || Searcher::new(OpenLines, fixed.clone()),
            |s| s.search(black_box(&start), &Limits::depth(9), |_| {}),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn connect4(c: &mut Criterion) {
    let start = Connect4::start();
    let mut g = c.benchmark_group("connect4");
    g.sample_size(20);
    g.bench_function("engine depth 10", |b| {
        b.iter_batched_ref(
            || Searcher::new(Threats::default(), SearchConfig::default()),
            |s| s.search(black_box(&start), &Limits::depth(10), |_| {}),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, tictactoe, connect4);
criterion_main!(benches);
