//! A run's results as a file, so that the shards of a match played on several machines merge
//! into the report of one run: the match's parameters (compared on merging: the files of two
//! different matches are refused) and each game's result, as JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{Fault, GameResult, Shard, Sprt, TimeControl};

/// Everything that decides a match's games and how its report reads, except how its games
/// are spread (the shard, the concurrency).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchParams {
    /// The game's name.
    pub game: String,
    /// The first player, as given.
    pub first: String,
    /// The second player, as given.
    pub second: String,
    /// Games in the whole match.
    pub games: usize,
    /// The first player's control and the second's.
    pub controls: [TimeControl; 2],
    /// Openings found.
    pub openings: usize,
    /// Where they come from, in words (`of 8 plies`, `from book.pgn`).
    pub opening_source: String,
    /// Chess960 starts.
    pub chess960: bool,
    /// The seed of the openings.
    pub seed: u64,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
}

/// One game's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// The game's index in the match, from 0.
    pub index: usize,
    /// Its result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: String,
    /// The fault that lost it, if one did (absent from the files of earlier versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
}

/// The results of one run: a shard of a match, or the whole of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResults {
    /// The match.
    pub params: MatchParams,
    /// The part of it this run played.
    pub shard: Shard,
    /// Its games, in the order they ended.
    pub games: Vec<GameOutcome>,
}

/// Why result files do not merge.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MergeError {
    /// No file.
    #[error("no results to merge")]
    Nothing,
    /// A file is not a results file.
    #[error("{file}: not a match results file: {reason}")]
    Unreadable {
        /// The file.
        file: String,
        /// What the JSON reader said.
        reason: String,
    },
    /// Two files are of different matches.
    #[error("{file}: another match than {first}: {field} is {theirs}, not {ours}")]
    OtherMatch {
        /// The file that differs.
        file: String,
        /// The first file.
        first: String,
        /// The parameter that differs.
        field: String,
        /// Its value in the first file.
        ours: String,
        /// Its value in this one.
        theirs: String,
    },
    /// Files split the match differently.
    #[error("{file}: shard {index}/{count}, but {first} is one of {expected} shards")]
    OtherSplit {
        /// The file.
        file: String,
        /// The first file.
        first: String,
        /// Its shard.
        index: usize,
        /// Its shard count.
        count: usize,
        /// The first file's shard count.
        expected: usize,
    },
    /// Two files hold the same shard.
    #[error("{file}: shard {index}/{count} is also in {other}")]
    Twice {
        /// The file.
        file: String,
        /// Its shard.
        index: usize,
        /// The shard count.
        count: usize,
        /// The other file with it.
        other: String,
    },
    /// A shard is missing.
    #[error("shard {index}/{count} is missing")]
    Missing {
        /// The shard.
        index: usize,
        /// The shard count.
        count: usize,
    },
}

