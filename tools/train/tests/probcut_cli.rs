//! `duel-train othello-probcut` refuses what it could never finish, with the option named.

use std::process::Command;

#[test]
fn impossible_plans_are_refused_by_name() {
    for (args, named) in [
        (
            &["--min-empties", "30", "--max-empties", "20"][..],
            "--min-empties 30",
        ),
        (&["--max-empties", "61"][..], "--max-empties 61"),
        (&["--min-empties", "0"][..], "--min-empties 0"),
        (&["--depth", "1"][..], "--depth 1"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_duel-train"))
            .arg("othello-probcut")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
}
