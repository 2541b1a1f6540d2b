//! The page in a real headless Chromium, driven through chromedriver: what a person does with
//! the mouse, checked on what the page shows.
//!
//! The tests need Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them each test says so and passes, unless `DUEL_BROWSER_TESTS=require` (CI sets it), when a
//! missing browser fails. A failing test leaves a screenshot in `target/browser-shots/`;
//! `DUEL_SCREENSHOTS=DIR` makes the tests save the README's pictures of each view there.

use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use duel_web::{Access, Bound, Caps, ServeConfig};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

type Res<T = ()> = Result<T, String>;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether the browser is here; without it, a test passes with a note unless CI requires it.
fn browser_present() -> bool {
    let present = Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists();
    if !present {
        let required = std::env::var("DUEL_BROWSER_TESTS").is_ok_and(|v| v == "require");
        assert!(
            !required,
            "DUEL_BROWSER_TESTS=require but {CHROMEDRIVER} or {CHROMIUM} is missing \
             (apt-get install chromium chromium-driver)"
        );
        eprintln!("skipped: no {CHROMEDRIVER} (apt-get install chromium chromium-driver)");
    }
    present
}

fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, port }
}

/// A served site, a browser on it, and the test's name for its screenshots.
struct Page {
    client: Client,
    base: String,
    _driver: Driver,
    _profile: PathBuf,
}

/// The server `config` (on a free port), and Chromium with `args` besides the usual ones.
async fn open(name: &'static str, config: ServeConfig, args: &[String]) -> Page {
    let bound = Bound::bind(&ServeConfig { port: 0, ..config })
        .await
        .unwrap();
    let addr = bound.addr().unwrap();
    tokio::spawn(bound.serve(std::future::pending()));
    let driver = start_driver();
    let profile = std::env::temp_dir().join(format!("duel-chromium-{}-{name}", std::process::id()));
    let mut chromium_args: Vec<String> = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1300,1000",
    ]
    .map(String::from)
    .to_vec();
    chromium_args.push(format!("--user-data-dir={}", profile.display()));
    chromium_args.extend(args.iter().cloned());
    let caps = json!({
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": chromium_args,
        }
    });
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps.as_object().unwrap().clone())
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a chromium session");
    Page {
        client,
        base: format!("http://{addr}"),
        _driver: driver,
        _profile: profile,
    }
}

impl Page {
    async fn goto(&self, query: &str) -> Res {
        self.client
            .goto(&format!("{}/{query}", self.base))
            .await
            .map_err(err)?;
        self.wait_js(
            "return document.body.dataset.ready === 'true'",
            "the page to start",
        )
        .await
    }

