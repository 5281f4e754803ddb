//! The fleet's Lua scripts (`redis/*.lua`, run by a real Redis server) and
//! the core's pure pace functions (`HostPace`) are one pacer: driven
//! through the same random sequences of reservations, confirmations,
//! cancellations, outcomes, delays and kill switches, they give the same
//! answers and reach the same state after every step. And the cache's
//! scripts hand out one fetch lease per origin, fenced.

mod common;

use std::cell::RefCell;

use common::redis_server::RedisServer;
use proptest::prelude::*;
use redis::{Connection, Value};
use robotstxt::{fleet_script, Confirm, HostPace, PacerOptions, Slot};

#[derive(Clone, Debug)]
enum Op {
    Reserve,
    Confirm(usize),
    Cancel(usize),
    Record(Option<u16>, Option<u64>),
    SetDelay(u64),
    SetEnabled(bool),
    Advance(u64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Reserve),
        3 => any::<usize>().prop_map(Op::Confirm),
        1 => any::<usize>().prop_map(Op::Cancel),
        2 => (
            prop::sample::select(vec![None, Some(200), Some(404), Some(429), Some(503)]),
            prop::sample::select(vec![None, Some(0), Some(1500), Some(90_000)]),
        )
            .prop_map(|(s, r)| Op::Record(s, r)),
        1 => prop::sample::select(vec![0u64, 250, 1000, 2500, 10_000]).prop_map(Op::SetDelay),
        1 => any::<bool>().prop_map(Op::SetEnabled),
        3 => (0u64..5000).prop_map(Op::Advance),
    ]
}

fn options() -> impl Strategy<Value = PacerOptions> {
    (
        prop::sample::select(vec![0u64, 1000]),
        prop::sample::select(vec![5000u64, 600_000]),
        1u32..4,
        prop::sample::select(vec![500u64, 120_000]),
    )
        .prop_map(
            |(floor_ms, backoff_cap_ms, max_in_flight, in_flight_timeout_ms)| PacerOptions {
                floor_ms,
                backoff_cap_ms,
                max_in_flight,
                in_flight_timeout_ms,
                ..PacerOptions::default()
            },
        )
}

/// Runs the script `name` with the pace keys of `host`, the pace options,
/// `now` and `rest`.
fn pace_script(
    redis: &mut Connection,
    name: &str,
    host: &str,
    options: &PacerOptions,
    now: u64,
    rest: &[String],
) -> Value {
    let mut cmd = redis::cmd("EVAL");
    cmd.arg(fleet_script(name).expect("a known script"))
        .arg(2)
        .arg(format!("test:pace:{host}"))
        .arg(format!("test:flight:{host}"))
        .arg(options.floor_ms)
        .arg(options.backoff_cap_ms)
        .arg(options.max_in_flight)
        .arg(options.in_flight_timeout_ms)
        .arg(86_400_000u64) // retain
        .arg(now);
    for arg in rest {
        cmd.arg(arg);
    }
    cmd.query(redis).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn ints(value: Value) -> Vec<i64> {
    match value {
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::Int(n) => n,
                other => panic!("not an integer: {other:?}"),
            })
            .collect(),
        Value::Int(n) => vec![n],
        other => panic!("not integers: {other:?}"),
    }
}

/// The state the scripts keep for `host`, as `HostPace` would hold it.
fn redis_state(
    redis: &mut Connection,
    host: &str,
    options: &PacerOptions,
    now: u64,
) -> (u64, usize, HostPace) {
    let v = ints(pace_script(redis, "pace_state", host, options, now, &[]));
    let flight: Vec<(String, f64)> = redis::cmd("ZRANGE")
        .arg(format!("test:flight:{host}"))
        .arg(0)
        .arg(-1)
        .arg("WITHSCORES")
        .query(redis)
        .unwrap();
    let state = HostPace {
        next_slot: v[2] as u64,
        last_start: (v[3] >= 0).then_some(v[3] as u64),
        not_before: v[4] as u64,
        delay_ms: v[5] as u64,
        factor: v[6] as u64,
        disabled: v[7] == 1,
        generation: v[8] as u64,
        in_flight: flight.iter().map(|(_, until)| *until as u64).collect(),
    };
    (v[0] as u64, v[1] as usize, state)
}

fn confirm_code(answer: Confirm, now: u64) -> (i64, i64) {
    match answer {
        Confirm::Go => (0, now as i64),
        Confirm::Wait { until, busy: false } => (1, until as i64),
        Confirm::Wait { until, busy: true } => (2, until as i64),
        Confirm::Disabled => (3, now as i64),
    }
}

thread_local! {
    static SERVER: RefCell<Option<(RedisServer, Connection, u64)>> = const { RefCell::new(None) };
}

