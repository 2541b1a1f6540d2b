//! Othello GGF (`read_ggf`, `GgfGame::to_text`, `to_ggf`). A game read is written back and
//! must read back to the same start, moves, clocks and move times (to the
//! millisecond GGF is written in); its moves must be legal.
#![no_main]

use std::time::Duration;

use duel_core::conformance::check_position;
use duel_core::Game;
use duel_othello::{read_ggf, to_ggf, GgfGame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(game) = read_ggf(text) else {
        return;
    };
    if let Err(e) = check_position(&game.start) {
        panic!("start: {e}");
    }
    let mut pos = game.start.clone();
    let mut legal = Vec::new();
    for &m in &game.moves {
        pos.generate_moves(&mut legal);
        assert!(legal.contains(&m), "{m:?} not legal in '{}'", pos.to_text());
        pos.play(m);
    }
    let written = game.to_text();
    let back = read_ggf(&written).unwrap_or_else(|e| panic!("own GGF refused: {e}\n{written}"));
    assert_eq!(
        back.start.to_text(),
        game.start.to_text(),
        "start, from:\n{written}"
    );
    assert_eq!(back.moves, game.moves, "moves, from:\n{written}");
    // GGF times are written to the millisecond: finer digits read are rounded off.
    let ms = |t: Duration| t.as_millis();
    let clocks = |g: &GgfGame| g.clocks.map(|c| c.map(|c| (ms(c.base), ms(c.increment))));
    let times = |g: &GgfGame| g.times.iter().map(|t| t.map(ms)).collect::<Vec<_>>();
    assert_eq!(clocks(&back), clocks(&game), "clocks, from:\n{written}");
    assert_eq!(times(&back), times(&game), "times, from:\n{written}");
    let plain = to_ggf(&game.start, &game.moves);
    let back = read_ggf(&plain).unwrap_or_else(|e| panic!("to_ggf refused: {e}\n{plain}"));
    assert_eq!(back.moves, game.moves, "moves, from:\n{plain}");
});
