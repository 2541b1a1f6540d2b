//! The games and their positions: what the page draws and the moves it may take.

use axum::Json;
use duel_engine::{RecordInfo, Session, Side};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, Body};

/// Declares a request body: the game, evaluator and position every request names, then its
/// own fields. Unknown fields are refused (a misspelt `depht` must not be ignored), which
/// rules out serde's `flatten`; hence one macro rather than a shared struct.
macro_rules! game_request {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident: $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// The game, a variant after `:` (`gomoku:renju`).
            pub game: String,
            /// The evaluator (default: the game's first).
            #[serde(default)]
            pub eval: Option<String>,
            /// The start position in the game's text form (empty: the game's start).
            #[serde(default)]
            pub position: String,
            /// The moves played from it.
            #[serde(default)]
            pub moves: Vec<String>,
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// The game and position the request names.
            #[allow(dead_code)]
            pub fn at(&self) -> crate::api::GameRef {
                crate::api::GameRef {
                    game: self.game.clone(),
                    eval: self.eval.clone(),
                    position: self.position.clone(),
                    moves: self.moves.clone(),
                    }
            }
        }
    };
}
pub(crate) use game_request;

game_request!(
    /// A position: `POST /api/position`'s body, and what every other request names.
    GameRef {}
);

/// Runs `work` on the blocking pool: reading a long game or record is work for milliseconds,
/// which must not hold one of the two threads that answer every connection.
pub async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError {
            status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the request's thread failed: {e}"),
        })?
}

/// Opens a session on `game` (a variant may follow the name: `gomoku:renju`), sets the start
/// position and plays the moves, so that the record and `undo` see them.
pub fn open(r: &GameRef) -> Result<Box<dyn Session>, ApiError> {
    let mut s = duel_engine::open(&r.game, r.eval.as_deref())?;
    s.set_position(&r.position, &[])?;
    for (i, m) in r.moves.iter().enumerate() {
        s.play(m)
            .map_err(|e| ApiError::refused(format!("move {} '{m}': {e}", i + 1)))?;
    }
    Ok(s)
}

pub fn side(s: Side) -> &'static str {
    match s {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn cells(c: duel_engine::MoveCells) -> Value {
    json!({ "from": c.from, "to": c.to })
}

/// Everything the page shows of a position.
pub fn position_json(s: &dyn Session) -> Value {
    let board = s.board();
    let moves = s.moves();
    let legal: Vec<Value> = s
        .legal_move_cells()
        .into_iter()
        .map(|(mv, c)| {
            let display = s.display_line(std::slice::from_ref(&mv));
            json!({
                "move": mv,
                "display": display.first().cloned().unwrap_or_else(|| mv.clone()),
                "from": c.from,
                "to": c.to,
            })
        })
        .collect();
    let outcome = s.outcome().map(|_| {
        json!({
            "winner": s.winner().map(side),
            "result": match s.winner() {
                Some(w) => format!("{} wins", s.side_name(w)),
                None => "draw".to_string(),
            },
            "reason": s.end_reason(),
        })
    });
    json!({
        "game": s.game(),
        "evaluator": s.evaluator(),
        "start": s.start_position(),
        "moves": moves,
        "display": s.moves_display(),
        "position": s.position(),
        "to_move": side(s.side_to_move()),
        "side_names": [s.side_name(Side::First), s.side_name(Side::Second)],
        "board": {
            "style": s.board_style().name(),
            "cols": board.cols,
            "rows": board.rows,
            "cells": board.cells.iter().map(|c| c.map(|p| json!({
                "side": side(p.side),
                "kind": p.kind.to_string(),
            }))).collect::<Vec<_>>(),
            "col_labels": board.col_labels,
            "row_labels": board.row_labels,
            "cell_names": board.cell_names,
        },
        "legal": legal,
        "last": s.last_move_cells().map(cells),
        "outcome": outcome,
        "static_eval": s.static_eval(),
        "diagram": s.diagram(),
    })
}

/// `GET /api/games`: every registered game, as the page's menus need it.
pub async fn games() -> Result<Json<Value>, ApiError> {
    off_thread(games_json).await.map(Json)
}

fn games_json() -> Result<Value, ApiError> {
    let mut out = Vec::new();
    for g in duel_engine::games() {
        let s = duel_engine::open(g.name, None)?;
        out.push(json!({
            "name": g.name,
            "title": g.title,
            "aliases": g.aliases,
            "notation": g.notation,
            "variants": g.variants,
            "protocols": g.protocols,
            "evaluators": g.evaluators,
            "style": s.board_style().name(),
            "side_names": [s.side_name(Side::First), s.side_name(Side::Second)],
            "default_depth": s.default_depth(),
            "record": s.record_extension(),
        }));
    }
    Ok(json!({ "games": out }))
}

/// `POST /api/position`.
pub async fn position(Body(r): Body<GameRef>) -> Result<Json<Value>, ApiError> {
    off_thread(move || Ok(position_json(open(&r)?.as_ref())))
        .await
        .map(Json)
}

game_request!(
    /// A move to play on a position.
    MoveReq {
        #[serde(rename = "move")]
        mv: String,
    }
);

/// `POST /api/move`: the position after the move, or 422 with the game's reason.
pub async fn play(Body(r): Body<MoveReq>) -> Result<Json<Value>, ApiError> {
    off_thread(move || {
        let mut s = open(&r.at())?;
        if let Some(o) = s.outcome() {
            return Err(duel_engine::EngineError::GameOver(o).into());
        }
        s.play(&r.mv)
            .map_err(|e| ApiError::refused(format!("'{}': {e}", r.mv)))?;
        Ok(position_json(s.as_ref()))
    })
    .await
    .map(Json)
}

game_request!(
    /// A game to write as a record.
    RecordReq {
        /// The first and second players' names.
        #[serde(default)]
        names: Option<[String; 2]>,
    }
);

/// `POST /api/record`: the game in its own format (PGN, GGF, a move list).
pub async fn record(Body(r): Body<RecordReq>) -> Result<Json<Value>, ApiError> {
    off_thread(move || record_json(&r)).await.map(Json)
}

fn record_json(r: &RecordReq) -> Result<Value, ApiError> {
    let s = open(&r.at())?;
    let names = r.names.clone().unwrap_or_else(|| {
        [
            s.side_name(Side::First).to_string(),
            s.side_name(Side::Second).to_string(),
        ]
    });
    let info = RecordInfo {
        names: [&names[0], &names[1]],
        ..RecordInfo::default()
    };
    let text = s.record(&info).unwrap_or_else(|| s.position());
    Ok(json!({
        "extension": s.record_extension(),
        "text": text,
    }))
}

/// A record to read.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadReq {
    pub game: String,
    #[serde(default)]
    pub eval: Option<String>,
    pub text: String,
}

/// `POST /api/load`: reads a record; the answer is the position at its end, with its start
/// and moves so that the page can take them back.
pub async fn load(Body(r): Body<LoadReq>) -> Result<Json<Value>, ApiError> {
    off_thread(move || {
        let mut s = duel_engine::open(&r.game, r.eval.as_deref())?;
        s.load_record(&r.text)?;
        Ok(position_json(s.as_ref()))
    })
    .await
    .map(Json)
}