impl RunResults {
    /// Reads a results file's `text`; `file` names it in errors.
    pub fn read(file: &str, text: &str) -> Result<RunResults, MergeError> {
        serde_json::from_str(text).map_err(|e| MergeError::Unreadable {
            file: file.to_string(),
            reason: e.to_string(),
        })
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// The parameters as field → JSON text, to name the one that differs.
fn fields(p: &MatchParams) -> BTreeMap<String, String> {
    match serde_json::to_value(p) {
        Ok(serde_json::Value::Object(map)) => {
            map.into_iter().map(|(k, v)| (k, v.to_string())).collect()
        }
        _ => BTreeMap::new(),
    }
}

/// Merges the runs of `files` (name, results), which must be every shard of one match once:
/// the match's parameters and all its games, by index.
pub fn merge(
    files: &[(String, RunResults)],
) -> Result<(MatchParams, Vec<GameOutcome>), MergeError> {
    let Some((first_name, first)) = files.first() else {
        return Err(MergeError::Nothing);
    };
    let ours = fields(&first.params);
    let count = first.shard.count;
    let mut holder: Vec<Option<&str>> = vec![None; count];
    let mut games = Vec::new();
    for (name, run) in files {
        if run.params != first.params {
            let theirs = fields(&run.params);
            let (field, value) = theirs
                .iter()
                .find(|(k, v)| ours.get(*k) != Some(v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .unwrap_or_default();
            return Err(MergeError::OtherMatch {
                file: name.clone(),
                first: first_name.clone(),
                ours: ours.get(&field).cloned().unwrap_or_default(),
                field,
                theirs: value,
            });
        }
        let s = run.shard;
        if s.count != count {
            return Err(MergeError::OtherSplit {
                file: name.clone(),
                first: first_name.clone(),
                index: s.index,
                count: s.count,
                expected: count,
            });
        }
        if let Some(other) = holder[s.index - 1] {
            return Err(MergeError::Twice {
                file: name.clone(),
                index: s.index,
                count,
                other: other.to_string(),
            });
        }
        holder[s.index - 1] = Some(name);
        games.extend(run.games.iter().cloned());
    }
    if let Some(k) = holder.iter().position(Option::is_none) {
        return Err(MergeError::Missing {
            index: k + 1,
            count,
        });
    }
    games.sort_by_key(|g| g.index);
    Ok((first.params.clone(), games))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(index: usize, count: usize, seed: u64, games: &[usize]) -> RunResults {
        RunResults {
            params: MatchParams {
                game: "chess".into(),
                first: "duel".into(),
                second: "duel:eval=pst".into(),
                games: 8,
                controls: [TimeControl::per_move_nodes(100); 2],
                openings: 4,
                opening_source: "of 8 plies".into(),
                chess960: false,
                seed,
                sprt: None,
            },
            shard: Shard { index, count },
            games: games
                .iter()
                .map(|&index| GameOutcome {
                    index,
                    result: GameResult::Draw,
                    reason: "stalemate".into(),
                    fault: None,
                })
                .collect(),
        }
    }

    #[test]
    fn shards_merge_and_strangers_are_refused() {
        let a = ("a.json".to_string(), run(1, 2, 3, &[1, 0, 4, 5]));
        let b = ("b.json".to_string(), run(2, 2, 3, &[2, 3, 6, 7]));
        let back = RunResults::read("a.json", &a.1.to_json()).unwrap();
        assert_eq!(back, a.1);
        // A fault goes into the file and back; a game without one reads as a file of an
        // earlier version wrote it.
        let mut faulty = a.1.clone();
        faulty.games[0].result = GameResult::FirstWins;
        faulty.games[0].fault = Some(Fault::Crash);
        let json = faulty.to_json();
        assert!(json.contains("\"fault\": \"crash\"") && json.matches("fault").count() == 1);
        assert_eq!(RunResults::read("f.json", &json).unwrap(), faulty);
        let (params, games) = merge(&[b.clone(), a.clone()]).unwrap();
        assert_eq!(params.seed, 3);
        assert_eq!(
            games.iter().map(|g| g.index).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        let other = ("c.json".to_string(), run(2, 2, 4, &[]));
        let e = merge(&[a.clone(), other]).unwrap_err().to_string();
        assert!(
            e.contains("c.json") && e.contains("seed is 4, not 3"),
            "{e}"
        );
        let e = merge(&[a.clone(), a.clone()]).unwrap_err().to_string();
        assert!(e.contains("shard 1/2 is also in a.json"), "{e}");
        let e = merge(std::slice::from_ref(&a)).unwrap_err().to_string();
        assert!(e.contains("shard 2/2 is missing"), "{e}");
        let e = merge(&[a.clone(), ("d.json".into(), run(1, 3, 3, &[]))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("d.json") && e.contains("1/3"), "{e}");
        let e = RunResults::read("x.json", "{}").unwrap_err().to_string();
        assert!(
            e.contains("x.json") && e.contains("not a match results file"),
            "{e}"
        );
    }
}
