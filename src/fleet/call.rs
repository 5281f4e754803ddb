//! What a binding runs, and on which clock: a script call with its keys
//! and arguments, and the fleet's time, which is Redis's.

use crate::fleet_script;

/// One script for the binding to run on its Redis client: `EVALSHA` with
/// the SHA-1 of [`ScriptCall::source`] (or `EVAL` with the source when
/// the server does not have it yet), the keys, then the arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptCall {
    name: &'static str,
    keys: Vec<String>,
    args: Vec<Vec<u8>>,
}

impl ScriptCall {
    pub(crate) fn new(name: &'static str, keys: Vec<String>) -> ScriptCall {
        debug_assert!(fleet_script(name).is_some(), "no script {name}");
        ScriptCall {
            name,
            keys,
            args: Vec::new(),
        }
    }

    pub(crate) fn arg(mut self, value: impl Into<Vec<u8>>) -> ScriptCall {
        self.args.push(value.into());
        self
    }

    pub(crate) fn num(self, value: u64) -> ScriptCall {
        self.arg(value.to_string())
    }

    /// The script's name (`lookup`, `reserve`, ...).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The script's Lua source, for `EVAL` or `SCRIPT LOAD`.
    pub fn source(&self) -> &'static str {
        fleet_script(self.name).expect("every call names a known script")
    }

    /// The keys, in order (each with its origin or host in braces, so
    /// that a call's keys share one cluster slot).
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The arguments, in order.
    pub fn args(&self) -> &[Vec<u8>] {
        &self.args
    }
}

/// When a step happens, as the worker tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// A reading of the worker's monotonic clock in ms, from any origin.
    /// The fleet's time is Redis's (`TIME`): the core keeps the worker's
    /// offset to it from each answer, so that a step of the worker's wall
    /// clock (NTP, a VM resumed) moves nothing.
    Monotonic(u64),
    /// A time the caller gives, in ms on the fleet's clock: scripts are
    /// told it instead of reading Redis's (tests, replays).
    Given(u64),
}

impl At {
    /// The `now` argument of a script: the time given, or '' for Redis's.
    pub(crate) fn script_now(self) -> Vec<u8> {
        match self {
            At::Given(ms) => ms.to_string().into_bytes(),
            At::Monotonic(_) => Vec::new(),
        }
    }
}

/// The fleet's time as a worker estimates it between answers: Redis's
/// time of the last answer, moved on by the worker's monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FleetClock {
    /// Redis's time minus the monotonic reading taken before the call that
    /// answered with it: an estimate that runs slightly ahead, so that a
    /// copy is taken for due a round trip early rather than late.
    offset: Option<i128>,
}

impl FleetClock {
    /// The fleet's time at `at`, or `None` before any answer.
    pub fn now(&self, at: At) -> Option<u64> {
        match at {
            At::Given(ms) => Some(ms),
            At::Monotonic(ms) => self
                .offset
                .map(|offset| (i128::from(ms) + offset).clamp(0, i128::from(u64::MAX)) as u64),
        }
    }

    /// Redis answered `redis_now` to a call made at `sent`.
    pub fn observe(&mut self, sent: At, redis_now: u64) {
        if let At::Monotonic(ms) = sent {
            self.offset = Some(i128::from(redis_now) - i128::from(ms));
        }
    }
}

/// The keys of a fleet, under its prefix (default `robotstxt:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    pub prefix: String,
}

impl Keys {
    pub fn copy(&self, origin: &str) -> String {
        format!("{}copy:{{{origin}}}", self.prefix)
    }

    pub fn lease(&self, origin: &str) -> String {
        format!("{}lease:{{{origin}}}", self.prefix)
    }

    pub fn pace(&self, host: &str) -> [String; 2] {
        [
            format!("{}pace:{{{host}}}", self.prefix),
            format!("{}flight:{{{host}}}", self.prefix),
        ]
    }
}
