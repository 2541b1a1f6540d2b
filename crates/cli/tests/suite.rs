//! `duel suite`: a few Win At Chess positions whose answer is a short forced win (so a shallow
//! search must find it), and the refusals of bad suite files.

mod common;

use common::duel;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("duel-suite-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn short_forced_wins_are_solved() {
    // WAC.001 (Qg6, mate soon), WAC.004 (Rxh2+, mate), WAC.008 (Rf8+ wins the queen), and a
    // position to avoid a move in: the rook check on the back rank only gives the rook away.
    let epd = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";
r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - bm Rf7; id \"WAC.008\";
r5k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - am Rb8+; id \"avoid\";
";
    let path = temp_file("wac.epd", epd);
    let (out, err, ok) = duel(&["suite", path.to_str().unwrap(), "--depth", "8"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("solved 4/4"), "{out}");
    for id in ["WAC.001", "WAC.004", "WAC.008", "avoid"] {
        assert!(
            out.lines().any(|l| l.starts_with(id) && l.contains(" ok ")),
            "{id}: {out}"
        );
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_suites_are_refused() {
    let cases = [
        ("fields.epd", "8/8/8/8 w - - bm Ke2;\n", "line 1"),
        (
            "move.epd",
            "4k3/8/8/8/8/8/8/4K3 w - - bm Nf3; id \"x\";\n",
            "Nf3",
        ),
        ("noop.epd", "4k3/8/8/8/8/8/8/4K3 w - - id \"x\";\n", "no bm"),
        ("short.epd", "\n4k3/8/8/8/8/8/8/4K3 w - -\n", "line 2"),
    ];
    for (name, text, says) in cases {
        let path = temp_file(name, text);
        let (_, err, ok) = duel(&["suite", path.to_str().unwrap(), "--depth", "2"]);
        assert!(!ok, "{name}");
        assert!(err.contains(says), "{name}: {err}");
        let _ = std::fs::remove_file(path);
    }
    let (_, err, ok) = duel(&["suite", "/no/such/suite.epd"]);
    assert!(!ok && err.contains("/no/such/suite.epd"), "{err}");
}
