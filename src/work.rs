//! Counted work: with the `work-count` feature, the loops whose trip count
//! a file or a URL decides add their steps to a per-thread count, so that
//! tests can hold every per-file operation to linear growth without a
//! clock (`tests/linear_work.rs`, the `linear` fuzz target). Without the
//! feature, counting compiles to nothing.

#[cfg(feature = "work-count")]
thread_local! {
    static DONE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `steps` steps of work on this thread.
#[inline(always)]
pub(crate) fn add(steps: usize) {
    #[cfg(feature = "work-count")]
    DONE.with(|done| done.set(done.get().wrapping_add(steps as u64)));
    let _ = steps;
}

/// The steps counted on this thread since the last call, and a fresh count.
#[cfg(feature = "work-count")]
pub fn take() -> u64 {
    DONE.with(|done| done.replace(0))
}
