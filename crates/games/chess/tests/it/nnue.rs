//! The network evaluation's contract: the shipped net's colour symmetry, its file format and
//! errors, its knowledge of material, a net added to Strong, and the evaluator's search hooks.

use duel_chess::nnue::{
    file_bytes, king_bucket, king_squares, output_bucket, position_from_inputs, white_inputs, Base,
    Network, CP_SCALE, HIDDEN, INPUTS, MAX_BUCKETS, QA, QB,
};
use duel_chess::{Chess, Net, Pst, Strong};
use duel_core::{Evaluator, Game};

use crate::common::positions;

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

/// The net alone values a rook pawn and a bishop as a bishop up whichever colour the bishop
/// is; the rules (`duel_chess::endgame`) keep the fortress with the wrong bishop at a draw
/// and leave the winning ending with the right one as the net values it.
#[test]
fn the_net_is_scaled_in_the_drawn_endings() {
    let net = Net::default();
    let wrong = Chess::from_text("7k/8/5K1P/8/8/8/8/1B6 w - - 0 1").unwrap();
    let right = Chess::from_text("7k/8/5K1P/8/8/8/8/2B5 w - - 0 1").unwrap();
    assert!(net.network().evaluate(wrong.board()) > 200);
    assert_eq!(net.evaluate(&wrong), 0);
    let v = net.evaluate(&right);
    assert_eq!(v, net.network().evaluate(right.board()));
    assert!(v > 200, "{v}");
    // Two knights against a bare king, either side to move.
    for fen in [
        "8/8/8/N7/3K3N/8/8/2k5 b - - 0 1",
        "8/8/8/N7/3K3N/8/8/2k5 w - - 0 1",
    ] {
        assert_eq!(net.evaluate(&Chess::from_text(fen).unwrap()), 0, "{fen}");
    }
}

#[test]
fn net_files_round_trip_and_bad_files_are_named() {
    let err = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
    let net = Network::shipped();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_bytes(net.buckets(), net.king_buckets()));
    assert_eq!(&Network::from_bytes(&bytes).unwrap(), net);
    // Version 1 (no bucket count, one bucket) still reads, as the same net.
    let one = bucketed(1, |_, w| w.to_vec(), |_, b| b);
    let one_bytes = one.to_bytes();
    let bytes = one_bytes.clone();
    let mut v1 = one_bytes[..20].to_vec();
    v1[8] = 1;
    v1.extend_from_slice(&one_bytes[24..]);
    assert_eq!(Network::from_bytes(&v1).unwrap(), one);
    let mut other = bytes.clone();
    other[20..24].copy_from_slice(&0u32.to_le_bytes());
    assert!(err(&other).contains("0 output buckets"), "{}", err(&other));
    other[20..24].copy_from_slice(&(MAX_BUCKETS as u32 + 1).to_le_bytes());
    assert!(err(&other).contains("output buckets"), "{}", err(&other));
    other[20..24].copy_from_slice(&2u32.to_le_bytes());
    assert!(
        err(&other).contains("2 output buckets and 1 king buckets has"),
        "{}",
        err(&other)
    );
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
        vec![0],
    );
    assert!(parts.unwrap_err().to_string().contains("weights per layer"));
    let parts = Network::from_parts(
        Base::None,
        vec![0; INPUTS * HIDDEN],
        vec![0; HIDDEN],
        vec![],
        vec![],
    );
    assert!(parts.unwrap_err().to_string().contains("0 output buckets"));
    let mut out = vec![0; 2 * HIDDEN];
    out[7] = i16::MIN;
    let parts = Network::from_parts(
        Base::None,
        vec![0; INPUTS * HIDDEN],
        vec![0; HIDDEN],
        out,
        vec![0],
    );
    assert!(parts
        .unwrap_err()
        .to_string()
        .contains("output weight -32768"));
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
            vec![0],
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

/// The shipped net's feature layer (its first king bucket's, if it has several) with
/// `buckets` output buckets, the output weights of bucket `b` made by `out(b, weights)` from
/// the shipped net's first bucket and its bias by `bias(b, bias)`.
fn bucketed(
    buckets: usize,
    out: impl Fn(usize, &[i16]) -> Vec<i16>,
    bias: impl Fn(usize, i32) -> i32,
) -> Network {
    let shipped = Network::shipped();
    let (ft_w, ft_b, out_w, out_b) = shipped.parts();
    let weights = &out_w[..2 * HIDDEN];
    let net = Network::from_parts(
        shipped.base(),
        ft_w[..INPUTS * HIDDEN].to_vec(),
        ft_b.to_vec(),
        (0..buckets).flat_map(|k| out(k, weights)).collect(),
        (0..buckets).map(|k| bias(k, out_b[0])).collect(),
    )
    .unwrap();
    assert_eq!(net.to_bytes().len(), file_bytes(buckets, 1));
    net
}

