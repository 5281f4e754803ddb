//! A real 3-master Redis Cluster for one test binary: three redis-server
//! processes with `--cluster-enabled yes` on 127.0.0.1 and free ports, joined
//! by `redis-cli --cluster create`, stopped when dropped. And the moving of
//! one hash slot from its master to another, keys and all, as
//! `redis-cli --cluster reshard` does it.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use redis::Connection;

pub struct RedisCluster {
    nodes: Vec<Child>,
    pub ports: Vec<u16>,
    dir: PathBuf,
}

fn tool(var: &str, name: &str) -> PathBuf {
    let exe = match std::env::var_os(var) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("build/redis")
            .join(name),
    };
    assert!(
        exe.is_file(),
        "no {name} at {}: run `make redis` first (make test does)",
        exe.display()
    );
    exe
}

fn free_port() -> u16 {
    // A cluster node also listens on its port + 10000 (the bus).
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        if port < 55_000 && std::net::TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
}

impl RedisCluster {
    pub fn start() -> RedisCluster {
        let server = tool("ROBOTSTXT_REDIS_SERVER", "redis-server");
        let cli = tool("ROBOTSTXT_REDIS_CLI", "redis-cli");
        let dir = std::env::temp_dir().join(format!(
            "robotstxt-cluster-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
        let nodes = ports
            .iter()
            .map(|port| {
                Command::new(&server)
                    .current_dir(&dir)
                    .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                    .args(["--cluster-enabled", "yes"])
                    .args(["--cluster-config-file", &format!("nodes-{port}.conf")])
                    .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap_or_else(|e| panic!("{}: {e}", server.display()))
            })
            .collect();
        let cluster = RedisCluster { nodes, ports, dir };
        for &port in &cluster.ports {
            cluster.wait_for(port, "PING", |s| s.contains("PONG"));
        }
        let addresses: Vec<String> = cluster
            .ports
            .iter()
            .map(|p| format!("127.0.0.1:{p}"))
            .collect();
        let created = Command::new(&cli)
            .arg("--cluster")
            .arg("create")
            .args(&addresses)
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", cli.display()));
        assert!(
            created.status.success(),
            "redis-cli --cluster create failed:\n{}{}",
            String::from_utf8_lossy(&created.stdout),
            String::from_utf8_lossy(&created.stderr)
        );
        for &port in &cluster.ports {
            cluster.wait_for(port, "CLUSTER INFO", |s| s.contains("cluster_state:ok"));
        }
        cluster
    }

    fn wait_for(&self, port: u16, command: &str, ready: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(answer) = self.ask(port, command) {
                if ready(&answer) {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "cluster node {port} never answered {command} as ready"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn ask(&self, port: u16, command: &str) -> redis::RedisResult<String> {
        let mut conn = self.node(port)?;
        let mut words = command.split(' ');
        let mut cmd = redis::cmd(words.next().unwrap());
        for w in words {
            cmd.arg(w);
        }
        let value: redis::Value = cmd.query(&mut conn)?;
        Ok(match value {
            redis::Value::BulkString(b) => String::from_utf8_lossy(&b).into_owned(),
            redis::Value::SimpleString(s) => s,
            redis::Value::VerbatimString { text, .. } => text,
            redis::Value::Okay => "OK".into(),
            other => format!("{other:?}"),
        })
    }

    /// A plain connection to one node.
    pub fn node(&self, port: u16) -> redis::RedisResult<Connection> {
        redis::Client::open(format!("redis://127.0.0.1:{port}/"))?.get_connection()
    }

    /// The cluster client the tests run calls through (slot routing, MOVED
    /// and ASK handled).
    pub fn client(&self) -> redis::cluster::ClusterConnection {
        let urls: Vec<String> = self
            .ports
            .iter()
            .map(|p| format!("redis://127.0.0.1:{p}/"))
            .collect();
        redis::cluster::ClusterClient::new(urls)
            .unwrap()
            .get_connection()
            .unwrap()
    }

    /// The node that serves `slot` (its port), and its id.
    fn owner(&self, slot: u16) -> (u16, String) {
        let mut conn = self.node(self.ports[0]).unwrap();
        let ranges: Vec<(i64, i64, Vec<redis::Value>)> =
            redis::cmd("CLUSTER").arg("SLOTS").query(&mut conn).unwrap();
        let (_, _, master) = ranges
            .into_iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&i64::from(slot)))
            .unwrap_or_else(|| panic!("no node serves slot {slot}"));
        let port = match master.get(1) {
            Some(redis::Value::Int(p)) => *p as u16,
            other => panic!("CLUSTER SLOTS gave no port: {other:?}"),
        };
        let id: String = redis::cmd("CLUSTER")
            .arg("MYID")
            .query(&mut self.node(port).unwrap())
            .unwrap();
        (port, id)
    }

    /// The hash slot of `key`.
    pub fn slot(&self, key: &str) -> u16 {
        let mut conn = self.node(self.ports[0]).unwrap();
        redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut conn)
            .unwrap()
    }

    /// Moves `slot` to another master while clients keep using it: the
    /// target imports, the source migrates, the keys move (clients meet ASK
    /// meanwhile), then every node is told the new owner (MOVED after).
    /// `pause` runs between the two halves, so that a test can work
    /// against a slot half moved.
    pub fn migrate_slot(&self, slot: u16, mut pause: impl FnMut()) -> u16 {
        let (from_port, from_id) = self.owner(slot);
        let to_port = *self.ports.iter().find(|&&p| p != from_port).unwrap();
        let mut to = self.node(to_port).unwrap();
        let to_id: String = redis::cmd("CLUSTER").arg("MYID").query(&mut to).unwrap();
        let mut from = self.node(from_port).unwrap();
        let _: () = redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg("IMPORTING")
            .arg(&from_id)
            .query(&mut to)
            .unwrap();
        let _: () = redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg("MIGRATING")
            .arg(&to_id)
            .query(&mut from)
            .unwrap();
        pause();
        loop {
            let keys: Vec<String> = redis::cmd("CLUSTER")
                .arg("GETKEYSINSLOT")
                .arg(slot)
                .arg(100)
                .query(&mut from)
                .unwrap();
            if keys.is_empty() {
                break;
            }
            // All the slot's keys at once: a script's keys never straddle.
            let _: redis::Value = redis::cmd("MIGRATE")
                .arg("127.0.0.1")
                .arg(to_port)
                .arg("")
                .arg(0)
                .arg(5000)
                .arg("KEYS")
                .arg(&keys)
                .query(&mut from)
                .unwrap();
        }
        pause();
        for &port in &self.ports {
            let mut conn = self.node(port).unwrap();
            let _: () = redis::cmd("CLUSTER")
                .arg("SETSLOT")
                .arg(slot)
                .arg("NODE")
                .arg(&to_id)
                .query(&mut conn)
                .unwrap();
        }
        to_port
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            let _ = node.kill();
            let _ = node.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
