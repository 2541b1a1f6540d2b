//! Issue 68, through the real router: no request can crash the server or hold it, and no page
//! of another site can drive it. The connection-level items (read timeouts, the connection
//! cap, hyper's own refusals) are in `wire.rs`, against a bound server.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, StatusCode};
use duel_web::{router, Access, Caps, ServeConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::api::{events, freed_when_dropped, post, refused, send, started};
use crate::common::{request, with_caps};

/// Item 1: a depth past the cap is refused before anything is sized by it, on both reference
/// endpoints, and the server's own cap applies there as to the engine search.
#[tokio::test]
async fn reference_depths_are_held_to_the_cap() {
    let app = with_caps(Caps {
        max_depth: 5,
        ..Caps::default()
    });
    for depth in [6, 1000, u32::MAX] {
        refused(
            post(
                &app,
                "/api/compare",
                json!({ "game": "tictactoe", "depth": depth, "algorithms": ["minimax"] }),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "cap of 5",
        );
        refused(
            post(
                &app,
                "/api/tree",
                json!({ "game": "tictactoe", "depth": depth, "algorithm": "two-phase" }),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "cap of 5",
        );
    }
    let (status, v) = post(
        &app,
        "/api/compare",
        json!({ "game": "tictactoe", "depth": 5, "algorithms": ["minimax", "two-phase"] }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = post(
        &app,
        "/api/tree",
        json!({ "game": "tictactoe", "moves": ["5", "1", "9"], "depth": 5, "algorithm": "alphabeta" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

fn guarded(access: Access) -> axum::Router {
    router(&ServeConfig {
        access,
        ..ServeConfig::default()
    })
}

/// A GET with these headers (Host first), answered as (status, headers, JSON or null).
async fn ask(
    app: &axum::Router,
    uri: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let mut req = axum::http::Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = res.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (parts.status, parts.headers, v)
}

/// Item 2: the Host must be one of the server's names; the page keeps its own.
#[tokio::test]
async fn only_the_servers_own_names_are_answered() {
    let app = guarded(Access {
        names: vec!["duel.lan".into()],
        token: None,
    });
    for host in [
        "127.0.0.1:8080",
        "localhost:8080",
        "[::1]:8080",
        "192.168.0.7",
        "duel.lan:8080",
        "play.localhost",
    ] {
        let (status, _, v) = ask(&app, "/api/games", &[("host", host)]).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    for host in [
        "evil.example",
        "duel.lan.evil.example:8080",
        "localhost.evil",
    ] {
        for path in ["/", "/api/games", "/assets/app.js", "/nothing"] {
            let (status, _, v) = ask(&app, path, &[("host", host)]).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host}{path}");
            assert!(v["error"]
                .as_str()
                .unwrap()
                .contains(host.split(':').next().unwrap()));
        }
    }
    let (status, _, v) = ask(&app, "/api/games", &[]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

/// Item 2: what an `<iframe>` or `<img>` of another site's page sends is refused before any
/// search starts: with one search slot, the slot is still free afterwards.
#[tokio::test]
async fn another_sites_requests_start_nothing() {
    let app = with_caps(Caps {
        max_searches: 1,
        ..Caps::default()
    });
    let host = ("host", crate::common::HOST);
    for site in ["cross-site", "same-site"] {
        let (status, _, v) = ask(
            &app,
            "/api/search?game=chess&time=15000",
            &[host, ("sec-fetch-site", site), ("sec-fetch-dest", "iframe")],
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
        assert!(v["error"].as_str().unwrap().contains("another site"), "{v}");
    }
    // A browser too old to send Sec-Fetch-Site still sends Origin on a script's request.
    let (status, _, _) = ask(
        &app,
        "/api/search?game=chess&time=15000",
        &[host, ("origin", "http://evil.example")],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The page's own requests, a typed address and a script with no Origin are served.
    let (status, v) = post(
        &app,
        "/api/compare",
        json!({ "game": "tictactoe", "depth": 1 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "the slot is free: {v}");
    for headers in [
        vec![host, ("sec-fetch-site", "same-origin")],
        vec![host, ("sec-fetch-site", "none")],
        vec![host, ("origin", "http://127.0.0.1:8080")],
        vec![host],
    ] {
        let (status, _, v) = ask(&app, "/api/games", &headers).await;
        assert_eq!(status, StatusCode::OK, "{headers:?}: {v}");
    }
    // The page refuses to be framed by another site.
    let (status, headers, _) = ask(&app, "/", &[host]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::CONTENT_SECURITY_POLICY],
        "frame-ancestors 'none'"
    );
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
}

/// Item 2: with a token, every request carries it; the printed address sets a cookie for the
/// page and sends the browser on without it.
#[tokio::test]
async fn a_token_is_asked_of_every_request() {
    let token = "0123456789abcdef0123456789abcdef";
    let app = guarded(Access {
        names: Vec::new(),
        token: Some(token.into()),
    });
    let host = ("host", "192.168.0.7:8080");
    for path in ["/", "/api/games", "/assets/app.js"] {
        let (status, headers, v) = ask(&app, path, &[host]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(v["error"].as_str().unwrap().contains("token"), "{v}");
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
    }
    let wrong = "0123456789abcdef0123456789abcdeX";
    let (status, _, _) = ask(&app, &format!("/api/games?token={wrong}"), &[host]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = ask(
        &app,
        "/api/games",
        &[host, ("authorization", &format!("Bearer {wrong}"))],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The printed address: a cookie for this port, and the same page without the token.
    let (status, headers, _) = ask(&app, &format!("/?game=chess&token={token}"), &[host]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/?game=chess");
    let cookie = headers[header::SET_COOKIE].to_str().unwrap();
    assert_eq!(
        cookie,
        format!("duel_token_8080={token}; Path=/; HttpOnly; SameSite=Strict")
    );
    let jar = format!("other=1; duel_token_8080={token}");
    for path in ["/", "/api/games", "/assets/app.js"] {
        let (status, _, _) = ask(&app, path, &[host, ("cookie", &jar)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
    }
    // Another port's cookie is not this server's.
    let (status, _, _) = ask(
        &app,
        "/api/games",
        &[host, ("cookie", &format!("duel_token_9090={token}"))],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Scripts: a header, or the query, which the handlers never see (they refuse fields they
    // do not know).
    let bearer = format!("Bearer {token}");
    let (status, _, v) = ask(&app, "/api/games", &[host, ("authorization", &bearer)]).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let res = app
        .clone()
        .oneshot(
            axum::http::Request::get(format!("/api/search?game=tictactoe&token={token}&depth=3"))
                .header("host", host.1)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(events(res).await.last().unwrap().0, "done");
}

/// The graph of a chess game of `moves` knight moves at a million nodes a position: long
/// enough to be stopped, timed out or dropped in the middle.
async fn long_graph(app: &axum::Router, moves: usize) -> axum::response::Response {
    let body = json!({ "game": "chess", "moves": knights(moves), "nodes": 1_000_000 });
    let req = request("POST", "/api/evals")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    app.clone().oneshot(req).await.unwrap()
}

/// A chess game of `n` moves, knights out and back, for graphs longer than they are quick.
fn knights(n: usize) -> Vec<&'static str> {
    ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(n)
        .copied()
        .collect()
}

/// Item 3: the graph's searches stop at `/api/stop`, with what they found so far.
#[tokio::test]
async fn the_graph_stops_when_asked() {
    let app = with_caps(Caps {
        max_searches: 1,
        ..Caps::default()
    });
    let (id, body) = started(long_graph(&app, 200).await).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    let (status, v) = post(&app, "/api/stop", json!({ "id": id })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let ev = events(axum::response::Response::new(body)).await;
    let (name, done) = ev.last().unwrap();
    assert_eq!(name, "done");
    assert_eq!(done["stopped"], true);
    assert!(done["values"].as_array().unwrap().len() < 201, "{done}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

/// Item 3: a graph whose page goes away frees its slot, as a search does.
#[tokio::test]
async fn a_graph_whose_page_goes_away_frees_its_slot() {
    let app = with_caps(Caps {
        max_searches: 1,
        ..Caps::default()
    });
    let (_, body) = started(long_graph(&app, 400).await).await;
    freed_when_dropped(&app, body).await;
}

/// Item 3: the server's time cap holds over the whole graph, and its node cap over all its
/// positions together.
#[tokio::test]
async fn the_graph_keeps_to_the_time_and_node_caps() {
    let app = with_caps(Caps {
        max_time: Duration::from_millis(700),
        max_nodes: 50_000_000,
        ..Caps::default()
    });
    let t = Instant::now();
    let ev = events(long_graph(&app, 40).await).await;
    let (name, done) = ev.last().unwrap();
    assert_eq!(name, "done", "{ev:?}");
    assert_eq!(done["stopped"], true, "{done}");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    refused(
        post(
            &app,
            "/api/evals",
            json!({ "game": "chess", "moves": knights(50), "nodes": 1_000_000 }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "51000000 in all, above the server's cap of 50000000",
    );
}

/// Item 4: the comparison that took 4.1 GB (every algorithm, Gomoku 22x22, depth 2) is within
/// the caps and runs, its two-phase row holding the Minimax tree's nodes; one ply deeper is
/// refused by name before it starts.
#[tokio::test]
async fn the_widest_comparison_allowed_runs_and_a_wider_one_is_refused() {
    let app = crate::common::with_caps(Caps::default());
    let (status, v) = post(
        &app,
        "/api/compare",
        json!({ "game": "gomoku:freestyle:22", "depth": 2, "algorithms": ["minimax", "two-phase"] }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["nodes"], 1 + 484 + 484 * 483);
    assert_eq!(rows[1]["nodes"], rows[0]["nodes"]);
    assert_eq!(rows[1]["value"], rows[0]["value"]);
    refused(
        post(
            &app,
            "/api/compare",
            json!({ "game": "gomoku:freestyle:22", "depth": 3 }),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "cap of 2000000 nodes",
    );
}

/// Item 7: every refusal of the router is JSON with the status docs/API.md gives: a body of
/// the wrong shape is a 400 like any unreadable one, and an asset name that does not decode
/// is a 404.
#[tokio::test]
async fn refusals_are_json_with_the_documented_status() {
    let app = crate::common::with_caps(Caps::default());
    for body in [
        json!({ "game": 7 }),
        json!({ "game": "chess", "colour": "white" }),
        json!({ "game": "chess", "moves": "e2e4" }),
    ] {
        refused(
            post(&app, "/api/position", body).await,
            StatusCode::BAD_REQUEST,
            "",
        );
    }
    let req = request("GET", "/assets/%FF").body(Body::empty()).unwrap();
    refused(send(&app, req).await, StatusCode::NOT_FOUND, "%FF");
}

/// Item 8: a record names its players in every game's format: PGN's Seven Tag Roster for
/// chess and xiangqi, and over Connect Four's columns, as GGF does for Othello.
#[tokio::test]
async fn records_carry_the_players_names() {
    let app = crate::common::with_caps(Caps::default());
    for (game, moves, want) in [
        (
            "chess",
            json!(["e2e4"]),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n",
        ),
        (
            "xiangqi",
            json!(["h2e2"]),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [Red \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n",
        ),
        ("othello", json!(["f5"]), "PB[Ann]PW[Bo]"),
        (
            "connect4",
            json!(["4", "3"]),
            "[Round \"?\"]\n[X \"Ann\"]\n[O \"Bo\"]\n[Result \"*\"]\n\n43 *\n",
        ),
    ] {
        let (status, r) = post(
            &app,
            "/api/record",
            json!({ "game": game, "moves": moves, "names": ["Ann", "Bo"] }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let text = r["text"].as_str().unwrap();
        assert!(text.contains(want), "{game}: {text}");
    }
    // Without names, the sides' own.
    let (_, r) = post(&app, "/api/record", json!({ "game": "chess" })).await;
    assert!(
        r["text"]
            .as_str()
            .unwrap()
            .contains("[White \"White\"]\n[Black \"Black\"]"),
        "{r}"
    );
}
