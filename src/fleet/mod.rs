//! A fleet's shared steps, sans I/O (docs/fleet.md): for each step the
//! core says which script to run with which keys and arguments
//! ([`ScriptCall`]); the binding runs it on its own Redis client and hands
//! the reply back ([`Reply`]); the core decides what it means. Bindings
//! keep only the client calls, their async or sync shape, and idioms.

pub mod cache;
pub mod call;
pub mod pacer;
pub mod reply;
