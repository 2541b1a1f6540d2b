//! `duel serve`: every game playable and every search visible in a browser.
//!
//! The server is stateless: each request names the game, the start position and the moves
//! played, and opens its own [`duel_engine::Session`], so two pages never share a search, a
//! table or a position. The page (`assets/`) is embedded in the binary and uses only the JSON
//! API that [`router`] serves and docs/API.md documents:
//!
//! | route | what |
//! |---|---|
//! | `GET /api/games` | the registry: names, notation, evaluators, board style, side names |
//! | `POST /api/position` | a position: board, legal moves with their cells, outcome |
//! | `POST /api/move` | the same after one more move, or the reason it is refused |
//! | `POST /api/record`, `POST /api/load` | the game record in the game's format, both ways |
//! | `GET /api/search` | the engine search as server-sent events, one per iteration |
//! | `POST /api/stop` | stops a running search: its `done` event follows |
//! | `POST /api/evals` | a short search of every position of the game, for the graph |
//! | `POST /api/compare` | every algorithm side by side on the position |
//! | `POST /api/tree` | the tree a reference algorithm explored, with alpha and beta |
//!
//! The caps ([`Caps`]) keep one page from taking the machine: caps on depth, nodes, time,
//! tree and comparison sizes, concurrent searches, connections, request size and the time a
//! request may take to arrive; a search whose page goes away is stopped. [`Access`] keeps
//! other web pages out: see [`access`]'s doc for the rules.

pub mod access;
mod api;
mod assets;
mod conn;
mod error;
mod search;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

pub use access::Access;
pub use assets::page_weight;
pub use error::ApiError;

/// The caps every request is held to. Searches asking for more are refused with a 400 that
/// names the cap, rather than quietly cut down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Deepest engine search.
    pub max_depth: u32,
    /// Most nodes of one engine search.
    pub max_nodes: u64,
    /// Longest engine search; a search with no limit of its own (analysis) stops here.
    pub max_time: Duration,
    /// Searches (engine, compare, tree, graph) running at once over all pages.
    pub max_searches: usize,
    /// Threads one engine search may use.
    pub max_threads: usize,
    /// Most nodes Minimax may visit in a comparison (the largest of its rows).
    pub max_compare_nodes: u64,
    /// Most nodes a recorded tree may have.
    pub max_tree_nodes: u64,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Connections open at once; past it the server accepts no more until one closes.
    pub max_connections: usize,
    /// How long a request's headers, and then its body, may take to arrive. An idle
    /// keep-alive connection is closed after as long.
    pub read_timeout: Duration,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            max_depth: 64,
            max_nodes: 500_000_000,
            max_time: Duration::from_secs(300),
            max_searches: 2,
            max_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            // The two-phase row holds its whole tree: about 50 bytes a node.
            max_compare_nodes: 2_000_000,
            max_tree_nodes: 20_000,
            max_body: 64 * 1024,
            max_connections: 128,
            read_timeout: Duration::from_secs(5),
        }
    }
}

/// Where to listen and what to allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeConfig {
    /// The address to bind: loopback unless the user opens it.
    pub host: IpAddr,
    /// The port (0: any free port, told when bound).
    pub port: u16,
    /// The caps.
    pub caps: Caps,
    /// Which names the server answers to and the token it asks for.
    pub access: Access,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            caps: Caps::default(),
            access: Access::default(),
        }
    }
}

/// What every handler shares.
pub(crate) struct AppState {
    pub caps: Caps,
    pub access: Access,
    /// One permit per search allowed to run.
    pub searches: Arc<Semaphore>,
    /// The streamed searches running now, by id, for `POST /api/stop`.
    pub running: Mutex<HashMap<u64, search::Stop>>,
    pub next_id: AtomicU64,
}

/// The whole site: the page, its assets and the API, with `config`'s caps and access rules
/// applied (its address is not used: [`Bound`] binds it).
pub fn router(config: &ServeConfig) -> Router {
    let caps = config.caps;
    let state = Arc::new(AppState {
        caps,
        access: config.access.clone(),
        searches: Arc::new(Semaphore::new(caps.max_searches)),
        running: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/games", get(api::games))
        .route("/api/position", post(api::position))
        .route("/api/move", post(api::play))
        .route("/api/record", post(api::record))
        .route("/api/load", post(api::load))
        .route("/api/search", get(search::search))
        .route("/api/stop", post(search::stop))
        .route("/api/evals", post(search::evals))
        .route("/api/compare", post(search::compare))
        .route("/api/tree", post(search::tree))
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(DefaultBodyLimit::max(caps.max_body))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            access::guard,
        ))
        .with_state(state)
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound (in use, not this machine's, no permission).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// What the system said.
        source: std::io::Error,
    },
    /// The runtime or the connection loop failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// A bound server, not yet serving: its address is known (port 0 picks one).
pub struct Bound {
    listener: tokio::net::TcpListener,
    config: ServeConfig,
}

impl Bound {
    /// Binds `config`'s address.
    pub async fn bind(config: &ServeConfig) -> Result<Bound, ServeError> {
        let addr = SocketAddr::new(config.host, config.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        Ok(Bound {
            listener,
            config: config.clone(),
        })
    }

    /// The address bound.
    pub fn addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `shutdown` completes.
    pub async fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let app = router(&self.config);
        conn::serve(self.listener, app, &self.config.caps, shutdown).await;
        Ok(())
    }
}

/// Serves `config` until Ctrl-C, on a runtime of its own; `on_bound` hears the address once
/// it is bound (the CLI prints it).
pub fn run(config: &ServeConfig, on_bound: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let bound = Bound::bind(config).await?;
        on_bound(bound.addr()?);
        bound
            .serve(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })?;
    // Searches still running hold blocking threads; they end on their own limits, but the
    // process should not wait for them.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(())
}
