//! The Lua scripts a fleet's workers run in Redis (`redis/*.lua`): each
//! shared step of the cache and the pacer, atomic, on Redis's clock. Every
//! binding takes them from here, so that one copy of each is committed and
//! run. The core itself never talks to Redis.

/// A script as Redis runs it: the shared prelude, then the step.
macro_rules! script {
    ($name:literal) => {
        (
            $name,
            concat!(
                include_str!("../../redis/prelude.lua"),
                "\n",
                include_str!(concat!("../../redis/", $name, ".lua"))
            ),
        )
    };
}

/// Every script by name: `lookup`, `store`, `renew` and `abandon` for the cache;
/// `reserve`, `confirm`, `cancel`, `record`, `set_delay`, `set_enabled`
/// and `pace_state` for the pacer. Each file's head says its keys,
/// arguments and answer.
pub const FLEET_SCRIPTS: [(&str, &str); 11] = [
    script!("lookup"),
    script!("store"),
    script!("renew"),
    script!("abandon"),
    script!("reserve"),
    script!("confirm"),
    script!("cancel"),
    script!("record"),
    script!("set_delay"),
    script!("set_enabled"),
    script!("pace_state"),
];

/// The script called `name`, or `None`.
pub fn fleet_script(name: &str) -> Option<&'static str> {
    FLEET_SCRIPTS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, source)| *source)
}
