//! `duel serve`: the browser front end.

use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use duel_web::{Limits, ServeConfig};

use crate::args;

/// Where to listen and what one page may ask.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on. The default answers this machine only; another address
    /// opens the engine to the network, with no login (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Searches running at once, over all pages (engine, compare, tree, graph).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    max_searches: u64,
    /// The longest engine search; analysis without a limit stops here.
    #[arg(long, value_name = "TIME", default_value = "300s", value_parser = args::parse_duration)]
    max_time: Duration,
    /// The deepest engine search.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=128))]
    max_depth: u32,
    /// The most nodes of one engine search.
    #[arg(long, value_name = "N", default_value_t = 500_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// The most nodes Minimax may visit in a comparison.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_compare_nodes: u64,
    /// The most nodes of a tree drawn.
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_tree_nodes: u64,
}

/// Serves until Ctrl-C.
pub fn serve(a: &ServeArgs, out: &mut dyn Write) -> Result<()> {
    let config = ServeConfig {
        host: a.host,
        port: a.port,
        limits: Limits {
            max_searches: a.max_searches as usize,
            max_time: a.max_time,
            max_depth: a.max_depth,
            max_nodes: a.max_nodes,
            max_compare_nodes: a.max_compare_nodes,
            max_tree_nodes: a.max_tree_nodes,
            ..Limits::default()
        },
    };
    if !a.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: anyone who can reach this machine can use the engine \
             (there is no login)",
            a.host
        );
    }
    let mut printed: Result<()> = Ok(());
    duel_web::run(&config, |addr| {
        printed = writeln!(out, "duel serve: http://{addr}/ (Ctrl-C stops)")
            .and_then(|()| out.flush())
            .map_err(Into::into);
    })?;
    printed
}
