//! The fleet protocol (src/fleet/) on a real Redis: workers are
//! `FleetCache`s and `FleetPacer`s whose calls this test runs, as a
//! binding would, and whose faults it makes: a copy that does not decode
//! or comes from a newer format, a fetch slower than its lease, a worker
//! clock that steps, corrupt pace fields, and Redis losing everything.

mod common;

use common::redis_cluster::RedisCluster;
use common::redis_server::RedisServer;
use redis::{ConnectionLike, Value};
use robotstxt::{
    At, Cached, Entry, FetchResult, FleetCache, FleetCacheOptions, FleetConfirm, FleetLease,
    FleetLookup, FleetPacer, FleetPacerOptions, FreshnessPolicy, Reply, ScriptCall, WhenFetching,
};

const URL: &str = "https://shop.test/page";
const BODY: &[u8] = b"User-agent: *\nDisallow: /private\n";

/// Runs `scenario` on one Redis server and on a 3-master cluster (through
/// the cluster client, as a binding's cluster mode does).
macro_rules! on_one_redis_and_a_cluster {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            use super::*;

            #[test]
            fn one_redis() {
                let server = RedisServer::start();
                let mut redis = redis::Client::open(server.url()).unwrap().get_connection().unwrap();
                super::$scenario(&mut redis);
            }

            #[test]
            fn cluster() {
                let cluster = RedisCluster::start();
                super::$scenario(&mut cluster.client());
            }
        }
    )*};
}

on_one_redis_and_a_cluster!(
    an_unreadable_copy_is_no_copy_and_its_reader_fetches_over_it,
    a_worker_that_cannot_read_a_copy_gives_its_lease_back_when_it_gives_up,
    a_fetch_slower_than_its_lease_stays_one_fetch_while_renewed,
    a_held_copy_is_due_by_the_fleets_clock_not_the_workers_wall_clock,
    corrupt_pace_fields_give_the_strictest_pace_never_a_hang_or_a_faster_one,
    a_zero_factor_still_backs_off,
    redis_restarted_empty_loses_no_kill_switch_retry_after_backoff_or_delay,
    a_switch_set_after_the_restore_is_not_undone_by_an_older_worker,
);

/// Runs `call` as a binding does, and hands its reply over as the client
/// gave it. A cluster answers TRYAGAIN while a slot's keys are half moved;
/// like the bindings' cluster clients, this asks again a little later.
fn run(redis: &mut dyn ConnectionLike, call: &ScriptCall) -> Reply {
    for _ in 0..100 {
        match run_once(redis, call) {
            Reply::Error(message) if message.starts_with("TryAgain") => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            reply => return reply,
        }
    }
    panic!("{}: TRYAGAIN for 2 s", call.name());
}

fn run_once(redis: &mut dyn ConnectionLike, call: &ScriptCall) -> Reply {
    let mut cmd = redis::cmd("EVAL");
    cmd.arg(call.source()).arg(call.keys().len());
    for key in call.keys() {
        cmd.arg(key);
    }
    for arg in call.args() {
        cmd.arg(arg.as_slice());
    }
    match cmd.query::<Value>(redis) {
        Ok(value) => reply_of(value),
        Err(e) => Reply::Error(e.to_string()),
    }
}

fn reply_of(value: Value) -> Reply {
    match value {
        Value::Nil => Reply::Nil,
        Value::Int(n) => Reply::Int(n),
        Value::BulkString(b) => Reply::Bytes(b),
        Value::SimpleString(s) | Value::VerbatimString { text: s, .. } => {
            Reply::Bytes(s.into_bytes())
        }
        Value::Okay => Reply::Bytes(b"OK".to_vec()),
        Value::Array(items) => Reply::Array(items.into_iter().map(reply_of).collect()),
        other => Reply::Error(format!("unexpected {other:?}")),
    }
}

fn cache(prefix: &str, lease_ms: u64) -> FleetCache {
    FleetCache::new(FleetCacheOptions {
        prefix: prefix.into(),
        lease_ms,
        ..FleetCacheOptions::default()
    })
    .unwrap()
}

