//! The web API's JSON request bodies, through the real router: `POST /api/position`,
//! `/api/move`, `/api/record` and `/api/load` (the endpoints that read positions, moves and
//! records and run no search). Input: a byte choosing the endpoint, then the body. Any body
//! must get an answer: a 200, or a 4xx naming what is wrong; never a 5xx (or a panic).
#![no_main]

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::Request;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a tokio runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let path = ["/api/position", "/api/move", "/api/record", "/api/load"][usize::from(which % 4)];
    let app = duel_web::router(&duel_web::ServeConfig::default());
    let req = Request::post(path)
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a request");
    let res = runtime()
        .block_on(app.oneshot(req))
        .expect("the router answers");
    assert!(
        !res.status().is_server_error(),
        "{path}: {} for '{}'",
        res.status(),
        String::from_utf8_lossy(body)
    );
});
