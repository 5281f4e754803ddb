//! The Lua scripts a fleet's workers run in Redis (`redis/*.lua`): each
//! shared step of the cache and the pacer, atomic, on Redis's clock. Every
//! binding takes them from here, so that one copy of each is committed and
//! run. The core itself never talks to Redis.

use std::sync::LazyLock;

const PRELUDE: &str = include_str!("../../redis/prelude.lua");

/// Each step's own part, by name.
const STEPS: [(&str, &str); 11] = [
    ("lookup", include_str!("../../redis/lookup.lua")),
    ("store", include_str!("../../redis/store.lua")),
    ("renew", include_str!("../../redis/renew.lua")),
    ("abandon", include_str!("../../redis/abandon.lua")),
    ("reserve", include_str!("../../redis/reserve.lua")),
    ("confirm", include_str!("../../redis/confirm.lua")),
    ("cancel", include_str!("../../redis/cancel.lua")),
    ("record", include_str!("../../redis/record.lua")),
    ("set_delay", include_str!("../../redis/set_delay.lua")),
    ("set_enabled", include_str!("../../redis/set_enabled.lua")),
    ("pace_state", include_str!("../../redis/pace_state.lua")),
];

/// Every script by name, as Redis runs it (the shared prelude, then the
/// step): `lookup`, `store`, `renew` and `abandon` for the cache;
/// `reserve`, `confirm`, `cancel`, `record`, `set_delay`, `set_enabled`
/// and `pace_state` for the pacer. Each file's head says its keys,
/// arguments and answer. Joined on first use, so that the library carries
/// the prelude once (the WebAssembly builds count their bytes).
pub static FLEET_SCRIPTS: LazyLock<[(&str, &str); 11]> = LazyLock::new(|| {
    STEPS.map(|(name, step)| {
        let source: &'static str = Box::leak(format!("{PRELUDE}\n{step}").into_boxed_str());
        (name, source)
    })
});

/// The script called `name`, or `None`.
pub fn fleet_script(name: &str) -> Option<&'static str> {
    FLEET_SCRIPTS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, source)| *source)
}