/// Runs a lookup to its end: an answer, a fetch or a wait (and how many
/// calls it took).
fn look(redis: &mut dyn ConnectionLike, cache: &mut FleetCache, at: At) -> (FleetLookup, usize) {
    look_when(redis, cache, at, WhenFetching::Wait)
}

fn look_when(
    redis: &mut dyn ConnectionLike,
    cache: &mut FleetCache,
    at: At,
    when: WhenFetching,
) -> (FleetLookup, usize) {
    let mut step = cache.lookup(URL.as_bytes(), at, when).unwrap();
    let mut calls = 0;
    while let FleetLookup::Run(pending) = step {
        calls += 1;
        assert!(calls <= 2, "a lookup takes at most two calls");
        let reply = run(redis, pending.call());
        step = cache.lookup_reply(pending, &reply).unwrap();
    }
    (step, calls)
}

fn fetch_lease(step: FleetLookup) -> FleetLease {
    match step {
        FleetLookup::Fetch(lease) => lease,
        other => panic!("expected a fetch, got {other:?}"),
    }
}

fn store(
    redis: &mut dyn ConnectionLike,
    cache: &mut FleetCache,
    lease: FleetLease,
    body: &[u8],
    at: At,
) -> bool {
    let result = FetchResult {
        status: Some(200),
        body,
        ..FetchResult::default()
    };
    let step = cache.store(lease, &result, at).unwrap();
    let reply = run(redis, step.call());
    cache.store_reply(step, &reply).unwrap().stored
}

fn allowed(answer: &Cached, path: &str) -> bool {
    match answer {
        Cached::Rules(robots) => robots.rules_for("ExampleBot").unwrap().can_fetch(path),
        Cached::AllowAll(_) => true,
        Cached::DisallowAll(_) => false,
    }
}

fn redis_ms(redis: &mut dyn ConnectionLike) -> u64 {
    let (secs, micros): (u64, u64) = redis::cmd("TIME").query(redis).unwrap();
    secs * 1000 + micros / 1000
}

/// A copy the fleet stores, then damages in one of the ways a rolling
/// upgrade or a bad write does.
fn damaged_copies() -> Vec<(&'static str, Vec<u8>)> {
    let policy = FreshnessPolicy::default();
    let mut entry = Entry::new();
    entry.record(
        0,
        &FetchResult {
            status: Some(200),
            body: BODY,
            ..FetchResult::default()
        },
        &policy,
    );
    let good = entry.encode(BODY).unwrap();
    let mut newer = good.clone();
    newer[4] += 1; // the format version byte
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0xff;
    vec![
        ("a newer format", newer),
        ("a flipped byte", flipped),
        ("cut short", good[..good.len() / 2].to_vec()),
        ("not a copy", b"garbage".to_vec()),
    ]
}

