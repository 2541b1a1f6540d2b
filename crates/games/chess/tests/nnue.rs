//! The network evaluation's contract: the shipped net's colour symmetry, its file format and
//! errors, its knowledge of material, a net added to Strong, and the evaluator's search hooks.

use duel_chess::nnue::{Base, Network, FILE_BYTES, HIDDEN, INPUTS};
use duel_chess::{Chess, Net, Pst, Strong};
use duel_core::{Evaluator, Game};

mod common;
use common::positions;

/// Each side's sums see the board from its own side, so swapping the colours swaps the sums
/// and leaves the value: exactly, since it is integer arithmetic. A slip in either view's
/// indexing breaks it.
#[test]
fn colour_flipped_positions_evaluate_the_same() {
    let net = Network::shipped();
    for pos in positions() {
        let fen = pos.to_text();
        let flipped = Chess::from_text(&duel_chess::mirror_fen(&fen)).unwrap();
        assert_eq!(
            net.evaluate(flipped.board()),
            net.evaluate(pos.board()),
            "{fen}"
        );
    }
}

/// The sums are updated from the last board evaluated on the thread: a move apart along the
/// random games of `positions`, a whole board apart between them. Either way they must be
/// the sums a thread that saw nothing before builds from scratch.
#[test]
fn updated_sums_are_the_rebuilt_sums() {
    let net = Network::shipped();
    let all = positions();
    let updated: Vec<i32> = all.iter().map(|p| net.evaluate(p.board())).collect();
    // Back to front as well: undoing moves, as the search does on its way up.
    let backwards: Vec<i32> = all.iter().rev().map(|p| net.evaluate(p.board())).collect();
    for (i, pos) in all.iter().enumerate().step_by(7) {
        let board = pos.board().clone();
        let fresh = std::thread::spawn(move || Network::shipped().evaluate(&board))
            .join()
            .unwrap();
        assert_eq!(updated[i], fresh, "{}", pos.to_text());
        assert_eq!(backwards[all.len() - 1 - i], fresh, "{}", pos.to_text());
    }
}

#[test]
fn the_shipped_net_knows_material() {
    let net = Net::default();
    // A sign or view slip would make these negative; a net that learnt little, small. The
    // bounds are what a net trained on a million positions clears, not a piece's full value:
    // a lone rook's endings are rare in self-play.
    for (fen, at_least) in [
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            500,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            500,
        ),
        ("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1", 500),
        ("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 200),
    ] {
        let pos = Chess::from_text(fen).unwrap();
        let v = net.evaluate(&pos);
        assert!(v > at_least, "{fen}: {v} for the side with the extra piece");
    }
    let start = net.evaluate(&Chess::start());
    assert!((-50..=80).contains(&start), "start position {start}");
    assert_eq!(net.name(), "net");
}

#[test]
fn net_files_round_trip_and_bad_files_are_named() {
    let net = Network::shipped();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_BYTES);
    assert_eq!(&Network::from_bytes(&bytes).unwrap(), net);

    let err = |b: &[u8]| Network::from_bytes(b).unwrap_err();
    assert!(err(b"stockfish nnue").contains("not a duel net"));
    assert!(err(&bytes[..100]).contains("bytes"));
    let mut other = bytes.clone();
    other[8] = 9;
    assert!(err(&other).contains("version 9"), "{}", err(&other));
    let mut other = bytes.clone();
    other[12..16].copy_from_slice(&(HIDDEN as u32 * 2).to_le_bytes());
    assert!(err(&other).contains("hidden units"), "{}", err(&other));
    let mut other = bytes.clone();
    other[16] = 7;
    assert!(err(&other).contains("base 7"), "{}", err(&other));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(err(&longer).contains("bytes"));

    let parts = Network::from_parts(
        Base::None,
        vec![0; INPUTS * HIDDEN],
        vec![0; HIDDEN],
        vec![0; 3],
        0,
    );
    assert!(parts.unwrap_err().contains("weights per layer"));
    let mut out = vec![0; 2 * HIDDEN];
    out[7] = i16::MIN;
    let parts = Network::from_parts(
        Base::None,
        vec![0; INPUTS * HIDDEN],
        vec![0; HIDDEN],
        out,
        0,
    );
    assert!(parts.unwrap_err().contains("output weight -32768"));
}

/// A net over Strong adds to Strong's value; a net of zeros adds nothing.
#[test]
fn a_net_over_strong_adds_to_it() {
    let zero = |base| {
        Network::from_parts(
            base,
            vec![0; INPUTS * HIDDEN],
            vec![0; HIDDEN],
            vec![0; 2 * HIDDEN],
            0,
        )
        .unwrap()
    };
    let over_strong = Net::new(zero(Base::Strong));
    let alone = Net::new(zero(Base::None));
    for pos in positions().iter().step_by(50) {
        assert_eq!(over_strong.evaluate(pos), Strong::default().evaluate(pos));
        assert_eq!(alone.evaluate(pos), 0);
    }
}

#[test]
fn search_hooks_are_pst_s() {
    let net = Net::default();
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut moves = Vec::new();
    for pos in positions().iter().step_by(10) {
        net.noisy_moves(pos, &mut a);
        Pst.noisy_moves(pos, &mut b);
        assert_eq!(a, b);
        assert_eq!(net.null_move_ok(pos), Pst.null_move_ok(pos));
        assert_eq!(net.extend(pos), Pst.extend(pos));
        pos.generate_moves(&mut moves);
        for &mv in &moves {
            assert_eq!(net.move_hint(pos, mv), Pst.move_hint(pos, mv));
            assert_eq!(
                net.exchange_at_least(pos, mv, 0),
                Pst.exchange_at_least(pos, mv, 0)
            );
        }
    }
}
