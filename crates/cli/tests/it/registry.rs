//! The registry is the only list of games: no front-end source line names several of them
//! (a list written by hand goes stale the day a game is added), and what the help and
//! `duel games` show comes from the registry.

use std::path::{Path, PathBuf};

/// The front ends' sources: the command line, the engine facade (but for the registry
/// itself), the protocol loops, the arena, and the web server with its page.
fn front_end_sources() -> Vec<PathBuf> {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![
        cli.join("src"),
        cli.join("../engine/src"),
        cli.join("../stdio/src"),
        cli.join("../arena/src"),
        cli.join("../web/src"),
        cli.join("../web/assets"),
    ];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "rs" || e == "js" || e == "html")
                && !path.ends_with("engine/src/registry.rs")
            {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 10, "{files:?}");
    files
}

/// The registered games a line names, by name or title, in any case.
fn games_named(line: &str) -> Vec<&'static str> {
    let line = line.to_ascii_lowercase();
    duel_engine::games()
        .iter()
        .filter(|g| line.contains(g.name) || line.contains(&g.title.to_ascii_lowercase()))
        .map(|g| g.name)
        .collect()
}

#[test]
fn no_front_end_line_lists_the_games() {
    assert!(duel_engine::games().len() >= 3);
    let mut lists = Vec::new();
    for file in front_end_sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let named = games_named(line);
            if named.len() >= 3 {
                lists.push(format!("{}:{}: {named:?}", file.display(), i + 1));
            }
        }
    }
    assert!(
        lists.is_empty(),
        "games listed by hand (read them from duel_engine::games()):\n{}",
        lists.join("\n")
    );
}

#[test]
fn the_check_sees_a_list() {
    assert_eq!(
        games_named("The game: tictactoe, connect4, othello"),
        ["tictactoe", "connect4", "othello"]
    );
}

/// `duel ARGS`' output, which must succeed.
fn duel(args: &[&str]) -> String {
    let (out, err, ok) = crate::common::duel(args);
    assert!(ok, "{args:?}: {err}");
    out
}

#[test]
fn help_and_games_show_every_registered_game() {
    let help = duel(&["analyze", "--help"]);
    let listed = duel(&["games"]);
    for g in duel_engine::games() {
        assert!(help.contains(g.name), "{} missing from the help", g.name);
        assert!(
            listed.lines().any(|l| l.starts_with(g.name)),
            "{} missing from duel games",
            g.name
        );
        assert!(listed.contains(g.notation), "{}'s notation", g.name);
        for e in g.evaluators {
            assert!(listed.contains(e), "{}'s evaluator {e}", g.name);
        }
    }
}

#[test]
fn a_variant_the_game_does_not_have_is_refused_by_name() {
    let (_, err, ok) = crate::common::duel(&["analyze", "chess:960", "--depth", "1"]);
    assert!(!ok);
    assert!(
        err.contains("'chess:960': no such variant of chess"),
        "{err}"
    );
    let (_, err, ok) = crate::common::duel(&["analyze", "tictactoe:", "--depth", "1"]);
    assert!(!ok && err.contains("no such variant"), "{err}");
}