fn an_unreadable_copy_is_no_copy_and_its_reader_fetches_over_it(redis: &mut dyn ConnectionLike) {
    for (i, (how, bytes)) in damaged_copies().into_iter().enumerate() {
        let prefix = format!("t{i}:");
        let mut writer = cache(&prefix, 60_000);
        let (step, _) = look(redis, &mut writer, At::Monotonic(0));
        assert!(store(
            redis,
            &mut writer,
            fetch_lease(step),
            BODY,
            At::Monotonic(0)
        ));
        let key = format!("{prefix}copy:{{https://shop.test}}");
        let _: () = redis::cmd("HSET")
            .arg(&key)
            .arg("data")
            .arg(bytes)
            .query(redis)
            .unwrap();

        // A worker holding nothing meets the damaged copy, fresh in Redis:
        // it takes the lease (a second call) and fetches over it.
        let mut reader = cache(&prefix, 60_000);
        let (step, calls) = look(redis, &mut reader, At::Monotonic(0));
        assert_eq!(calls, 2, "{how}: the second call takes the lease");
        let lease = fetch_lease(step);
        assert_eq!(reader.stats().unreadable, 1, "{how}");

        // Meanwhile a third worker is held off, fail-safe: it waits, or
        // with disallow-all answers nothing allowed; it takes no lease.
        let mut third = cache(&prefix, 60_000);
        let (step, _) = look(redis, &mut third, At::Monotonic(0));
        assert!(matches!(step, FleetLookup::Wait { .. }), "{how}: {step:?}");
        let mut careful = cache(&prefix, 60_000);
        match look_when(
            redis,
            &mut careful,
            At::Monotonic(0),
            WhenFetching::DisallowAll,
        )
        .0
        {
            FleetLookup::Ready {
                answer, retry_at, ..
            } => {
                assert!(!allowed(&answer, "/"), "{how}");
                assert!(retry_at.is_some());
            }
            other => panic!("{how}: {other:?}"),
        }

        // The reader's store replaces the damaged copy; everyone reads it.
        assert!(
            store(redis, &mut reader, lease, BODY, At::Monotonic(0)),
            "{how}"
        );
        let (step, _) = look(redis, &mut third, At::Monotonic(1));
        match step {
            FleetLookup::Ready { answer, stale, .. } => {
                assert!(!stale);
                assert!(!allowed(&answer, "/private"), "{how}");
                assert!(allowed(&answer, "/public"), "{how}");
            }
            other => panic!("{how}: {other:?}"),
        }
        let lease_key = format!("{prefix}lease:{{https://shop.test}}");
        let exists: bool = redis::cmd("EXISTS").arg(&lease_key).query(redis).unwrap();
        assert!(!exists, "{how}: no lease is left behind");
    }
}

fn a_worker_that_cannot_read_a_copy_gives_its_lease_back_when_it_gives_up(
    redis: &mut dyn ConnectionLike,
) {
    let mut writer = cache("g:", 60_000);
    let (step, _) = look(redis, &mut writer, At::Monotonic(0));
    assert!(store(
        redis,
        &mut writer,
        fetch_lease(step),
        BODY,
        At::Monotonic(0)
    ));
    let _: () = redis::cmd("HSET")
        .arg("g:copy:{https://shop.test}")
        .arg("data")
        .arg("junk")
        .query(redis)
        .unwrap();
    let mut reader = cache("g:", 60_000);
    let lease = fetch_lease(look(redis, &mut reader, At::Monotonic(0)).0);
    let call = reader.abandon(lease).unwrap();
    run(redis, &call);
    // The next worker is handed the fetch at once.
    let mut next = cache("g:", 60_000);
    assert!(matches!(
        look(redis, &mut next, At::Monotonic(0)).0,
        FleetLookup::Fetch(_)
    ));
}

fn a_fetch_slower_than_its_lease_stays_one_fetch_while_renewed(redis: &mut dyn ConnectionLike) {
    let lease_ms = 300;
    let mut holder = cache("s:", lease_ms);
    let mut others: Vec<FleetCache> = (0..3).map(|_| cache("s:", lease_ms)).collect();
    let lease = fetch_lease(look(redis, &mut holder, At::Monotonic(0)).0);
    // The fetch takes over three leases; the holder renews every third.
    let started = std::time::Instant::now();
    let mut fetches = 1;
    while started.elapsed() < std::time::Duration::from_millis(1000) {
        std::thread::sleep(std::time::Duration::from_millis(holder.renew_every_ms()));
        let call = holder.renew(&lease, At::Monotonic(0));
        assert!(
            holder.renew_reply(&run(redis, &call)).unwrap(),
            "the lease is still the holder's"
        );
        for other in &mut others {
            if let FleetLookup::Fetch(_) = look(redis, other, At::Monotonic(0)).0 {
                fetches += 1;
            }
        }
    }
    assert_eq!(fetches, 1, "one fetch for the whole fleet");
    assert!(
        store(redis, &mut holder, lease, BODY, At::Monotonic(0)),
        "stored under the renewed lease"
    );

    // Unrenewed, the lease runs out and the next worker fetches; the late
    // store is refused and never held.
    let mut late = cache("s2:", lease_ms);
    let lease = fetch_lease(look(redis, &mut late, At::Monotonic(0)).0);
    std::thread::sleep(std::time::Duration::from_millis(lease_ms + 50));
    let call = late.renew(&lease, At::Monotonic(0));
    assert!(!late.renew_reply(&run(redis, &call)).unwrap());
    let mut next = cache("s2:", lease_ms);
    let next_lease = fetch_lease(look(redis, &mut next, At::Monotonic(0)).0);
    assert!(!store(redis, &mut late, lease, BODY, At::Monotonic(0)));
    assert!(late.is_empty());
    assert!(store(redis, &mut next, next_lease, BODY, At::Monotonic(0)));
}

