//! The real binary as a server process, and a minimal client for it.
#![allow(dead_code)] // each test crate uses a different part

use serde_json::{Value, json};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A minimal HTTP/1.1 client (one request per connection), so the test needs no HTTP crate.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    key: &str,
    content_type: &str,
    body: &[u8],
) -> Option<(u16, Value)> {
    request_with(port, method, path, key, "", content_type, body)
}

/// `request`, with an `Idempotency-Key` when `idempotency` is not empty.
pub fn request_with(
    port: u16,
    method: &str,
    path: &str,
    key: &str,
    idempotency: &str,
    content_type: &str,
    body: &[u8],
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    let idempotency = match idempotency {
        "" => String::new(),
        k => format!("idempotency-key: {k}\r\n"),
    };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\nauthorization: Bearer {key}\r\n\
         {idempotency}content-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    s.write_all(body).ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n")?.1;
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

pub fn call(port: u16, method: &str, path: &str, key: &str, body: &Value) -> (u16, Value) {
    request(
        port,
        method,
        path,
        key,
        "application/json",
        body.to_string().as_bytes(),
    )
    .expect("the server answers")
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The real binary serving a database at a port. Its stderr goes to a file of its own, shown when
/// it exits before it answers; dropped (a test that fails included), it is killed.
pub struct Server {
    process: Child,
    log: File,
    pub port: u16,
}

impl Server {
    /// The server on `db` (a SQLite file's path or a PostgreSQL URL) at `port`, started: it may
    /// not answer yet.
    pub fn spawn(db: &str, port: u16) -> Server {
        Server::spawn_with(db, port, &[])
    }

    /// `spawn`, with more of `serve`'s options (`--body-timeout 1`, say).
    pub fn spawn_with(db: &str, port: u16, options: &[&str]) -> Server {
        let log = tempfile::tempfile().expect("a file for the server's stderr");
        let process = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", &port.to_string(), "--db", db])
            .args(options)
            .env("ARBITER_ADMIN_TOKEN", "operator-token")
            .stdout(Stdio::null())
            .stderr(log.try_clone().expect("the stderr file, twice"))
            .spawn()
            .expect("the arbiter binary starts");
        Server { process, log, port }
    }

    /// The server on `db` at `port`, once it answers.
    pub fn start(db: &str, port: u16) -> Server {
        let mut server = Server::spawn(db, port);
        server.wait_up();
        server
    }

    /// Waits until the server answers (30 s at most); fails at once, with its stderr, if it exits.
    pub fn wait_up(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while request(self.port, "GET", "/health", "", "application/json", b"").is_none() {
            if let Some(status) = self.process.try_wait().expect("the server's status") {
                panic!(
                    "the server exited before it answered: {status}; its stderr:\n{}",
                    self.stderr()
                );
            }
            assert!(Instant::now() < deadline, "the server did not come up");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the server with SIGKILL, as a crash would, and waits for it.
    pub fn kill(&mut self) {
        self.process.kill().expect("the server is killed");
        self.process.wait().expect("the server's status");
    }

    /// Whether the server still runs.
    pub fn is_running(&mut self) -> bool {
        matches!(self.process.try_wait(), Ok(None))
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        let _ = self.log.seek(SeekFrom::Start(0));
        let _ = self.log.read_to_string(&mut text);
        text
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.is_running() {
            self.kill();
        }
    }
}

/// A club named `name`, made with the operator's token through the server at `port`: its key.
pub fn new_club(port: u16, name: &str) -> String {
    let (s, club) = call(
        port,
        "POST",
        "/v1/clubs",
        "operator-token",
        &json!({"name": name}),
    );
    assert_eq!(s, 201, "{club}");
    club["key"]["secret"].as_str().unwrap().to_string()
}

/// Club 1, "Casa", made with the operator's token through the first of `ports`, and its four
/// players Ana, Ben, Cai and Dee, made through each of `ports` in turn: the club's key, and the
/// players as a match's seats (N, E, S, W).
pub fn club_of_four(ports: &[u16]) -> (String, serde_json::Map<String, Value>) {
    let key = new_club(ports[0], "Casa");
    let mut seats = serde_json::Map::new();
    for (i, (seat, name)) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")]
        .into_iter()
        .enumerate()
    {
        let port = ports[i % ports.len()];
        let (s, p) = call(
            port,
            "POST",
            "/v1/clubs/1/players",
            &key,
            &json!({"name": name}),
        );
        assert_eq!(s, 201, "{p}");
        seats.insert(seat.into(), p["id"].clone());
    }
    (key, seats)
}
