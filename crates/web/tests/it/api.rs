//! Every endpoint of the JSON API, good input and bad, through the real router.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use duel_web::{router, Caps, ServeConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::common::{request, with_caps};

fn app() -> axum::Router {
    router(&ServeConfig::default())
}

pub async fn send(app: &axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert!(
        kind.starts_with("application/json"),
        "{status}: not JSON ({kind}): {}",
        String::from_utf8_lossy(&bytes)
    );
    (status, serde_json::from_slice(&bytes).unwrap())
}

pub async fn post(app: &axum::Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req = request("POST", path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, req).await
}

pub async fn get(app: &axum::Router, path: &str) -> (StatusCode, Value) {
    send(app, request("GET", path).body(Body::empty()).unwrap()).await
}

/// A refusal: the status and a JSON error whose message contains `words`.
pub fn refused(got: (StatusCode, Value), status: StatusCode, words: &str) {
    assert_eq!(got.0, status, "{}", got.1);
    let msg = got.1["error"].as_str().expect("an error message");
    assert!(
        msg.to_lowercase().contains(&words.to_lowercase()),
        "'{msg}' does not say '{words}'"
    );
}

#[tokio::test]
async fn games_lists_every_registered_game_with_its_board_style() {
    let (status, v) = get(&app(), "/api/games").await;
    assert_eq!(status, StatusCode::OK);
    let games = v["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    let registered: Vec<&str> = duel_engine::games().iter().map(|g| g.name).collect();
    assert_eq!(names, registered);
    for g in games {
        assert!(g["style"].is_string() && !g["evaluators"].as_array().unwrap().is_empty());
        assert_eq!(g["side_names"].as_array().unwrap().len(), 2);
    }
}

#[tokio::test]
async fn every_game_has_a_drawable_start_position() {
    let app = app();
    for g in duel_engine::games() {
        let (status, v) = post(&app, "/api/position", json!({ "game": g.name })).await;
        assert_eq!(status, StatusCode::OK, "{}: {v}", g.name);
        let b = &v["board"];
        let cells = b["cells"].as_array().unwrap().len() as u64;
        assert_eq!(
            cells,
            b["cols"].as_u64().unwrap() * b["rows"].as_u64().unwrap()
        );
        assert!(!v["legal"].as_array().unwrap().is_empty(), "{}", g.name);
        for m in v["legal"].as_array().unwrap() {
            if let Some(to) = m["to"].as_u64() {
                assert!(to < cells, "{}: {m}", g.name);
            }
        }
        assert!(v["outcome"].is_null());
    }
}

#[tokio::test]
async fn a_move_is_played_or_refused_with_the_reason() {
    let app = app();
    let (status, v) = post(
        &app,
        "/api/move",
        json!({ "game": "chess", "moves": ["e2e4"], "move": "e7e5" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["e2e4", "e7e5"]));
    assert_eq!(v["display"], json!(["e4", "e5"]));
    // e7e5 went from a7's row 1 cell 12 to 28.
    assert_eq!(v["last"], json!({ "from": 12, "to": 28 }));
    assert_eq!(v["to_move"], "first");

    refused(
        post(
            &app,
            "/api/move",
            json!({ "game": "chess", "moves": ["e2e4"], "move": "e2e4" }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "e2e4",
    );
    refused(
        post(
            &app,
            "/api/move",
            json!({ "game": "tictactoe", "moves": ["5"], "move": "5" }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "'5'",
    );
    refused(
        post(
            &app,
            "/api/position",
            json!({ "game": "connect4", "moves": ["4", "9"] }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "move 2 '9'",
    );
    refused(
        post(&app, "/api/position", json!({ "game": "go" })).await,
        StatusCode::BAD_REQUEST,
        "unknown game",
    );
    refused(
        post(
            &app,
            "/api/position",
            json!({ "game": "chess", "position": "8/8 w" }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "",
    );
    refused(
        post(
            &app,
            "/api/position",
            json!({ "game": "chess", "eval": "magic" }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "magic",
    );
    // A finished game takes no move.
    let won = json!(["1", "4", "2", "5", "3"]);
    let (_, v) = post(
        &app,
        "/api/position",
        json!({ "game": "tictactoe", "moves": won }),
    )
    .await;
    assert!(v["outcome"]["winner"].is_string(), "{v}");
    refused(
        post(
            &app,
            "/api/move",
            json!({ "game": "tictactoe", "moves": won, "move": "9" }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over",
    );
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = app();
    let bad_json = request("POST", "/api/position")
        .header("content-type", "application/json")
        .body(Body::from("{\"game\": "))
        .unwrap();
    let (status, v) = send(&app, bad_json).await;
    assert!(
        status.is_client_error() && v["error"].is_string(),
        "{status} {v}"
    );

    let no_type = request("POST", "/api/position")
        .body(Body::from("{\"game\": \"chess\"}"))
        .unwrap();
    refused(
        send(&app, no_type).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "content-type",
    );

    let (status, v) = post(
        &app,
        "/api/position",
        json!({ "game": "chess", "colour": 1 }),
    )
    .await;
    assert!(status.is_client_error(), "{status}");
    assert!(v["error"].as_str().unwrap().contains("colour"), "{v}");

    let (status, v) = post(&app, "/api/position", json!({ "game": 7 })).await;
    assert!(status.is_client_error() && v["error"].is_string(), "{v}");

    let huge = json!({ "game": "chess", "position": "x".repeat(100_000) });
    refused(
        post(&app, "/api/position", huge).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too large",
    );
    refused(
        get(&app, "/api/nothing").await,
        StatusCode::NOT_FOUND,
        "/api/nothing",
    );
    refused(
        get(&app, "/api/position").await,
        StatusCode::METHOD_NOT_ALLOWED,
        "GET",
    );
    refused(
        get(&app, "/assets/secret.txt").await,
        StatusCode::NOT_FOUND,
        "secret.txt",
    );
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_from_the_binary() {
    let app = app();
    for (path, kind) in [
        ("/", "text/html"),
        ("/assets/app.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
    ] {
        let res = app
            .clone()
            .oneshot(request("GET", path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let got = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(got.starts_with(kind), "{path}: {got}");
    }
    assert!(duel_web::page_weight() > 10_000);
}

/// The events of a search stream, read until `done` or `error`: (name, data) pairs.
pub async fn events(res: axum::response::Response) -> Vec<(String, Value)> {
    let mut body = res.into_body();
    let mut text = String::new();
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.unwrap();
        if let Some(data) = frame.data_ref() {
            text.push_str(std::str::from_utf8(data).unwrap());
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let mut name = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event:") {
                    name = n.trim().to_string();
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.trim_start());
                }
            }
            if !data.is_empty() {
                let last = name == "done" || name == "error";
                out.push((name, serde_json::from_str(&data).unwrap()));
                if last {
                    return out;
                }
            }
        }
    }
    out
}

async fn search(app: &axum::Router, query: &str) -> axum::response::Response {
    app.clone()
        .oneshot(
            request("GET", format!("/api/search?{query}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap()
}

#[tokio::test]
async fn a_search_streams_each_iteration_then_its_move() {
    let app = app();
    let res = search(&app, "game=tictactoe&moves=5+1&depth=4").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let ev = events(res).await;
    assert_eq!(ev[0].0, "start");
    let infos: Vec<&Value> = ev.iter().filter(|e| e.0 == "info").map(|e| &e.1).collect();
    assert_eq!(
        infos
            .iter()
            .map(|i| i["depth"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    let (name, done) = ev.last().unwrap();
    assert_eq!(name, "done");
    assert!(done["best"].is_string() && !done["pv"].as_array().unwrap().is_empty());
    assert!(done["nodes"].as_u64().unwrap() > 0);

    // MultiPV gives several lines.
    let ev = events(search(&app, "game=connect4&depth=3&multipv=3").await).await;
    assert_eq!(ev.last().unwrap().1["lines"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn searches_beyond_the_caps_or_of_bad_positions_are_refused() {
    let app = with_caps(Caps {
        max_depth: 10,
        max_nodes: 1000,
        max_time: Duration::from_secs(5),
        ..Caps::default()
    });
    for (query, words) in [
        (
            "game=chess&depth=11",
            "depth 11 is above the server's cap of 10",
        ),
        ("game=chess&nodes=1001", "cap of 1000"),
        ("game=chess&time=6000", "cap of 5000 ms"),
        ("game=chess&depth=0", "at least 1"),
        ("game=chess&multipv=0", "multipv"),
        ("game=chess&threads=999", "threads"),
        ("game=chess&depth=x", "depth"),
        ("game=chess&moves=e2e5", "e2e5"),
        ("game=chess&bogus=1", "bogus"),
        ("depth=3", "game"),
    ] {
        let res = search(&app, query).await;
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(status.is_client_error(), "{query}: {status}");
        assert!(v["error"].as_str().unwrap().contains(words), "{query}: {v}");
    }
}

/// Reads events until the `start` one and returns the search's id and the rest of the body.
pub async fn started(res: axum::response::Response) -> (u64, axum::body::Body) {
    let mut body = res.into_body();
    let mut text = String::new();
    loop {
        let frame = body.frame().await.unwrap().unwrap();
        if let Some(d) = frame.data_ref() {
            text.push_str(std::str::from_utf8(d).unwrap());
        }
        if let Some(i) = text.find("data:") {
            if let Some(end) = text[i..].find('\n') {
                let v: Value = serde_json::from_str(text[i + 5..i + end].trim()).unwrap();
                return (v["id"].as_u64().unwrap(), body);
            }
        }
    }
}

#[tokio::test]
async fn stop_ends_a_search_with_its_best_move_so_far() {
    let app = app();
    let res = search(&app, "game=chess").await;
    let (id, body) = started(res).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    let (status, v) = post(&app, "/api/stop", json!({ "id": id })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let ev = events(axum::response::Response::new(body)).await;
    let (name, done) = ev.last().unwrap();
    assert_eq!(name, "done");
    assert!(done["best"].is_string());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    refused(
        post(&app, "/api/stop", json!({ "id": id })).await,
        StatusCode::NOT_FOUND,
        "no search",
    );
}

#[tokio::test]
async fn a_search_whose_page_goes_away_stops_and_frees_its_slot() {
    // One slot: a second search is refused while the first runs, and served once the first
    // page is gone.
    let app = with_caps(Caps {
        max_searches: 1,
        ..Caps::default()
    });
    let (_, body) = started(search(&app, "game=chess").await).await;
    freed_when_dropped(&app, body).await;
}

/// With the server's one search slot held by the stream `body`: another search is refused,
/// and once the stream is dropped (its page gone) the slot is free again within 5 s.
pub async fn freed_when_dropped(app: &axum::Router, body: axum::body::Body) {
    let tiny = json!({ "game": "tictactoe", "depth": 1 });
    refused(
        post(app, "/api/compare", tiny.clone()).await,
        StatusCode::TOO_MANY_REQUESTS,
        "running already",
    );
    drop(body);
    let t = Instant::now();
    while post(app, "/api/compare", tiny.clone()).await.0 != StatusCode::OK {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the search did not stop"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn two_pages_search_at_once_without_interfering() {
    let app = app();
    // Page A analyses chess with no limit; page B searches tic-tac-toe to the end meanwhile,
    // and gets the same answer as when it searches alone.
    let alone = events(search(&app, "game=tictactoe&depth=9").await).await;
    let (_, a_body) = started(search(&app, "game=chess").await).await;
    let both = events(search(&app, "game=tictactoe&depth=9").await).await;
    let pick = |ev: &[(String, Value)]| {
        let d = &ev.last().unwrap().1;
        (d["value"].clone(), d["best"].clone(), d["nodes"].clone())
    };
    assert_eq!(pick(&alone), pick(&both));
    // A is still running: it has not been stopped by B.
    let mut a_body = a_body;
    let frame = tokio::time::timeout(Duration::from_secs(30), a_body.frame())
        .await
        .expect("A still streams")
        .unwrap()
        .unwrap();
    assert!(frame.is_data());
}

#[tokio::test]
async fn compare_puts_the_algorithms_side_by_side_and_refuses_a_huge_one() {
    let app = app();
    let (status, v) = post(
        &app,
        "/api/compare",
        json!({ "game": "tictactoe", "depth": 3 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), duel_engine::Algorithm::ALL.len());
    let minimax = rows[0]["value"].clone();
    for r in rows.iter().filter(|r| r["exact"] == json!(true)) {
        assert_eq!(r["value"], minimax, "{}", r["algorithm"]);
    }
    let nodes = |name: &str| {
        rows.iter().find(|r| r["algorithm"] == name).unwrap()["nodes"]
            .as_u64()
            .unwrap()
    };
    assert!(nodes("alphabeta") < nodes("minimax"));

    refused(
        post(
            &app,
            "/api/compare",
            json!({ "game": "gomoku", "depth": 4 }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "choose a smaller depth",
    );
    refused(
        post(
            &app,
            "/api/compare",
            json!({ "game": "chess", "depth": 2, "algorithms": ["minimax", "quantum"] }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "quantum",
    );
}

fn child<'a>(node: &'a Value, mv: &str) -> &'a Value {
    node["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["move"] == mv)
        .unwrap_or_else(|| panic!("no child {mv}"))
}

#[tokio::test]
async fn the_tree_reproduces_the_textbook_figure_and_marks_the_cuts() {
    let app = app();
    // The founding text's figure: tic-tac-toe from the empty board to depth 2 with
    // f(p) = open lines for MAX minus open lines for MIN: X in the centre is worth +1,
    // in a corner -1, on an edge -2.
    let (status, v) = post(
        &app,
        "/api/tree",
        json!({ "game": "tictactoe", "depth": 2, "algorithm": "minimax" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let root = &v["tree"];
    assert_eq!(root["value_text"], "+1");
    assert_eq!(child(root, "5")["value_text"], "+1");
    assert_eq!(child(root, "1")["value_text"], "-1");
    assert_eq!(child(root, "2")["value_text"], "-2");
    assert_eq!(root["children"].as_array().unwrap().len(), 9);
    assert_eq!(v["nodes"], 1 + 9 + 72);
    assert_eq!(child(child(root, "5"), "1")["path"], json!(["5", "1"]));

    // Alpha-beta on the same position: the same value, cut moves marked, windows recorded.
    let (_, ab) = post(
        &app,
        "/api/tree",
        json!({ "game": "tictactoe", "depth": 2, "algorithm": "alphabeta" }),
    )
    .await;
    let root = &ab["tree"];
    assert_eq!(root["value"], v["tree"]["value"]);
    assert_eq!(
        (root["alpha_text"].as_str(), root["beta_text"].as_str()),
        (Some("-inf"), Some("+inf"))
    );
    let cut: usize = root["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["children"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["pruned"] == true)
                .count()
        })
        .sum();
    assert!(cut > 0);
    assert!(ab["nodes"].as_u64().unwrap() < 82);

    refused(
        post(
            &app,
            "/api/tree",
            json!({ "game": "chess", "depth": 4, "algorithm": "minimax" }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "",
    );
    refused(
        post(
            &app,
            "/api/tree",
            json!({ "game": "chess", "depth": 1, "algorithm": "mcts" }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "mcts",
    );
}

#[tokio::test]
async fn records_go_out_and_come_back_in_each_games_format() {
    let app = app();
    for (game, moves, ext) in [
        ("chess", json!(["e2e4", "e7e5", "g1f3"]), "pgn"),
        ("othello", json!(["f5", "d6", "c3"]), "ggf"),
        ("connect4", json!(["4", "4", "3"]), "txt"),
        ("gomoku", json!(["h8", "h9", "i8"]), "txt"),
    ] {
        let (status, r) = post(&app, "/api/record", json!({ "game": game, "moves": moves })).await;
        assert_eq!(status, StatusCode::OK, "{game}: {r}");
        assert_eq!(r["extension"], ext);
        let (status, back) = post(
            &app,
            "/api/load",
            json!({ "game": game, "text": r["text"] }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{game}: {back}");
        assert_eq!(back["moves"], moves, "{game}");
    }
    refused(
        post(
            &app,
            "/api/load",
            json!({ "game": "chess", "text": "1. e4 e5 2. Ke3 *" }),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "",
    );
}

#[tokio::test]
async fn the_graph_has_a_value_for_every_position() {
    let app = app();
    let res = app
        .clone()
        .oneshot(
            request("POST", "/api/evals")
                .header("content-type", "application/json")
                .body(Body::from(
                    json!({ "game": "connect4", "moves": ["4", "4", "3"], "nodes": 2000 })
                        .to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let ev = events(res).await;
    let names: Vec<&str> = ev.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["start", "value", "value", "value", "value", "done"]);
    let done = &ev.last().unwrap().1;
    assert_eq!(done["stopped"], false);
    let values = done["values"].as_array().unwrap();
    assert_eq!(values.len(), 4);
    for (ply, (v, e)) in values.iter().zip(&ev[1..5]).enumerate() {
        assert_eq!(v["ply"], ply);
        assert_eq!(v, &e.1, "each value is streamed as it is found");
    }
    refused(
        post(
            &app,
            "/api/evals",
            json!({ "game": "connect4", "nodes": 0 }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "nodes",
    );
}

#[test]
fn the_default_bind_is_loopback() {
    assert!(ServeConfig::default().host.is_loopback());
}

mod any_input {
    //! Whatever a client sends, the answer is a success or a 4xx with a JSON error: never a
    //! panic, never a 5xx.

    use super::*;
    use proptest::prelude::*;

    fn check(path: &'static str, body: String) -> Result<(), TestCaseError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let app = app();
        let (status, v) = runtime.block_on(async {
            let req = request("POST", path)
                .header("content-type", "application/json")
                .body(Body::from(body.clone()))
                .unwrap();
            send(&app, req).await
        });
        prop_assert!(
            status.is_success() || (status.is_client_error() && v["error"].is_string()),
            "{path} {body}: {status} {v}"
        );
        Ok(())
    }

    fn game() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("tictactoe".to_string()),
            Just("connect4".to_string()),
            Just("othello".to_string()),
            Just("chess".to_string()),
            Just("gomoku".to_string()),
            Just("gomoku:renju:7".to_string()),
            "[a-z:0-9]{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn positions_and_moves(
            game in game(),
            position in "[a-h1-9/ wbKQRNPkqrnp,-]{0,24}",
            moves in proptest::collection::vec("[a-o0-9]{0,4}", 0..6),
            mv in "[a-z0-9=]{0,6}",
        ) {
            let at = json!({ "game": game, "position": position, "moves": moves });
            check("/api/position", at.to_string())?;
            let mut with_move = at.clone();
            with_move["move"] = json!(mv);
            check("/api/move", with_move.to_string())?;
            check("/api/record", at.to_string())?;
        }

        #[test]
        fn records_and_searches(
            game in game(),
            text in "[ -~\n]{0,80}",
            depth in 0u32..4,
            algorithm in "(minimax|alphabeta|pvs|[a-z]{0,6})",
        ) {
            check("/api/load", json!({ "game": game, "text": text }).to_string())?;
            let at = json!({ "game": game, "depth": depth, "algorithm": algorithm });
            check("/api/tree", at.to_string())?;
            let at = json!({ "game": game, "depth": depth, "algorithms": [algorithm] });
            check("/api/compare", at.to_string())?;
        }

        #[test]
        fn bodies_that_are_not_requests(body in "[ -~]{0,60}") {
            check("/api/position", body.clone())?;
            check("/api/tree", body)?;
        }
    }
}
