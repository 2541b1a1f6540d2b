//! Issue 68, item 6: a request that only reads a game (its positions, a move, a record) makes
//! no transposition table, and a search makes one sized to it. A binary of its own: the count
//! of table bytes read here (`duel_search::tt::bytes_made`) is the whole process's, and the
//! searches of the other tests, run in parallel threads, would add to it.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use duel_search::tt::bytes_made;
use duel_web::{router, ServeConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const MIB: u64 = 1 << 20;

async fn answer(app: &axum::Router, method: &str, path: &str, body: Option<Value>) -> String {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[tokio::test]
async fn reading_a_game_makes_no_table_and_a_search_makes_one_its_size() {
    let app = router(&ServeConfig::default());
    let before = bytes_made();
    answer(&app, "GET", "/api/games", None).await;
    for (game, moves, mv) in [
        ("chess", json!(["e2e4", "e7e5"]), "g1f3"),
        ("xiangqi", json!(["h2e2"]), "h9g7"),
        ("gomoku", json!(["h8"]), "h9"),
        ("othello", json!(["f5"]), "d6"),
        ("connect4", json!(["4"]), "4"),
        ("tictactoe", json!(["5"]), "1"),
    ] {
        let at = json!({ "game": game, "moves": moves });
        answer(&app, "POST", "/api/position", Some(at.clone())).await;
        let mut play = at.clone();
        play["move"] = json!(mv);
        answer(&app, "POST", "/api/move", Some(play)).await;
        let record = answer(&app, "POST", "/api/record", Some(at)).await;
        let text = serde_json::from_str::<Value>(&record).unwrap()["text"].clone();
        answer(
            &app,
            "POST",
            "/api/load",
            Some(json!({ "game": game, "text": text })),
        )
        .await;
    }
    assert_eq!(
        bytes_made() - before,
        0,
        "a request that only reads made a table"
    );

    // A search of 1,000 nodes needs no more than 16 KB: the smallest table, 1 MiB.
    let done = answer(&app, "GET", "/api/search?game=chess&nodes=1000", None).await;
    assert!(done.contains("event: done"), "{done}");
    assert_eq!(bytes_made() - before, MIB);
    // A search held to a depth gets the engine's default table.
    answer(&app, "GET", "/api/search?game=tictactoe&depth=3", None).await;
    assert_eq!(bytes_made() - before, 17 * MIB);
}