fn a_held_copy_is_due_by_the_fleets_clock_not_the_workers_wall_clock(
    redis: &mut dyn ConnectionLike,
) {
    let policy = FreshnessPolicy {
        fresh_for_ms: 2_000,
        ..FreshnessPolicy::default()
    };
    let mut worker = FleetCache::new(FleetCacheOptions {
        prefix: "c:".into(),
        policy,
        ..FleetCacheOptions::default()
    })
    .unwrap();
    // The worker's monotonic clock reads 5,000,000 at the first call: any
    // origin will do, the offset to Redis's time is what counts.
    let mono = 5_000_000;
    let lease = fetch_lease(look(redis, &mut worker, At::Monotonic(mono)).0);
    assert!(store(redis, &mut worker, lease, BODY, At::Monotonic(mono)));
    let (step, calls) = look(redis, &mut worker, At::Monotonic(mono + 1_000));
    assert_eq!(calls, 0, "fresh: no Redis call");
    assert!(matches!(step, FleetLookup::Ready { stale: false, .. }));
    // 2 s on the monotonic clock (whatever the wall clock did meanwhile):
    // the copy is due, and Redis is asked.
    let mut step = worker
        .lookup(
            URL.as_bytes(),
            At::Monotonic(mono + 2_001),
            WhenFetching::Wait,
        )
        .unwrap();
    assert!(matches!(step, FleetLookup::Run(_)), "{step:?}");
    if let FleetLookup::Run(pending) = step {
        let reply = run(redis, pending.call());
        step = worker.lookup_reply(pending, &reply).unwrap();
    }
    // Redis's own clock has not reached the due yet: still fresh there.
    assert!(matches!(step, FleetLookup::Ready { .. }), "{step:?}");
    let now = worker.now(At::Monotonic(mono + 2_001)).unwrap();
    assert!(
        now.abs_diff(redis_ms(redis)) < 1_000,
        "the estimate follows Redis's clock"
    );
}

fn pacer(prefix: &str, floor_ms: u64) -> FleetPacer {
    let mut options = FleetPacerOptions {
        prefix: prefix.into(),
        ..FleetPacerOptions::default()
    };
    options.pacer.floor_ms = floor_ms;
    options.pacer.backoff_cap_ms = 60_000;
    FleetPacer::new(options).unwrap()
}

/// Reserves and confirms for `host` at `now` until go (advancing to each
/// `until`): the start, or `None` when switched off.
fn go_at(
    redis: &mut dyn ConnectionLike,
    pacer: &mut FleetPacer,
    host: &str,
    mut now: u64,
) -> Option<u64> {
    let step = pacer.reserve(host.as_bytes(), At::Given(now)).unwrap();
    let reply = run(redis, step.call());
    let mut ticket = pacer.reserve_reply(step, &reply).unwrap()?;
    for _ in 0..100 {
        now = now.max(ticket.start);
        let step = pacer.confirm(&ticket, At::Given(now)).unwrap();
        let reply = run(redis, step.call());
        match pacer.confirm_reply(&mut ticket, step, &reply).unwrap() {
            FleetConfirm::Go { at } => return Some(at),
            FleetConfirm::Wait { until, .. } => now = now.max(until),
            FleetConfirm::Disabled => return None,
        }
    }
    panic!("wait never returned");
}

fn pace_step(
    redis: &mut dyn ConnectionLike,
    pacer: &mut FleetPacer,
    step: robotstxt::PaceStep,
) -> u64 {
    let reply = run(redis, step.call());
    pacer.step_reply(step, &reply).unwrap()
}

