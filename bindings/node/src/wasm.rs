//! The WebAssembly build's direct path for the package entry's hottest
//! calls, `isAllowed` and `filterAllowed` on a `Rules` handle: plain wasm
//! exports that JavaScript calls with the URL already in linear memory.
//!
//! Through emnapi, each N-API call of a check (the string read, the number
//! read, the boolean made) is a JavaScript function with its own handle
//! scope: some 4 µs per check, where the core takes well under 1 µs. Here
//! the package entry writes the URL's UTF-8 (`TextEncoder.encodeInto`,
//! which replaces lone surrogates as N-API does natively) into one
//! reusable buffer and gets a number back.
//!
//! Anything these cannot answer (a handle that names no live rules) comes
//! back as a negative code, and the package entry asks the N-API export,
//! which throws the error the native build throws.

use std::cell::RefCell;

use crate::handles::{self, Slot};
use crate::rules::{line_end, prefetch_for};

/// The handle names closed rules.
const CLOSED: i32 = -1;
/// The handle names no rules.
const NO_RULES: i32 = -2;

thread_local! {
    // wasm32-wasip1 has one thread: this is the module's only buffer.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The address of the scratch buffer, grown to at least `len` bytes. The
/// address changes only when it grows: the caller keeps it until it needs
/// more room.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_node_scratch(len: u32) -> *mut u8 {
    SCRATCH.with_borrow_mut(|scratch| {
        let len = len as usize;
        if scratch.len() < len {
            scratch.resize(len, 0);
        }
        scratch.as_mut_ptr()
    })
}

fn with_rules(handle: u32, f: impl FnOnce(&robotstxt::Rules) -> i32) -> i32 {
    match handles::get(handle) {
        Slot::Live(rules) => f(&rules),
        Slot::Closed => CLOSED,
        Slot::Free => NO_RULES,
    }
}

/// `rules.isAllowed(url)` for the rules of `handle`, with the URL's bytes
/// the first `len` of the scratch buffer: 1 allowed, 0 not, or a negative
/// code.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_node_is_allowed(handle: u32, len: u32) -> i32 {
    with_rules(handle, |rules| {
        SCRATCH.with_borrow(|scratch| {
            let url = scratch.get(..len as usize).unwrap_or_default();
            i32::from(rules.can_fetch(url))
        })
    })
}

/// The batch of `filterAllowed`: the first `len` bytes of the scratch
/// buffer are `count` URLs joined by `"\n"`; the `count` bytes after them
/// get one answer each (1 allowed, 0 not). Returns 1, 0 when the bytes do
/// not hold `count` lines (a URL held a line break: the caller asks one at
/// a time), or a negative code.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_node_allowed_flags(handle: u32, len: u32, count: u32) -> i32 {
    with_rules(handle, |rules| {
        SCRATCH.with_borrow_mut(|scratch| {
            let (len, count) = (len as usize, count as usize);
            let Some((joined, flags)) = scratch
                .get_mut(..len + count)
                .map(|bytes| bytes.split_at_mut(len))
            else {
                return 0;
            };
            prefetch_for(rules, count);
            let (mut rest, mut seen) = (&*joined, 0);
            loop {
                let end = line_end(rest);
                match flags.get_mut(seen) {
                    Some(flag) => *flag = u8::from(rules.can_fetch(&rest[..end])),
                    None => return 0,
                }
                seen += 1;
                match rest.get(end + 1..) {
                    Some(after) => rest = after,
                    None => break,
                }
            }
            i32::from(seen == count)
        })
    })
}
