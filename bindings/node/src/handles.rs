//! Handles: small numbers naming live `Rules`, for the package entry's
//! fast paths (`_rulesIsAllowed`, `_rulesAllowedFlags`).
//!
//! A handle is a slot of a per-thread table. Reading one is an index into
//! that table: no External to read, no registry of native values to look
//! the External up in, no borrow of it to track. On rules not used lately
//! those were a cache miss each, per call. A JavaScript `Rules` takes a
//! slot when its handle is first asked for and gives it back when it is
//! collected. A number that names no live slot is refused; the table
//! cannot tell a stale number whose slot was taken again from a fresh one,
//! which is why only the package entry, holding the `Rules` itself, passes
//! them.

use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    // A `Rules` lives and is collected on its JavaScript thread, so each
    // thread keeps its own table.
    static TABLE: RefCell<Table> = const {
        RefCell::new(Table {
            slots: Vec::new(),
            free: Vec::new(),
        })
    };
}

struct Table {
    slots: Vec<Option<Arc<robotstxt::Rules>>>,
    /// Slots given back, taken again before the table grows.
    free: Vec<u32>,
}

/// A slot for `rules`, or `None` once a thread holds `u32::MAX` of them.
pub fn take(rules: &Arc<robotstxt::Rules>) -> Option<u32> {
    TABLE.with_borrow_mut(|table| {
        let rules = Some(Arc::clone(rules));
        if let Some(slot) = table.free.pop() {
            table.slots[slot as usize] = rules;
            return Some(slot);
        }
        let slot = u32::try_from(table.slots.len())
            .ok()
            .filter(|&s| s != u32::MAX)?;
        table.slots.push(rules);
        Some(slot)
    })
}

/// Gives `slot` back (its `Rules` was collected).
pub fn give_back(slot: u32) {
    // A thread being torn down has dropped its table already.
    let _ = TABLE.try_with(|table| {
        let mut table = table.borrow_mut();
        if let Some(rules) = table.slots.get_mut(slot as usize) {
            if rules.take().is_some() {
                table.free.push(slot);
            }
        }
    });
}

/// The rules in `slot`, or `None` when it holds none.
///
/// A clone of the `Arc`, not a borrow of the table: whatever runs while the
/// caller checks (a collection giving slots back) cannot pull the rules
/// from under it.
pub fn get(slot: u32) -> Option<Arc<robotstxt::Rules>> {
    TABLE.with_borrow(|table| table.slots.get(slot as usize)?.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(body: &str) -> Arc<robotstxt::Rules> {
        Arc::new(
            robotstxt::Robots::parse(body.as_bytes())
                .rules_for("a")
                .unwrap(),
        )
    }

    #[test]
    fn slots_name_their_rules_until_given_back_then_are_reused() {
        let (open, closed) = (rules(""), rules("User-agent: *\nDisallow: /\n"));
        let a = take(&open).unwrap();
        let b = take(&closed).unwrap();
        assert_ne!(a, b);
        assert!(get(a).unwrap().can_fetch("/x"));
        assert!(!get(b).unwrap().can_fetch("/x"));
        give_back(a);
        assert!(get(a).is_none());
        // Twice is harmless: the slot is not freed twice.
        give_back(a);
        let c = take(&closed).unwrap();
        assert_eq!(c, a);
        let d = take(&open).unwrap();
        assert_ne!(d, c);
        assert!(!get(c).unwrap().can_fetch("/x"));
        assert!(get(u32::MAX).is_none());
        assert!(get(d + 1).is_none());
        // The table holds the rules alive, and lets go when given back.
        assert_eq!(Arc::strong_count(&closed), 3);
        give_back(b);
        give_back(c);
        assert_eq!(Arc::strong_count(&closed), 1);
    }
}
