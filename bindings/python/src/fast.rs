//! `Rules.can_fetch` and `Rules.decide` with the METH_FASTCALL calling
//! convention (the arguments as a C array), which the stable ABI has from
//! 3.10, the baseline. PyO3 builds the methods of an abi3 module with
//! METH_VARARGS, which packs every call's arguments into a new tuple: some
//! 350 instructions a call, a third of what a check costs from Python.
//!
//! The only other `unsafe` of the binding is in text.rs.

use std::ffi::{c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::rules::Rules;

/// From Include/methodobject.h (stable ABI from 3.10).
const METH_FASTCALL: c_int = 0x0080;

type FastCall = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    ffi::Py_ssize_t,
) -> *mut ffi::PyObject;

/// Replaces `Rules.can_fetch` and `Rules.decide` with METH_FASTCALL
/// methods that do the same.
pub fn install(py: Python<'_>) -> PyResult<()> {
    let ty = py.get_type::<Rules>();
    for (name, call) in [("can_fetch", can_fetch as FastCall), ("decide", decide)] {
        let doc: String = ty.getattr(name)?.getattr("__doc__")?.extract()?;
        let signature = format!("{name}($self, url, /)\n--\n\n{doc}");
        // CPython keeps pointers to the definition and its strings for as
        // long as the method exists: for the life of the process.
        let def = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: CString::new(name)?.into_raw(),
            ml_meth: ffi::PyMethodDefPointer {
                // SAFETY: with METH_FASTCALL, CPython calls `ml_meth` as a
                // `FastCall` (the cast C code writes as `(PyCFunction)f`).
                PyCFunction: unsafe { std::mem::transmute::<FastCall, ffi::PyCFunction>(call) },
            },
            ml_flags: METH_FASTCALL,
            ml_doc: CString::new(signature)?.into_raw(),
        }));
        // SAFETY: `ty` is a live type object and `def` lives for ever.
        let descr = unsafe {
            Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(ty.as_type_ptr(), def))
        }?;
        ty.setattr(name, descr)?;
    }
    Ok(())
}

unsafe extern "C" fn can_fetch(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls this as a METH_FASTCALL method (see `call`).
    unsafe {
        call(slf, args, nargs, "can_fetch", |py, rules, url| {
            let ok = rules.check(py, url)?;
            Ok(PyBool::new(py, ok).to_owned().into_any().unbind())
        })
    }
}

unsafe extern "C" fn decide(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls this as a METH_FASTCALL method (see `call`).
    unsafe {
        call(slf, args, nargs, "decide", |py, rules, url| {
            Ok(Py::new(py, rules.decision(py, url)?)?.into_any())
        })
    }
}

/// Runs `f` for a METH_FASTCALL call: one positional argument, a panic
/// turned into a `PanicException`, an error set as Python's exception.
///
/// # Safety
/// Called by CPython with the GIL held, `slf` the object the method was
/// looked up on (any object, when called through the type), and `args`
/// readable for `nargs` borrowed references.
unsafe fn call(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    name: &str,
    f: impl FnOnce(Python<'_>, &Rules, &Bound<'_, PyAny>) -> PyResult<Py<PyAny>>,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls methods with the GIL held.
    let py = unsafe { Python::assume_attached() };
    let run = || -> PyResult<Py<PyAny>> {
        if nargs != 1 {
            return Err(PyTypeError::new_err(format!(
                "Rules.{name}() takes exactly one argument (url), {nargs} given"
            )));
        }
        // SAFETY: as the function's contract says; both are borrowed, and
        // `from_borrowed_ptr` takes a reference of its own.
        let (slf, url) = unsafe {
            (
                Bound::from_borrowed_ptr(py, slf),
                Bound::from_borrowed_ptr(py, *args),
            )
        };
        let rules = slf
            .cast::<Rules>()
            .map_err(|_| PyTypeError::new_err(format!("Rules.{name}() needs a Rules as self")))?;
        f(py, rules.get(), &url)
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(value)) => value.into_ptr(),
        Ok(Err(err)) => {
            err.restore(py);
            ptr::null_mut()
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "panic from Rust code".to_owned());
            PanicException::new_err(message).restore(py);
            ptr::null_mut()
        }
    }
}