/// Four king buckets of the same feature rows give the one-bucket values exactly, wherever the
/// kings stand; the net is written as version 3 and reads back; a file of a king-bucket count
/// no build knows is refused by name.
#[test]
fn identical_king_buckets_give_the_one_bucket_values() {
    let one = bucketed(8, |_, w| w.to_vec(), |_, b| b);
    let (ft_w, ft_b, out_w, out_b) = one.parts();
    let four = Network::from_parts(
        one.base(),
        ft_w.repeat(4),
        ft_b.to_vec(),
        out_w.to_vec(),
        out_b.to_vec(),
    )
    .unwrap();
    assert_eq!(four.king_buckets(), 4);
    let bytes = four.to_bytes();
    assert_eq!(bytes.len(), file_bytes(8, 4));
    assert_eq!(bytes[8], 3, "version 3");
    assert_eq!(Network::from_bytes(&bytes).unwrap(), four);
    for pos in positions().iter().step_by(5) {
        assert_eq!(four.evaluate(pos.board()), one.evaluate(pos.board()));
    }
    let mut other = bytes.clone();
    other[24..28].copy_from_slice(&3u32.to_le_bytes());
    let e = Network::from_bytes(&other).unwrap_err().to_string();
    assert!(e.contains("3 king buckets"), "{e}");
    let e = Network::from_parts(
        one.base(),
        ft_w.repeat(2),
        ft_b.to_vec(),
        out_w.to_vec(),
        out_b.to_vec(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("king bucket"), "{e}");
}

/// The king buckets: a view's own king on its first two ranks by wing (a–c, d–e, f–h), or
/// further up; both views see their own back rank as rank 1.
#[test]
fn king_buckets_split_the_back_ranks_by_wing() {
    let row = |r: usize| {
        (0..8)
            .map(|f| king_bucket(r * 8 + f, 4))
            .collect::<Vec<_>>()
    };
    assert_eq!(row(0), [0, 0, 0, 1, 1, 2, 2, 2]);
    assert_eq!(row(1), [0, 0, 0, 1, 1, 2, 2, 2]);
    assert!((2..8).all(|r| row(r) == [3; 8]));
    assert!((0..64).all(|sq| king_bucket(sq, 1) == 0));
}

/// Eight copies of one output layer give that layer's one-bucket values exactly; a file of
/// eight buckets round-trips.
#[test]
fn identical_buckets_give_the_one_bucket_values() {
    let one = bucketed(1, |_, w| w.to_vec(), |_, b| b);
    let eight = bucketed(8, |_, w| w.to_vec(), |_, b| b);
    assert_eq!(eight.buckets(), 8);
    assert_eq!(Network::from_bytes(&eight.to_bytes()).unwrap(), eight);
    for pos in positions().iter().step_by(5) {
        assert_eq!(
            eight.evaluate(pos.board()),
            one.evaluate(pos.board()),
            "{}",
            pos.to_text()
        );
    }
}

/// With every output weight zero, the value is the bias of the bucket the piece count picks:
/// buckets split 2 to 32 pieces in equal ranges, the full board in the last one.
#[test]
fn the_piece_count_picks_the_bucket() {
    assert_eq!(
        (2..=32).map(|n| output_bucket(n, 8)).collect::<Vec<_>>(),
        [
            0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7,
            7, 7
        ]
    );
    assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
    assert!((2..=32).all(|n| output_bucket(n, MAX_BUCKETS) < MAX_BUCKETS));
    // A bias of k·QA·QB·10/CP_SCALE is k·10 cp: the value names the bucket.
    let net = bucketed(
        8,
        |_, w| vec![0; w.len()],
        |k, _| k as i32 * QA * QB * 10 / CP_SCALE,
    );
    for pos in positions().iter().step_by(3) {
        let pieces = pos.board().occupied().len();
        let want = output_bucket(pieces, 8) as i32 * 10;
        assert_eq!(net.evaluate(pos.board()), want, "{}", pos.to_text());
    }
}

/// A position rebuilt from its White-view inputs has the same pieces, side to move and kings,
/// so the net values it alike; a mirror left to right twice is the position again.
#[test]
fn inputs_rebuild_the_position() {
    let net = Network::shipped();
    for pos in positions().iter().step_by(25) {
        let white = pos.side_to_move() == duel_core::Side::First;
        let back = position_from_inputs(white_inputs(pos), white).expect("a legal position");
        assert_eq!(
            white_inputs(&back).collect::<Vec<_>>(),
            white_inputs(pos).collect::<Vec<_>>()
        );
        assert_eq!(king_squares(&back), king_squares(pos));
        assert_eq!(net.evaluate(back.board()), net.evaluate(pos.board()));
        if let Some(m) = back.file_mirror() {
            assert_eq!(m.file_mirror(), Some(back.clone()));
        }
    }
    assert_eq!(Chess::start().file_mirror(), None, "castling rights");
}