/// A connection to this thread's server, a host name never used before,
/// and an epoch near Redis's own time (keys expire by it).
fn with_redis<T>(f: impl FnOnce(&mut Connection, String, u64) -> T) -> T {
    SERVER.with_borrow_mut(|slot| {
        let (_, redis, hosts) = slot.get_or_insert_with(|| {
            let server = RedisServer::start();
            let client = redis::Client::open(server.url()).unwrap();
            let redis = client.get_connection().unwrap();
            (server, redis, 0)
        });
        *hosts += 1;
        let (secs, micros): (u64, u64) = redis::cmd("TIME").query(redis).unwrap();
        f(
            redis,
            format!("host-{hosts}.test"),
            secs * 1000 + micros / 1000,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_scripts_pace_a_host_as_host_pace_does(
        options in options(),
        ops in prop::collection::vec(op(), 1..60),
    ) {
        with_redis(|redis, host, epoch| {
            let mut pace = HostPace::new();
            let mut slots: Vec<Slot> = Vec::new();
            let mut now = epoch;
            let mut places = 0;
            for (step, op) in ops.iter().enumerate() {
                let at = format!("step {step} {op:?} (now = epoch + {})", now - epoch);
                match *op {
                    Op::Reserve => {
                        let ours = pace.reserve(now, &options);
                        let theirs = ints(pace_script(redis, "reserve", &host, &options, now, &[]));
                        let ours_v = ours.map_or(vec![-1, pace.generation as i64, now as i64], |s| {
                            vec![s.start as i64, s.generation as i64, now as i64]
                        });
                        prop_assert_eq!(&theirs, &ours_v, "{}", at);
                        slots.extend(ours);
                    }
                    Op::Confirm(i) if !slots.is_empty() => {
                        let i = i % slots.len();
                        let before = slots[i];
                        let answer = pace.confirm(&mut slots[i], now, &options);
                        places += 1;
                        let theirs = ints(pace_script(redis, "confirm", &host, &options, now, &[
                            before.start.to_string(), before.generation.to_string(), format!("place-{places}"),
                        ]));
                        let (code, until) = confirm_code(answer, now);
                        let after = slots[i];
                        prop_assert_eq!(&theirs, &vec![code, after.start as i64, after.generation as i64, until, now as i64], "{}", at);
                        if !matches!(answer, Confirm::Wait { .. }) {
                            slots.remove(i);
                        }
                    }
                    Op::Cancel(i) if !slots.is_empty() => {
                        let slot = slots.remove(i % slots.len());
                        pace.cancel(slot, &options);
                        pace_script(redis, "cancel", &host, &options, now, &[
                            slot.start.to_string(), slot.generation.to_string(),
                        ]);
                    }
                    Op::Confirm(_) | Op::Cancel(_) => continue,
                    Op::Record(status, retry_after) => {
                        pace.record(now, status, retry_after, &options);
                        let status = status.map_or(-1, i64::from);
                        let retry = retry_after.map_or(-1, |ms| ms as i64);
                        let gap = ints(pace_script(redis, "record", &host, &options, now, &[
                            status.to_string(), retry.to_string(),
                        ]));
                        prop_assert_eq!(gap, vec![pace.gap(&options) as i64], "{}", at);
                    }
                    Op::SetDelay(delay) => {
                        pace.set_delay(delay, &options);
                        pace_script(redis, "set_delay", &host, &options, now, &[delay.to_string()]);
                    }
                    Op::SetEnabled(enabled) => {
                        pace.set_enabled(enabled, &options);
                        pace_script(redis, "set_enabled", &host, &options, now, &[
                            u8::from(enabled).to_string(),
                        ]);
                    }
                    Op::Advance(ms) => now += ms,
                }
                let (gap, in_flight, mut state) = redis_state(redis, &host, &options, now);
                let mut ours = pace.clone();
                ours.in_flight.sort_unstable();
                state.in_flight.sort_unstable();
                prop_assert_eq!(gap, pace.gap(&options), "{}", at);
                prop_assert_eq!(in_flight, pace.in_flight_at(now), "{}", at);
                prop_assert_eq!(state, ours, "{}", at);
            }
            Ok(())
        })?;
    }
}

#[test]
fn a_long_run_of_throttling_reaches_the_same_cap() {
    with_redis(|redis, host, epoch| {
        let options = PacerOptions {
            floor_ms: 1000,
            backoff_cap_ms: u64::MAX / 4,
            ..PacerOptions::default()
        };
        let mut pace = HostPace::new();
        for i in 0..14u64 {
            let now = epoch + i * 1000;
            pace.record(now, Some(503), None, &options);
            let gap = ints(pace_script(
                redis,
                "record",
                &host,
                &options,
                now,
                &["503".into(), "-1".into()],
            ));
            assert_eq!(
                gap,
                vec![pace.gap(&options) as i64],
                "after {} answers",
                i + 1
            );
        }
        assert_eq!(pace.factor, robotstxt::MAX_FACTOR);
        let (_, _, state) = redis_state(redis, &host, &options, epoch + 14_000);
        assert_eq!(state.factor, pace.factor);
    });
}

/// The cache's scripts for `origin`: (kind, version, token or ms left, data).
fn lookup(
    redis: &mut Connection,
    origin: &str,
    lease_ms: u64,
    held: &str,
) -> (String, String, String, Vec<u8>) {
    lookup_at(redis, origin, lease_ms, "", held)
}

/// [`lookup`] at `now` ("": Redis's clock).
fn lookup_at(
    redis: &mut Connection,
    origin: &str,
    lease_ms: u64,
    now: &str,
    held: &str,
) -> (String, String, String, Vec<u8>) {
    let reply: (String, i64, String, i64, String, Vec<u8>) = redis::cmd("EVAL")
        .arg(fleet_script("lookup").unwrap())
        .arg(2)
        .arg(format!("test:copy:{origin}"))
        .arg(format!("test:lease:{origin}"))
        .arg(lease_ms)
        .arg(now)
        .arg(held)
        .query(redis)
        .unwrap();
    (reply.0, reply.2, reply.4, reply.5)
}

fn store(redis: &mut Connection, origin: &str, token: &str, data: &[u8], due: u64) -> String {
    store_at(redis, origin, token, data, due, "")
}

/// [`store`] at `now` ("": Redis's clock).
fn store_at(
    redis: &mut Connection,
    origin: &str,
    token: &str,
    data: &[u8],
    due: u64,
    now: &str,
) -> String {
    redis::cmd("EVAL")
        .arg(fleet_script("store").unwrap())
        .arg(2)
        .arg(format!("test:copy:{origin}"))
        .arg(format!("test:lease:{origin}"))
        .arg(token)
        .arg(data)
        .arg(due)
        .arg(86_400_000u64)
        .arg(now)
        .query(redis)
        .unwrap()
}

#[test]
fn a_lease_runs_out_by_the_clock_that_took_it() {
    with_redis(|redis, origin, epoch| {
        // Times given, far from Redis's own: the lease's `until` decides,
        // not the key's expiry.
        let at = |ms: u64| (epoch + 10_000_000 + ms).to_string();
        let (kind, _, token, _) = lookup_at(redis, &origin, 1_000, &at(0), "");
        assert_eq!(kind, "fetch");
        let (kind, _, left, _) = lookup_at(redis, &origin, 1_000, &at(999), "");
        assert_eq!((kind.as_str(), left.as_str()), ("wait", "1"));
        // Ran out, nobody took it again: still too late to store.
        assert_eq!(store_at(redis, &origin, &token, b"late", 0, &at(1_000)), "");
        let (kind, _, second, _) = lookup_at(redis, &origin, 1_000, &at(1_000), "");
        assert_eq!(kind, "fetch");
        assert_ne!(second, token);
        assert_eq!(store_at(redis, &origin, &token, b"late", 0, &at(1_001)), "");
        assert_eq!(
            store_at(redis, &origin, &second, b"copy", 0, &at(1_999)),
            second
        );
    });
}

#[test]
fn one_fetch_lease_per_origin_fenced_and_versioned() {
    with_redis(|redis, origin, epoch| {
        // The first worker fetches; the others wait while it does.
        let (kind, version, token, data) = lookup(redis, &origin, 60_000, "");
        assert_eq!(
            (kind.as_str(), version.as_str(), data.len()),
            ("fetch", "", 0)
        );
        let (kind, _, left, _) = lookup(redis, &origin, 60_000, "");
        assert_eq!(kind, "wait");
        assert!(left.parse::<u64>().unwrap() > 59_000);
        // A wrong token stores nothing; the right one stores once.
        assert_eq!(store(redis, &origin, "1-0", b"copy", epoch + 3_600_000), "");
        let version = store(redis, &origin, &token, b"copy one", epoch + 3_600_000);
        assert_eq!(version, token);
        assert_eq!(
            store(redis, &origin, &token, b"again", epoch + 3_600_000),
            ""
        );
        // Fresh: every worker reads it; one that holds it gets no data.
        let (kind, v, _, data) = lookup(redis, &origin, 60_000, "");
        assert_eq!(
            (kind.as_str(), v.as_str(), data.as_slice()),
            ("fresh", version.as_str(), &b"copy one"[..])
        );
        let (kind, _, _, data) = lookup(redis, &origin, 60_000, &version);
        assert_eq!((kind.as_str(), data.len()), ("fresh", 0));
        // Due: one new lease, with a new token; a lease that ran out is
        // taken again, and its holder can no longer store.
        store_due_now(redis, &origin);
        let (kind, _, first, _) = lookup(redis, &origin, 50, &version);
        assert_eq!(kind, "fetch");
        assert_ne!(first, token);
        std::thread::sleep(std::time::Duration::from_millis(80));
        let (kind, _, second, _) = lookup(redis, &origin, 60_000, &version);
        assert_eq!(kind, "fetch");
        assert_ne!(second, first);
        assert_eq!(store(redis, &origin, &first, b"stale", epoch), "");
        assert_eq!(
            store(redis, &origin, &second, b"copy two", epoch + 7_200_000),
            second
        );
        let (_, v, _, data) = lookup(redis, &origin, 60_000, &version);
        assert_eq!((v, data), (second, b"copy two".to_vec()));
    });
}

/// Makes the stored copy due (as time passing would).
fn store_due_now(redis: &mut Connection, origin: &str) {
    let () = redis::cmd("HSET")
        .arg(format!("test:copy:{origin}"))
        .arg("due")
        .arg(0)
        .query(redis)
        .unwrap();
}
