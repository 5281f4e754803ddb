//! Crawl policy: what a fetch outcome means, how long a copy stays fresh,
//! the per-origin cache with its leases, and the per-host pacer
//! (behaviour §6–§9). Sans I/O: the crawler fetches; these decide.

pub mod access;
pub mod cache;
pub mod checksum;
pub mod freshness;
pub mod origin;
pub mod pace;
pub mod pacer;
pub mod scripts;
pub mod stored;
pub mod user_agent;
