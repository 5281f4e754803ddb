//! A core value behind an immutable Python object that can be closed:
//! `close()` frees it at once (after a batch running on it without the GIL
//! ends), and every use after that raises `ClosedError`.

use std::sync::{PoisonError, RwLock};

use pyo3::prelude::*;

use crate::errors::{self, Kind};

pub struct Handle<T> {
    /// Held inline, not behind an `Arc`: a check on rules not used lately
    /// meets one cold cache line fewer.
    slot: RwLock<Option<T>>,
    /// The Python class name, for the closed message.
    name: &'static str,
}

impl<T> Handle<T> {
    pub fn new(value: T, name: &'static str) -> Handle<T> {
        Handle {
            slot: RwLock::new(Some(value)),
            name,
        }
    }

    fn closed(&self, py: Python<'_>) -> PyErr {
        errors::new(
            py,
            Kind::Closed,
            format!("this {} was closed: make a new one", self.name),
        )
    }

    /// Runs `f` on the value, under a read lock held for the call only.
    pub fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&T) -> R) -> PyResult<R> {
        let guard = self.slot.read().unwrap_or_else(PoisonError::into_inner);
        match guard.as_ref() {
            Some(value) => Ok(f(value)),
            None => Err(self.closed(py)),
        }
    }

    /// `with`, with the GIL released while `f` runs. The read lock is taken
    /// and given back without the GIL, so a `close` waiting for it (with
    /// the GIL) never blocks the end of `f`.
    pub fn with_released<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&T) -> R + Send,
    ) -> PyResult<R>
    where
        T: Send + Sync,
    {
        let got = py.detach(|| {
            let guard = self.slot.read().unwrap_or_else(PoisonError::into_inner);
            guard.as_ref().map(f)
        });
        got.ok_or_else(|| self.closed(py))
    }

    /// Frees the value; later uses raise `ClosedError`. Idempotent.
    pub fn close(&self) {
        let taken = self
            .slot
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(taken); // outside the lock
    }

    pub fn is_closed(&self) -> bool {
        self.slot
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
    }
}
