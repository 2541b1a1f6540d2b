//! Search speed on small, fully solvable trees, where per-node overhead is everything, and
//! Gomoku's costs per node: `cargo bench -p duel-search --features bench --bench search`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use duel_connect4::{Connect4, Threats};
use duel_core::{Evaluator, Game};
use duel_gomoku::{Gomoku, Patterns};
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

/// Gomoku's per-node costs, on a middle game of 20 stones (one of `duel bench gomoku`'s kind):
/// the evaluation, which reads the counts the position keeps, and a stone put down and taken
/// back, which keeps them.
fn gomoku(c: &mut Criterion) {
    let pos =
        Gomoku::from_text("h8 i9 g9 i7 i8 g7 j8 k8 h9 h10 g10 f11 j10 g8 f9 e9 k10 l11 j9 j7")
            .unwrap();
    let patterns = Patterns::default();
    let mut g = c.benchmark_group("gomoku");
    g.bench_function("evaluate (patterns)", |b| {
        b.iter(|| patterns.evaluate(black_box(&pos)))
    });
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    patterns.prune_moves(&pos, &mut moves);
    let mv = moves[moves.len() / 2];
    let mut board = pos.clone();
    g.bench_function("play and undo", |b| {
        b.iter(|| {
            board.play(black_box(mv));
            board.undo(mv);
        })
    });
    g.finish();
}

criterion_group!(benches, tictactoe, connect4, gomoku);
criterion_main!(benches);