fn corrupt_pace_fields_give_the_strictest_pace_never_a_hang_or_a_faster_one(
    redis: &mut dyn ConnectionLike,
) {
    let now = redis_ms(redis);
    let cases: &[(&str, &str)] = &[
        ("gen", "nan"),
        ("gen", "inf"),
        ("next", "-inf"),
        ("nb", "nan"),
        ("delay", "-5"),
        ("delay", "nan"),
        ("factor", "inf"),
        ("factor", "a lot"),
        ("last", "-1.5"),
        ("off", "maybe"),
    ];
    for (i, (field, value)) in cases.iter().enumerate() {
        let host = format!("h{i}.test");
        let mut worker = pacer("p:", 1_000);
        let step = worker
            .set_delay(host.as_bytes(), 2_000, At::Given(now))
            .unwrap();
        pace_step(redis, &mut worker, step);
        let first = go_at(redis, &mut worker, &host, now).expect("on");
        let _: () = redis::cmd("HSET")
            .arg(format!("p:pace:{{{host}}}"))
            .arg(*field)
            .arg(*value)
            .query(redis)
            .unwrap();
        // A fresh worker (it knows nothing to restore from).
        let mut other = pacer("p:", 1_000);
        match go_at(redis, &mut other, &host, first + 1) {
            None => assert_eq!(*field, "off", "only a damaged switch switches off"),
            Some(start) => assert!(
                start >= first + 2_000,
                "{field}={value}: the next start came {} ms after the last, under a 2,000 ms delay",
                start - first
            ),
        }
    }
}

fn a_zero_factor_still_backs_off(redis: &mut dyn ConnectionLike) {
    let now = redis_ms(redis);
    let mut worker = pacer("z:", 1_000);
    go_at(redis, &mut worker, "zero.test", now).unwrap();
    let _: () = redis::cmd("HSET")
        .arg("z:pace:{zero.test}")
        .arg("factor")
        .arg(0)
        .query(redis)
        .unwrap();
    let step = worker
        .record(b"zero.test", Some(503), None, At::Given(now))
        .unwrap();
    assert_eq!(
        pace_step(redis, &mut worker, step),
        2_000,
        "a 503 doubles the gap"
    );
}

fn redis_restarted_empty_loses_no_kill_switch_retry_after_backoff_or_delay(
    redis: &mut dyn ConnectionLike,
) {
    let now = redis_ms(redis);
    let mut a = pacer("r:", 500);
    let mut b = pacer("r:", 500);
    // What the fleet knew: off.test switched off, slow.test's crawl delay,
    // busy.test throttled with a Retry-After and a backoff, known to b only.
    let step = a.set_enabled(b"off.test", false, At::Given(now)).unwrap();
    pace_step(redis, &mut a, step);
    let step = a.set_delay(b"slow.test", 2_000, At::Given(now)).unwrap();
    pace_step(redis, &mut a, step);
    let slow_last = go_at(redis, &mut a, "slow.test", now).unwrap();
    go_at(redis, &mut a, "busy.test", now).unwrap();
    go_at(redis, &mut b, "busy.test", now + 10).unwrap();
    let step = b
        .record(b"busy.test", Some(429), Some(30_000), At::Given(now + 20))
        .unwrap();
    pace_step(redis, &mut b, step);
    // b and a both see off.test (a set it; b asks).
    assert_eq!(go_at(redis, &mut b, "off.test", now + 30), None);

    let _: () = redis::cmd("FLUSHALL").query(redis).unwrap();

    let later = now + 100;
    assert_eq!(
        go_at(redis, &mut a, "off.test", later),
        None,
        "still switched off"
    );
    let slow = go_at(redis, &mut a, "slow.test", later).unwrap();
    assert!(
        slow >= slow_last + 2_000 && slow >= later + 2_000,
        "the crawl delay, from the restore on"
    );
    // a restores busy.test without the 429 (it never saw it); b adds it
    // at its next call, before anything is sent.
    let step = a.reserve(b"busy.test", At::Given(later)).unwrap();
    let reply = run(redis, step.call());
    let ticket_a = a.reserve_reply(step, &reply).unwrap().unwrap();
    let start_b = go_at(redis, &mut b, "busy.test", later).unwrap();
    assert!(
        start_b >= now + 20 + 30_000,
        "b's start waits out the Retry-After it knew of"
    );
    // a's ticket was voided by b's merge: confirming it moves it past too.
    let mut ticket_a = ticket_a;
    let step = a.confirm(&ticket_a, At::Given(later + 1_000)).unwrap();
    let reply = run(redis, step.call());
    match a.confirm_reply(&mut ticket_a, step, &reply).unwrap() {
        FleetConfirm::Wait { until, .. } => assert!(until >= now + 20 + 30_000),
        other => panic!("a's old ticket must not go inside the Retry-After: {other:?}"),
    }
}

