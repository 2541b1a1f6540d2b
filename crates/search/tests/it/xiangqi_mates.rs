//! Xiangqi's mates through the engine's selective search (xiangqi's search profile, Strong):
//! most begin with a chariot given up with check, which exchange pruning must leave alone.

use duel_core::{Game, GameInfo, Score};
use duel_search::{Limits, SearchConfig, Searcher};
use duel_xiangqi::{Strong, Xiangqi};

/// xq_shi_qing_ya_qu_101 of data/xiangqi/mate-puzzles.txt: Red mates in 11 plies, i8i9 first
/// (the chariot's check, then a cannon's and the other chariot given up on e8). With checks
/// pruned when they lose more than the larger exchange margin the search saw a loss for Red
/// up to depth 20; sparing them, it finds the mate at depth 10.
#[test]
fn a_mate_in_eleven_through_a_chariot_sacrifice() {
    let pos = Xiangqi::from_text("3ak4/R3a1P1R/b3b4/1C7/4c4/9/9/9/2r3r2/4K4 w - - 0 1").unwrap();
    let config = SearchConfig::with_profile(&Xiangqi::SEARCH_PROFILE);
    let mut search = Searcher::new(Strong::default(), config);
    let r = search.search(&pos, &Limits::depth(10), |_| {});
    assert_eq!(pos.format_move(r.best.unwrap()), "i8i9");
    assert_eq!(r.value, Score::win_in(11), "{:?}", r.value);
}