    /// Waits until `script` returns true.
    async fn wait_js(&self, script: &str, what: &str) -> Res {
        let t = Instant::now();
        loop {
            let v = self.client.execute(script, vec![]).await.map_err(err)?;
            if v == json!(true) {
                return Ok(());
            }
            ensure!(
                t.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until at least `n` elements match `css`.
    async fn wait_count(&self, css: &str, n: usize, what: &str) -> Res {
        let script = format!("return document.querySelectorAll({css:?}).length >= {n}");
        self.wait_js(&script, what).await
    }

    /// Waits until the text of the element `id` starts with `prefix`.
    async fn wait_starts(&self, id: &str, prefix: &str, what: &str) -> Res {
        let script =
            format!("return document.getElementById({id:?}).textContent.startsWith({prefix:?})");
        self.wait_js(&script, what).await
    }

    /// Waits for the page to refuse something, and returns what it said.
    async fn refusal(&self) -> Res<String> {
        self.wait_starts("message", "Refused", "the refusal")
            .await?;
        self.text("#message").await
    }

    async fn text(&self, css: &str) -> Res<String> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(err)?
            .text()
            .await
            .map_err(err)
    }

    async fn click(&self, css: &str) -> Res {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("{css}: {e}"))?
            .click()
            .await
            .map_err(|e| format!("{css}: {e}"))
    }

    async fn select(&self, css: &str, value: &str) -> Res {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(err)?
            .select_by_value(value)
            .await
            .map_err(err)?;
        Ok(())
    }

    async fn set_value(&self, css: &str, value: &str) -> Res {
        self.client
            .execute(
                "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
                 e.dispatchEvent(new Event('change'));",
                vec![json!(css), json!(value)],
            )
            .await
            .map_err(err)?;
        Ok(())
    }

    async fn count(&self, css: &str) -> Res<usize> {
        Ok(self
            .client
            .find_all(Locator::Css(css))
            .await
            .map_err(err)?
            .len())
    }

    async fn shot(&self, path: &Path) {
        if let Ok(png) = self.client.screenshot().await {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = std::fs::write(path, png);
        }
    }

    /// Saves the README's picture `file` when DUEL_SCREENSHOTS names a folder.
    async fn picture(&self, file: &str) {
        if let Ok(dir) = std::env::var("DUEL_SCREENSHOTS") {
            self.shot(&PathBuf::from(dir).join(file)).await;
        }
    }
}

/// Runs `body` on a fresh page; a failure leaves a screenshot and fails the test.
async fn run<F, Fut>(name: &'static str, caps: Caps, body: F)
where
    F: FnOnce(&'static Page) -> Fut,
    Fut: Future<Output = Res>,
{
    let config = ServeConfig {
        caps,
        ..ServeConfig::default()
    };
    run_with(name, config, &[], body).await;
}

/// [`run`] with a server of `config` and Chromium started with `args`.
async fn run_with<F, Fut>(name: &'static str, config: ServeConfig, args: &[String], body: F)
where
    F: FnOnce(&'static Page) -> Fut,
    Fut: Future<Output = Res>,
{
    if !browser_present() {
        return;
    }
    // The page lives for the whole test; leaking it lets the body borrow it for 'static.
    let page: &'static Page = Box::leak(Box::new(open(name, config, args).await));
    let result = body(page).await;
    if let Err(e) = result {
        let shot = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/browser-shots")
            .join(format!("{name}.png"));
        page.shot(&shot).await;
        let _ = page.client.clone().close().await;
        panic!("{name}: {e} (screenshot: {})", shot.display());
    }
    let _ = page.client.clone().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_tic_tac_toe_game_by_clicks() {
    run("tictactoe_game", Caps::default(), |p| async move {
        p.goto("?game=tictactoe").await?;
        p.set_value("#limit-value", "9").await?;
        for _ in 0..5 {
            p.wait_js(
                "const s = document.getElementById('status').textContent; \
                 return s.startsWith('Game over') || (s.endsWith('to move') && !s.includes('thinking'))",
                "the person's turn",
            )
            .await?;
            if p.text("#status").await?.starts_with("Game over") {
                break;
            }
            // The first cell the game offers as a move, asked of the API as the page would.
            let free = p
                .client
                .execute(
                    "const r = await fetch('/api/position', {method: 'POST', headers: \
                     {'Content-Type': 'application/json'}, body: JSON.stringify({game: \
                     'tictactoe', moves: [...document.querySelectorAll('#movelist li')].map(l => \
                     l.textContent)})}); const d = await r.json(); return d.legal[0].to;",
                    vec![],
                )
                .await
                .map_err(err)?;
            let before = p.count("#movelist li").await?;
            p.click(&format!("#cell-{}", free.as_u64().ok_or("no free cell")?))
                .await?;
            p.wait_js(
                &format!(
                    "return document.querySelectorAll('#movelist li').length > {before}"
                ),
                "the move to be played",
            )
            .await?;
        }
        p.wait_starts("status", "Game over", "the end of the game").await?;
        // Perfect play on both sides draws; the engine never loses.
        let status = p.text("#status").await?;
        ensure!(
            status.contains("draw") || status.contains("O wins"),
            "the engine at full depth lost: {status}"
        );
        // Engine against engine: both sides at full depth draw.
        p.select("#player-first", "engine").await?;
        p.click("#new").await?;
        // The engines pause between moves: the new game is seen going on before its end.
        p.wait_js(
            "return !document.getElementById('status').textContent.startsWith('Game over')",
            "the new game",
        )
        .await?;
        p.wait_starts("status", "Game over", "the engines' game").await?;
        let status = p.text("#status").await?;
        ensure!(status.contains("draw"), "engine against engine: {status}");
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_move_by_drag_and_by_clicks_and_the_engine_answers() {
    run("chess_move", Caps::default(), |p| async move {
        p.goto("?game=chess").await?;
        p.set_value("#limit-value", "3").await?;
        // e2 (cell 52) dragged to e4 (cell 36).
        let from = p.client.find(Locator::Css("#cell-52")).await.map_err(err)?;
        let to = p.client.find(Locator::Css("#cell-36")).await.map_err(err)?;
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: from,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: to,
                duration: Some(Duration::from_millis(100)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        p.client.perform_actions(drag).await.map_err(err)?;
        p.wait_count("#movelist li", 2, "the engine's answer to e4")
            .await?;
        ensure!(
            p.text("#movelist li:first-child").await? == "e4",
            "the first move is not e4"
        );
        // g1 (62) to f3 (45) by two clicks: the targets are shown after the first.
        p.click("#cell-62").await?;
        ensure!(
            p.count("#target-45").await? == 1,
            "f3 is not shown as a target"
        );
        p.picture("play.png").await;
        p.click("#cell-45").await?;
        p.wait_count("#movelist li", 4, "the engine's answer to Nf3")
            .await?;
        ensure!(
            p.text("#movelist li:nth-child(3)").await? == "Nf3",
            "the third move is not Nf3"
        );
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_is_refused_with_its_reason() {
    run("illegal_move", Caps::default(), |p| async move {
        p.goto("?game=chess").await?;
        // e2 to e5: the pawn cannot go there; the server's reason is shown.
        p.click("#cell-52").await?;
        p.click("#cell-28").await?;
        let msg = p.refusal().await?;
        ensure!(
            msg.contains("e2e5"),
            "the refusal does not name the move: {msg}"
        );
        ensure!(p.count("#movelist li").await? == 0, "a move was played");
        // Tic-tac-toe: a taken cell.
        p.goto("?game=tictactoe").await?;
        p.select("#player-second", "human").await?;
        p.click("#cell-4").await?;
        p.wait_count("#movelist li", 1, "the move").await?;
        p.click("#cell-4").await?;
        let msg = p.refusal().await?;
        ensure!(
            msg.contains("'5'"),
            "the refusal does not name the cell: {msg}"
        );
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_lines_appear_live_and_stop() {
    run("analysis", Caps::default(), |p| async move {
        p.goto("?game=chess").await?;
        p.click("#tab-analyse").await?;
        p.set_value("#multipv", "2").await?;
        p.click("#analyse-start").await?;
        p.wait_count("#analysis tbody tr", 4, "analysis lines")
            .await?;
        let first_ms = p
            .client
            .execute(
                "return document.getElementById('analysis-state').dataset.firstLineMs",
                vec![],
            )
            .await
            .map_err(err)?;
        eprintln!("first analysis line after {first_ms} ms");
        p.picture("analyse.png").await;
        // A move while Analyse is on: the new position is analysed, its lines start with a
        // move of the side now to move.
        p.click("#cell-52").await?;
        p.click("#cell-36").await?;
        p.wait_js(
            "const row = document.querySelector('#analysis tbody tr'); \
             if (window.duelState.moves.length !== 1 || !row) return false; \
             const first = row.lastChild.textContent.split(' ')[0]; \
             return window.duelState.pos.legal.some(m => m.display === first)",
            "lines of the position after e4",
        )
        .await?;
        p.click("#analyse-stop").await?;
        p.wait_starts("analysis-state", "Done", "the search to stop")
            .await?;
        let rows = p.count("#analysis tbody tr").await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        ensure!(
            p.count("#analysis tbody tr").await? == rows,
            "lines still arrive after the stop"
        );
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tree_view_shows_the_cut_branches_and_steps_through_the_search() {
    run("tree", Caps::default(), |p| async move {
        p.goto("?game=tictactoe").await?;
        p.click("#tab-learn").await?;
        p.set_value("#learn-depth", "2").await?;
        p.click("#compare-run").await?;
        p.wait_count("#compare-table tbody tr", 9, "the comparison")
            .await?;
        p.select("#tree-algo", "minimax").await?;
        p.click("#tree-run").await?;
        p.wait_js("return !!document.querySelector('#tree-root')", "the tree")
            .await?;
        // The founding text's figure: X in the centre +1.
        let centre = p
            .text("#tree-root > li > ul > li:nth-child(5) > .row")
            .await?;
        ensure!(centre.contains("+1"), "the centre is not +1: {centre}");
        ensure!(
            p.count(".tree-node.cut").await? == 0,
            "minimax cut something"
        );
        // The figure drawn: 1 + 9 + 72 nodes, MAX as squares, MIN as circles.
        ensure!(
            p.count("svg.tree-diagram g.node").await? == 82,
            "the diagram does not draw the 82 nodes"
        );
        ensure!(
            p.count("svg.tree-diagram g.node.min circle").await? == 9,
            "the diagram does not draw MIN's 9 nodes as circles"
        );
        p.select("#tree-algo", "alphabeta").await?;
        p.click("#tree-run").await?;
        p.wait_count(".tree-node.cut", 1, "the cut branches")
            .await?;
        ensure!(
            p.count("svg.tree-diagram line.edge.cut").await? > 0,
            "the diagram does not dash the cut moves"
        );
        // The textbook's view: the root and its moves, each move's value on its cell.
        p.click("#collapse").await?;
        p.click("#heatmap").await?;
        ensure!(p.count("rect.heat").await? >= 1, "no heat map");
        p.picture("learn.png").await;
        // Step through: the root enters with the whole window.
        p.click("#step-next").await?;
        let info = p.text("#step-info").await?;
        ensure!(
            info.contains("\u{3b1} = -inf") && info.contains("\u{3b2} = +inf"),
            "{info}"
        );
        for _ in 0..3 {
            p.click("#step-next").await?;
        }
        ensure!(p.count(".row.current").await? == 1, "no current node");
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_a_page_stops_its_search() {
    // One search slot: after the page that held it goes away, another request gets it.
    let caps = Caps {
        max_searches: 1,
        ..Caps::default()
    };
    run("close_page", caps, |p| async move {
        p.goto("?game=chess").await?;
        p.click("#tab-analyse").await?;
        p.click("#analyse-start").await?;
        p.wait_count("#analysis tbody tr", 1, "analysis lines")
            .await?;
        p.client.goto("about:blank").await.map_err(err)?;
        let t = Instant::now();
        loop {
            let ok = compare_gets_a_slot(&p.base).await?;
            if ok {
                break;
            }
            ensure!(
                t.elapsed() < Duration::from_secs(10),
                "the search was not stopped"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(())
    })
    .await;
}

/// Whether a tiny comparison gets a search slot now, asked over plain HTTP/1.1.
async fn compare_gets_a_slot(base: &str) -> Res<bool> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(err)?;
    let body = r#"{"game":"tictactoe","depth":1}"#;
    let req = format!(
        "POST /api/compare HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.map_err(err)?;
    let mut out = String::new();
    s.read_to_string(&mut out).await.map_err(err)?;
    Ok(out.starts_with("HTTP/1.1 200"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_drawn_and_takes_a_click() {
    run("every_game", Caps::default(), |p| async move {
        for g in duel_engine::games() {
            p.goto(&format!("?game={}", g.name)).await?;
            p.select("#player-second", "human").await?;
            let board = p
                .client
                .execute(
                    "const s = window.duelState.pos; const m = s.legal[0]; \
                     return [s.board.cols * s.board.rows, m.from ?? m.to, m.to];",
                    vec![],
                )
                .await
                .map_err(err)?;
            let cells = board[0].as_u64().ok_or("no size")? as usize;
            ensure!(
                p.count("rect.cell").await? == cells,
                "{}: not {cells} cells drawn",
                g.name
            );
            // The first legal move, played by clicking its cells.
            let first = board[1].as_u64().ok_or("no move")?;
            p.click(&format!("#cell-{first}")).await?;
            if let Some(to) = board[2].as_u64().filter(|&t| t != first) {
                p.click(&format!("#cell-{to}")).await?;
            }
            p.wait_count("#movelist li", 1, "the move").await?;
            p.picture(&format!("play-{}.png", g.name)).await;
        }
        Ok(())
    })
    .await;
}

/// The figures of docs/BENCHMARKS.md: the page's weight, and per game the time from the click
/// that makes a move, with Analyse on, to the first line of the new position's analysis on the
/// page (12 moves: two games of 6), beside the server's own time to a first `info` event.
/// `cargo test -p duel-web --test it -- --ignored first_line --nocapture`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: prints figures"]
async fn first_line_latency() {
    run("first_line", Caps::default(), |p| async move {
        println!("page weight: {} bytes", duel_web::page_weight());
        let games: Vec<String> = duel_engine::games()
            .iter()
            .map(|g| g.name.to_string())
            .collect();
        for game in games {
            let mut times = Vec::new();
            for _ in 0..2 {
                p.goto(&format!("?game={game}")).await?;
                p.click("#tab-analyse").await?;
                p.click("#analyse-start").await?;
                p.wait_count("#analysis tbody tr", 1, "a line").await?;
                for ply in 1..=6 {
                    let cells = p
                        .client
                        .execute(
                            "const m = window.duelState.pos.legal[0]; return [m.from, m.to];",
                            vec![],
                        )
                        .await
                        .map_err(err)?;
                    for c in cells.as_array().ok_or("no cells")?.iter().filter_map(Value::as_u64) {
                        p.click(&format!("#cell-{c}")).await?;
                    }
                    p.wait_js(
                        &format!(
                            "return window.duelState.moves.length === {ply} && \
                             document.getElementById('analysis-state').dataset.firstLineMs \
                             !== undefined"
                        ),
                        "the new position's first line",
                    )
                    .await?;
                    let ms = p
                        .client
                        .execute(
                            "return Number(document.getElementById('analysis-state').dataset.firstLineMs)",
                            vec![],
                        )
                        .await
                        .map_err(err)?;
                    times.push(ms.as_f64().ok_or("no time")?);
                }
            }
            times.sort_by(f64::total_cmp);
            // The same over plain HTTP, without the page: what the server alone costs. The
            // page's own analysis (Othello's, chess's: never exhausted) stops first, so that
            // it holds none of the server's two search slots.
            p.click("#analyse-stop").await?;
            let mut raw = Vec::new();
            for _ in 0..12 {
                raw.push(first_info_ms(&p.base, &game).await?);
            }
            raw.sort_by(f64::total_cmp);
            println!(
                "{game}: move to the first line on the page {:.1} ms median, {:.1} ms at most; \
                 first info event over HTTP {:.1} ms median, {:.1} ms at most",
                times[times.len() / 2],
                times[times.len() - 1],
                raw[raw.len() / 2],
                raw[raw.len() - 1]
            );
        }
        Ok(())
    })
    .await;
}

/// Milliseconds from sending `GET /api/search` for `game` to reading its first `info` event.
/// A refusal for want of a free search slot (429: the engine's reply to the page's last move
/// may still hold one) is tried again, for up to two seconds, and not timed.
async fn first_info_ms(base: &str, game: &str) -> Res<f64> {
    for _ in 0..100 {
        match first_info_once(base, game).await? {
            Some(ms) => return Ok(ms),
            None => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
    Err(format!("{game}: no search slot free for two seconds"))
}

/// One try of [`first_info_ms`]: `None` when the server had no slot free.
async fn first_info_once(base: &str, game: &str) -> Res<Option<f64>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let t = Instant::now();
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(err)?;
    let req = format!(
        "GET /api/search?game={game}&depth=2 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.map_err(err)?;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = s.read(&mut buf).await.map_err(err)?;
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if text.starts_with("HTTP/1.1 429") {
            return Ok(None);
        }
        ensure!(
            n > 0,
            "the stream ended before an info event: {}",
            text.lines().next().unwrap_or("")
        );
        if text.contains("event: info") {
            return Ok(Some(t.elapsed().as_secs_f64() * 1000.0));
        }
    }
}

/// Issue 68: a page of another site cannot drive the engine. Chromium opens a page served on
/// another port (another origin of the same site) that points an `<iframe>`, an `<img>` and
/// two no-cors fetches at the API, then a name rebound to 127.0.0.1; the server, with one
/// search slot, starts no search for any of them, and refuses the rebound name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_sites_page_cannot_drive_the_engine() {
    let caps = Caps {
        max_searches: 1,
        ..Caps::default()
    };
    let config = ServeConfig {
        caps,
        ..ServeConfig::default()
    };
    // The name that the attacker rebinds to this machine.
    let rules = vec!["--host-resolver-rules=MAP rebound.test 127.0.0.1".to_string()];
    run_with("other_site", config, &rules, |p| async move {
        let target = p.base.clone();
        let search = format!("{target}/api/search?game=chess&time=15000");
        let page = format!(
            "<!doctype html><title>waiting</title>\
             <iframe id=f src=\"{search}\"></iframe><img id=i src=\"{search}\">\
             <script>\
             const loaded = [new Promise(r => {{ f.onload = r; f.onerror = r; }}),\
               new Promise(r => {{ i.onload = r; i.onerror = r; }}),\
               fetch('{search}', {{mode: 'no-cors'}}).catch(() => {{}}),\
               fetch('{target}/api/compare', {{method: 'POST', mode: 'no-cors', \
                 headers: {{'Content-Type': 'text/plain'}}, \
                 body: '{{\"game\": \"chess\", \"depth\": 5}}'}}).catch(() => {{}})];\
             Promise.all(loaded).then(() => {{ document.title = 'done'; }});\
             </script>"
        );
        let attacker = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(err)?;
        let at = attacker.local_addr().map_err(err)?;
        let app = axum::Router::new().route(
            "/",
            axum::routing::get(move || async move { axum::response::Html(page) }),
        );
        tokio::spawn(async move { axum::serve(attacker, app).await });
        p.client.goto(&format!("http://{at}/")).await.map_err(err)?;
        p.wait_js(
            "return document.title === 'done'",
            "the other site's requests",
        )
        .await?;
        ensure!(
            compare_gets_a_slot(&p.base).await?,
            "a search started for another site's page holds the slot"
        );
        // A rebound name reaches the server, which answers it only with a refusal.
        let port = target.rsplit(':').next().unwrap_or("");
        p.client
            .goto(&format!("http://rebound.test:{port}/"))
            .await
            .map_err(err)?;
        let body = p.text("body").await?;
        ensure!(
            body.contains("Host 'rebound.test' is not a name of this server"),
            "the rebound name was served: {body}"
        );
        // The page itself, at its own address, works as before: a move and the engine's answer.
        p.goto("?game=tictactoe").await?;
        p.set_value("#limit-value", "3").await?;
        p.click("#cell-4").await?;
        p.wait_count("#movelist li", 2, "the engine's answer")
            .await?;
        Ok(())
    })
    .await;
}

/// Issue 68: a server that asks for a token serves its page at the address it printed; the
/// page then plays as before, its requests carrying the cookie.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_printed_address_opens_a_server_with_a_token() {
    let token = "0123456789abcdef0123456789abcdef";
    let config = ServeConfig {
        access: Access {
            names: Vec::new(),
            token: Some(token.into()),
        },
        ..ServeConfig::default()
    };
    run_with("token", config, &[], |p| async move {
        // Without the token: a refusal that says what to do.
        p.client.goto(&format!("{}/", p.base)).await.map_err(err)?;
        let body = p.text("body").await?;
        ensure!(body.contains("asks for its token"), "{body}");
        p.goto(&format!("?token={token}&game=tictactoe")).await?;
        let url = p.client.current_url().await.map_err(err)?;
        ensure!(
            !url.as_str().contains("token"),
            "the token stays in the address bar: {url}"
        );
        p.set_value("#limit-value", "3").await?;
        p.click("#cell-4").await?;
        p.wait_count("#movelist li", 2, "the engine's answer")
            .await?;
        // The evaluation graph streams its values: one a position.
        p.click("#graph-refresh").await?;
        p.wait_js(
            "return window.duelState.graph.length === 3 && !window.duelState.graphSearch",
            "the graph's three values",
        )
        .await?;
        Ok(())
    })
    .await;
}