fn a_switch_set_after_the_restore_is_not_undone_by_an_older_worker(redis: &mut dyn ConnectionLike) {
    let now = redis_ms(redis);
    let mut a = pacer("w:", 100);
    let mut b = pacer("w:", 100);
    let step = a.set_enabled(b"x.test", false, At::Given(now)).unwrap();
    pace_step(redis, &mut a, step);
    assert_eq!(go_at(redis, &mut b, "x.test", now), None);
    let _: () = redis::cmd("FLUSHALL").query(redis).unwrap();
    // a restores it, then switches it on (an operator's decision).
    assert_eq!(go_at(redis, &mut a, "x.test", now + 10), None);
    let step = a.set_enabled(b"x.test", true, At::Given(now + 20)).unwrap();
    pace_step(redis, &mut a, step);
    assert!(
        go_at(redis, &mut b, "x.test", now + 30).is_some(),
        "b's older knowledge does not switch it off again"
    );
}

/// A busy host's pace and copy move to another master mid-crawl: the
/// cluster client follows ASK while the slot is half moved and MOVED
/// after, and the fleet's answers stay those of one pace and one copy.
#[test]
fn a_slot_migration_mid_crawl_keeps_the_pace_and_the_copy() {
    let cluster = RedisCluster::start();
    let mut redis = cluster.client();
    let redis: &mut dyn ConnectionLike = &mut redis;
    let now = redis_ms(redis);
    let mut workers = [pacer("m:", 1_000), pacer("m:", 1_000)];
    let mut starts = Vec::new();
    let mut clock = now;
    let mut round = |redis: &mut dyn ConnectionLike, starts: &mut Vec<u64>, clock: &mut u64| {
        for worker in workers.iter_mut() {
            let start = go_at(redis, worker, "busy.test", *clock).expect("on");
            starts.push(start);
            *clock = start + 10;
        }
    };
    round(redis, &mut starts, &mut clock);
    let pace_slot = cluster.slot("m:pace:{busy.test}");
    let mut caches = [cache("m:", 60_000), cache("m:", 60_000)];
    let lease = fetch_lease(look(redis, &mut caches[0], At::Given(now)).0);
    assert!(store(redis, &mut caches[0], lease, BODY, At::Given(now)));
    let copy_slot = cluster.slot("m:copy:{https://shop.test}");

    let moved_to = cluster.migrate_slot(pace_slot, || round(redis, &mut starts, &mut clock));
    round(redis, &mut starts, &mut clock);
    assert!(cluster.ports.contains(&moved_to));
    for pair in starts.windows(2) {
        assert!(
            pair[1] >= pair[0] + 1_000,
            "two starts {} ms apart under a 1,000 ms gap: {starts:?}",
            pair[1] - pair[0]
        );
    }
    assert_eq!(starts.len(), 8, "every round went");

    // The copy's slot moves; a worker that held no copy reads it from its
    // new master (MOVED), and the lease and fence moved with it.
    cluster.migrate_slot(copy_slot, || ());
    let (step, calls) = look(redis, &mut caches[1], At::Given(now + 2));
    assert_eq!(calls, 1);
    match step {
        FleetLookup::Ready { answer, .. } => assert!(!allowed(&answer, "/private")),
        other => panic!("{other:?}"),
    }
}
