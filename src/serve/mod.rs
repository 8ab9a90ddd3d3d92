//! `briscola serve`: the web table. One page (the table, drawn by the page itself) and a small
//! JSON API over HTTP (tiny_http, loopback by default): start a game of 2, 3, 4 or 6 players
//! against policies of the study file, play a card, play the deal again, play the next game of
//! the match (the first leader rotating, the match score kept). The server deals and plays; the
//! page receives only what its seat may see ([`crate::table::SeatGame::view`]). Every finished
//! game is saved as a record that `briscola replay --record` replays.
//!
//! Invariant: every request gets an answer and none can stop the server: a bad request (unknown
//! session or route, malformed or oversized body, an illegal card, an unknown policy) is a 4xx
//! with `{"error": sentence}`; a panic in a handler is caught and answered 500 while the other
//! games go on.

mod api;
mod page;
mod sessions;

use std::path::PathBuf;
use std::sync::Arc;

pub use api::{MAX_BODY, Reply};
pub use sessions::{PolicyChoice, Resolver, Sessions};

/// What `serve` needs from its caller.
pub struct ServeOptions {
    /// The address to listen on, e.g. `127.0.0.1:8080` (port 0: any free port).
    pub addr: String,
    /// Where finished games' records are saved.
    pub records: PathBuf,
    /// Worker threads answering requests.
    pub threads: usize,
    /// The policies the page may seat, and how to resolve a name.
    pub policies: PolicyChoice,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound.
    #[error(
        "cannot listen on {addr}: {message}; give --addr HOST:PORT with a free port (127.0.0.1:0 picks one)"
    )]
    Bind {
        /// the address
        addr: String,
        /// why
        message: String,
    },
    /// The records directory could not be created.
    #[error("cannot create the records directory {path}: {message}")]
    Records {
        /// the directory
        path: PathBuf,
        /// why
        message: String,
    },
}

/// Connections a burst may queue before the server accepts them (std's listener queues 128, so
/// 200 clients connecting at once saw SYN retries: a 1 s tail).
const BACKLOG: i32 = 1024;

/// A listening socket on `addr` (its first address) with [`BACKLOG`].
fn listen(addr: &str) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    use std::net::ToSocketAddrs;
    let a = addr.to_socket_addrs()?.next().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")
    })?;
    let sock = Socket::new(Domain::for_address(a), Type::STREAM, None)?;
    sock.set_reuse_address(true)?;
    sock.bind(&a.into())?;
    sock.listen(BACKLOG)?;
    Ok(sock.into())
}

/// Listen on `opts.addr`, call `ready` with the page's URL, and answer requests until the
/// process ends.
pub fn serve(opts: ServeOptions, ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    std::fs::create_dir_all(&opts.records).map_err(|e| ServeError::Records {
        path: opts.records.clone(),
        message: e.to_string(),
    })?;
    let bind_err = |message: String| ServeError::Bind {
        addr: opts.addr.clone(),
        message,
    };
    let listener = listen(&opts.addr).map_err(|e| bind_err(e.to_string()))?;
    let server =
        tiny_http::Server::from_listener(listener, None).map_err(|e| bind_err(e.to_string()))?;
    let url = match server.server_addr().to_ip() {
        Some(a) => format!("http://{a}/"),
        None => format!("http://{}/", opts.addr),
    };
    let server = Arc::new(server);
    let sessions = Arc::new(Sessions::new(opts.policies, opts.records));
    ready(&url);
    let workers: Vec<_> = (0..opts.threads.max(1))
        .map(|_| {
            let server = Arc::clone(&server);
            let sessions = Arc::clone(&sessions);
            std::thread::spawn(move || {
                while let Ok(req) = server.recv() {
                    api::answer(req, &sessions);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}
