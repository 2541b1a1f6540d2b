//! `duel serve`: the browser front end.

use std::io::Write;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_web::{Access, Caps, ServeConfig};

use crate::args;

/// Where to listen, who may use it and what one page may ask.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address or host name to listen on. The default answers this machine only; any
    /// other opens the engine to the network, behind a token (see --token).
    #[arg(long, value_name = "ADDRESS|NAME", default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Ask every request for a token, as Jupyter does: the address printed ends in
    /// ?token=..., which opens the page; scripts send `Authorization: Bearer TOKEN`. Without
    /// a value a random one is made. On by default when --host is not loopback.
    #[arg(long, value_name = "TOKEN", num_args = 0..=1, default_missing_value = "")]
    token: Option<String>,
    /// Ask for no token, even on a network address.
    #[arg(long, conflicts_with = "token")]
    no_token: bool,
    /// Another host name the server answers to, besides IP addresses, localhost and --host
    /// (a name a proxy or the network gives this machine). Requests naming any other Host
    /// are refused, which defeats DNS rebinding. May be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// Searches running at once, over all pages (engine, compare, tree, graph).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    max_searches: u64,
    /// The longest engine search; analysis without a limit stops here.
    #[arg(long, value_name = "TIME", default_value = "300s", value_parser = args::parse_duration)]
    max_time: Duration,
    /// The deepest search, of the engine and of the textbook algorithms (compare, tree).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=128))]
    max_depth: u32,
    /// The most nodes of one engine search.
    #[arg(long, value_name = "N", default_value_t = 500_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// The most nodes Minimax may visit in a comparison.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=20_000_000))]
    max_compare_nodes: u64,
    /// The most nodes of a tree drawn.
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_tree_nodes: u64,
    /// Connections open at once; more wait until one closes.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections: u64,
    /// How long a request's headers, and then its body, may take to arrive (and how long an
    /// idle connection is kept).
    #[arg(long, value_name = "TIME", default_value = "5s", value_parser = args::parse_duration)]
    read_timeout: Duration,
}

/// The address `host` names: itself when it is one, else the first the system resolves the
/// name to (and the name is then one the server answers to).
fn resolve(host: &str, port: u16) -> Result<(IpAddr, Option<String>)> {
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok((ip, None));
    }
    let valid = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if !valid {
        bail!("--host '{host}' is neither an IP address nor a host name");
    }
    let addr = (host, port)
        .to_socket_addrs()
        .with_context(|| format!("--host '{host}' cannot be resolved"))?
        .next()
        .with_context(|| format!("--host '{host}' resolves to no address"))?;
    Ok((addr.ip(), Some(host.to_ascii_lowercase())))
}

/// Serves until Ctrl-C.
pub fn serve(a: &ServeArgs, out: &mut dyn Write) -> Result<()> {
    if a.read_timeout.is_zero() {
        bail!("--read-timeout must be more than 0");
    }
    let (host, name) = resolve(&a.host, a.port)?;
    let mut names: Vec<String> = a
        .allow_host
        .iter()
        .map(|n| n.to_ascii_lowercase())
        .collect();
    names.extend(name);
    let token = match (&a.token, a.no_token) {
        (_, true) => None,
        (Some(t), false) if !t.is_empty() => Some(t.clone()),
        (Some(_), false) => Some(Access::new_token()?),
        (None, false) if host.is_loopback() => None,
        (None, false) => Some(Access::new_token()?),
    };
    if let Some(t) = &token {
        if t.len() < 16
            || !t
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            bail!("--token must be at least 16 letters, digits, '-' or '_'");
        }
    }
    let config = ServeConfig {
        host,
        port: a.port,
        caps: Caps {
            max_searches: a.max_searches as usize,
            max_time: a.max_time,
            max_depth: a.max_depth,
            max_nodes: a.max_nodes,
            max_compare_nodes: a.max_compare_nodes,
            max_tree_nodes: a.max_tree_nodes,
            max_connections: a.max_connections as usize,
            read_timeout: a.read_timeout,
            ..Caps::default()
        },
        access: Access {
            names,
            token: token.clone(),
        },
    };
    if !host.is_loopback() {
        match &token {
            Some(_) => eprintln!(
                "note: listening on {host}: anyone who can reach this machine and has the \
                 token can use the engine"
            ),
            None => eprintln!(
                "warning: listening on {host} with --no-token: anyone who can reach this \
                 machine can use the engine"
            ),
        }
    }
    let shown = a.host.clone();
    let mut printed: Result<()> = Ok(());
    duel_web::run(&config, |addr| {
        // The address as given (a name stays a name), with the port bound.
        let at = match shown.parse::<IpAddr>() {
            Ok(_) => addr.to_string(),
            Err(_) => format!("{shown}:{}", addr.port()),
        };
        let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
        printed = writeln!(out, "duel serve: http://{at}/{query} (Ctrl-C stops)")
            .and_then(|()| out.flush())
            .map_err(Into::into);
    })?;
    printed
}
