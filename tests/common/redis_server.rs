//! A real Redis server for one test binary: Debian's redis-server that
//! `make redis` unpacks under build/redis (or `$ROBOTSTXT_REDIS_SERVER`),
//! on 127.0.0.1 and a free port, stopped by its pid when dropped.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    child: Child,
    pub port: u16,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let exe = match std::env::var_os("ROBOTSTXT_REDIS_SERVER") {
            Some(path) if !path.is_empty() => PathBuf::from(path),
            _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("build/redis/redis-server"),
        };
        assert!(
            exe.is_file(),
            "no redis-server at {}: run `make redis` first (make test does)",
            exe.display()
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&exe)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
        let server = RedisServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !answers_ping(port) {
            assert!(
                Instant::now() < deadline,
                "redis-server did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

/// A TCP connect alone is not enough: a server just started has reset the
/// first client that connected, so ready means it answered a PING.
fn answers_ping(port: u16) -> bool {
    let ping = || -> std::io::Result<bool> {
        let mut stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_read_timeout(Some(Duration::from_secs(1)))?;
        stream.write_all(b"PING\r\n")?;
        let mut answer = [0u8; 7];
        stream.read_exact(&mut answer)?;
        Ok(&answer == b"+PONG\r\n")
    };
    ping().unwrap_or(false)
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
