//! A real Redis server for one test binary: Debian's redis-server that
//! `make redis` unpacks under build/redis (or `$ROBOTSTXT_REDIS_SERVER`),
//! on 127.0.0.1 and a free port, stopped by its pid when dropped.

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
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
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

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
