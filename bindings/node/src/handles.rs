//! Handles: small numbers naming live `Rules`, for the package entry's
//! fast paths (`_rulesIsAllowed`, `_rulesAllowedFlags`, the getters).
//!
//! A handle is a slot of a per-thread table. Reading one is an index into
//! that table: no External to read, no registry of native values to look
//! the External up in, no borrow of it to track. On rules not used lately
//! those were a cache miss each, per call. A number that names no live
//! slot is refused; the table cannot tell a stale number whose slot was
//! taken again from a fresh one, which is why only the package entry,
//! holding the `Rules` itself, passes them (it exports no function that
//! takes one).
//!
//! The package entry's `rulesFor` makes its `Rules` around a slot (see
//! `rules::adopt`): a JavaScript object, no native one, which gives the
//! slot back when closed, or when collected (through a
//! `FinalizationRegistry`).
//!
//! A native `Rules` takes a slot when its handle is first asked for and
//! gives it back when it is collected. Closed while it holds one, it keeps
//! the slot, empty, until then: the number it handed out cannot name other
//! rules while the package entry may still pass it.

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
    slots: Vec<Slot>,
    /// Slots given back, taken again before the table grows.
    free: Vec<u32>,
}

/// What a slot holds.
#[derive(Clone)]
pub enum Slot {
    /// Nothing: free to be taken.
    Free,
    /// The rules of a live `Rules`.
    Live(Arc<robotstxt::Rules>),
    /// Its `Rules` was closed and is not collected yet.
    Closed,
}

/// A slot for `rules`, or `None` once a thread holds `u32::MAX` of them.
pub fn take(rules: &Arc<robotstxt::Rules>) -> Option<u32> {
    TABLE.with_borrow_mut(|table| {
        let rules = Slot::Live(Arc::clone(rules));
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

/// Gives `slot` back (its `Rules` was collected), with the rules it held
/// if they were live.
pub fn give_back(slot: u32) -> Option<Arc<robotstxt::Rules>> {
    // A thread being torn down has dropped its table already.
    TABLE
        .try_with(|table| {
            let mut table = table.borrow_mut();
            let held = std::mem::replace(table.slots.get_mut(slot as usize)?, Slot::Free);
            if matches!(held, Slot::Free) {
                return None;
            }
            table.free.push(slot);
            match held {
                Slot::Live(rules) => Some(rules),
                _ => None,
            }
        })
        .ok()
        .flatten()
}

/// Lets go of the rules in `slot` (their `Rules` was closed) but keeps the
/// slot taken until [`give_back`].
pub fn close(slot: u32) {
    let _ = TABLE.try_with(|table| {
        if let Some(held @ Slot::Live(_)) = table.borrow_mut().slots.get_mut(slot as usize) {
            *held = Slot::Closed;
        }
    });
}

/// What `slot` holds (`Free` past the end of the table).
///
/// A clone of the `Arc`, not a borrow of the table: whatever runs while the
/// caller checks (a collection giving slots back) cannot pull the rules
/// from under it.
pub fn get(slot: u32) -> Slot {
    TABLE.with_borrow(|table| {
        table
            .slots
            .get(slot as usize)
            .cloned()
            .unwrap_or(Slot::Free)
    })
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

    fn live(slot: u32) -> Arc<robotstxt::Rules> {
        match get(slot) {
            Slot::Live(rules) => rules,
            _ => panic!("slot {slot} holds no rules"),
        }
    }

    #[test]
    fn slots_name_their_rules_until_given_back_then_are_reused() {
        let (open, closed) = (rules(""), rules("User-agent: *\nDisallow: /\n"));
        let a = take(&open).unwrap();
        let b = take(&closed).unwrap();
        assert_ne!(a, b);
        assert!(live(a).can_fetch("/x"));
        assert!(!live(b).can_fetch("/x"));
        assert!(give_back(a).is_some_and(|r| Arc::ptr_eq(&r, &open)));
        assert!(matches!(get(a), Slot::Free));
        // Twice is harmless: the slot is not freed twice.
        assert!(give_back(a).is_none());
        let c = take(&closed).unwrap();
        assert_eq!(c, a);
        let d = take(&open).unwrap();
        assert_ne!(d, c);
        assert!(!live(c).can_fetch("/x"));
        assert!(matches!(get(u32::MAX), Slot::Free));
        assert!(matches!(get(d + 1), Slot::Free));
        // The table holds the rules alive, and lets go when given back.
        assert_eq!(Arc::strong_count(&closed), 3);
        give_back(b);
        give_back(c);
        assert_eq!(Arc::strong_count(&closed), 1);
    }

    #[test]
    fn a_closed_slot_lets_go_of_its_rules_and_stays_taken_until_given_back() {
        let held = rules("User-agent: *\nDisallow: /\n");
        let a = take(&held).unwrap();
        close(a);
        assert_eq!(Arc::strong_count(&held), 1);
        assert!(matches!(get(a), Slot::Closed));
        // Not taken again while closed, and closing twice changes nothing.
        close(a);
        let b = take(&held).unwrap();
        assert_ne!(a, b);
        assert!(give_back(a).is_none()); // closed: no rules to give
        assert!(matches!(get(a), Slot::Free));
        assert_eq!(take(&held), Some(a));
        give_back(a);
        give_back(b);
    }
}
