//! Reading a file: bytes → lines → records → groups and normalised rules
//! (behaviour §2–§3), with the diagnostics a linter shows.

pub mod agent;
// Fixed-size copies into a vector's reserved room.
#[allow(unsafe_code)]
pub mod append;
pub mod diagnostics;
pub mod lex;
pub mod options;
pub mod rate;
pub mod record;
pub mod robots;
// SSE2 loads and compares (x86_64 only), each bounds-checked; AVX2 ones
// only behind `scan::Avx2`, the proof that the CPU has them.
#[allow(unsafe_code)]
pub mod scan;
pub mod usage;
