//! Matching: one crawler's rules, compiled once, and the longest-match
//! answer for a URL (behaviour §4–§5), allocation-free per check.

pub mod index;
pub mod keys;
// One heap block for a parse's arrays, read back as typed slices.
#[allow(unsafe_code)]
pub mod packed;
pub mod pattern;
pub mod percent;
pub mod preferences;
pub mod prefetch;
pub mod rules;
pub mod selection;
pub mod url;
pub mod usage_index;
