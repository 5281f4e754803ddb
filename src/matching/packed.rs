//! A parse's arrays in one allocation. A parse fills six vectors; a heap
//! block for each (and one for the shared result) cost some 2.5% of
//! parsing the corpus, whose files are small, and a malloc header each
//! in the memory kept.

use std::marker::PhantomData;
use std::mem::{align_of, needs_drop, size_of, MaybeUninit};
use std::ptr;
use std::sync::Arc;

use crate::robots::{Agent, Group, Rule, Span};
use crate::Diagnostic;

/// Where one array of `T` sits in a block: its byte offset and length.
/// Made only by `Packed::new`, for its own block.
struct Place<T> {
    at: u32,
    len: u32,
    of: PhantomData<T>,
}

impl<T> Clone for Place<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Place<T> {}

/// The arrays of a parsed body, copied into one shared block of 8-byte
/// words (its reference count in the same allocation).
#[derive(Clone)]
pub(crate) struct Packed {
    /// Uninitialised where no array lies (padding and the last word's
    /// tail); only the arrays' own bytes are ever read. Never written
    /// once `new` returns.
    block: Arc<[MaybeUninit<u64>]>,
    groups: Place<Group>,
    rules: Place<Rule>,
    agents: Place<Agent>,
    sitemaps: Place<Span>,
    diagnostics: Place<Diagnostic>,
    text: Place<u8>,
}

/// Lays out arrays one after the other, each at its type's alignment.
struct Layout {
    bytes: usize,
}

impl Layout {
    fn place<T>(&mut self, array: &[T]) -> Place<T> {
        // Offsets count from the block's start, which is 8-byte aligned:
        // an offset that is a multiple of `T`'s alignment is aligned for
        // `T` when that is at most 8. Values are copied bitwise and never
        // dropped: only types without drop glue may be packed.
        const { assert!(align_of::<T>() <= align_of::<u64>() && !needs_drop::<T>()) };
        let at = self.bytes.next_multiple_of(align_of::<T>());
        self.bytes = at + size_of_val(array);
        // The parse limit keeps a parse's arrays far below 4 GiB: offsets
        // and lengths fit in `u32`.
        assert!(u32::try_from(self.bytes).is_ok(), "arrays under 4 GiB");
        Place {
            at: at as u32,
            len: array.len() as u32,
            of: PhantomData,
        }
    }
}

impl Packed {
    pub fn new(
        groups: &[Group],
        rules: &[Rule],
        agents: &[Agent],
        sitemaps: &[Span],
        diagnostics: &[Diagnostic],
        text: &[u8],
    ) -> Packed {
        // Places first, then the block at its final size.
        let mut layout = Layout { bytes: 0 };
        let (groups_at, rules_at, agents_at) = (
            layout.place(groups),
            layout.place(rules),
            layout.place(agents),
        );
        let (sitemaps_at, diagnostics_at, text_at) = (
            layout.place(sitemaps),
            layout.place(diagnostics),
            layout.place(text),
        );
        let mut block = Arc::new_uninit_slice(layout.bytes.div_ceil(size_of::<u64>()));
        let words = Arc::get_mut(&mut block).expect("a new Arc is unique");
        fill(words, groups_at, groups);
        fill(words, rules_at, rules);
        fill(words, agents_at, agents);
        fill(words, sitemaps_at, sitemaps);
        fill(words, diagnostics_at, diagnostics);
        fill(words, text_at, text);
        Packed {
            block,
            groups: groups_at,
            rules: rules_at,
            agents: agents_at,
            sitemaps: sitemaps_at,
            diagnostics: diagnostics_at,
            text: text_at,
        }
    }

    /// The array at `place`, which `new` filled.
    fn slice<T>(&self, place: Place<T>) -> &[T] {
        // SAFETY: `place` is one of this block's own (its fields are
        // private and set once, in `new`), so it lies inside the block, is
        // aligned for `T`, and holds `len` values of `T` that `fill` copied
        // there. The block is not written again while `self` lives.
        unsafe {
            let from = self
                .block
                .as_ptr()
                .cast::<u8>()
                .add(place.at as usize)
                .cast::<T>();
            std::slice::from_raw_parts(from, place.len as usize)
        }
    }

    pub fn groups(&self) -> &[Group] {
        self.slice(self.groups)
    }

    pub fn rules(&self) -> &[Rule] {
        self.slice(self.rules)
    }

    pub fn agents(&self) -> &[Agent] {
        self.slice(self.agents)
    }

    pub fn sitemaps(&self) -> &[Span] {
        self.slice(self.sitemaps)
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.slice(self.diagnostics)
    }

    pub fn text(&self) -> &[u8] {
        self.slice(self.text)
    }
}

/// Copies `array` into `words` at `place`, laid out for it by `Layout`.
fn fill<T>(words: &mut [MaybeUninit<u64>], place: Place<T>, array: &[T]) {
    let at = place.at as usize;
    assert!(place.len as usize == array.len() && at + size_of_val(array) <= size_of_val(words));
    // SAFETY: the place lies inside `words` (asserted) and is aligned for
    // `T` (`Layout::place`); `array` is another allocation. `T` has no drop
    // glue (`Layout::place`): a bitwise copy owns nothing.
    unsafe {
        let to = words.as_mut_ptr().cast::<u8>().add(at).cast::<T>();
        ptr::copy_nonoverlapping(array.as_ptr(), to, array.len());
    }
}

impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Packed")
            .field("groups", &self.groups())
            .field("rules", &self.rules())
            .field("agents", &self.agents())
            .field("sitemaps", &self.sitemaps())
            .field("diagnostics", &self.diagnostics())
            .field("text", &String::from_utf8_lossy(self.text()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::LineKind;
    use crate::Robots;

    /// Packs the arrays, then reads each back (as its `Debug` text: not
    /// every type compares).
    fn round_trip(
        groups: &[Group],
        rules: &[Rule],
        agents: &[Agent],
        sitemaps: &[Span],
        diagnostics: &[Diagnostic],
        text: &[u8],
    ) {
        let packed = Packed::new(groups, rules, agents, sitemaps, diagnostics, text);
        // A clone shares the block and outlives the original.
        let clone = packed.clone();
        drop(packed);
        assert_eq!(format!("{:?}", clone.groups()), format!("{groups:?}"));
        assert_eq!(format!("{:?}", clone.rules()), format!("{rules:?}"));
        assert_eq!(format!("{:?}", clone.agents()), format!("{agents:?}"));
        assert_eq!(clone.sitemaps(), sitemaps);
        assert_eq!(clone.diagnostics(), diagnostics);
        assert_eq!(clone.text(), text);
    }

    #[test]
    fn arrays_read_back_as_written() {
        let robots = Robots::parse(b"user-agent: a\nallow: /x\ncrawl-delay: 2\nuser-agent: b\n");
        let groups = robots.inner.groups().to_vec();
        let span = |start, len| Span { start, len };
        let rules: Vec<Rule> = (0..5)
            .map(|i| Rule::new(span(i, 7), i, i % 2 == 0))
            .collect();
        let agents = [Agent::Everyone, Agent::Token(span(3, 4)), Agent::Everyone];
        let diagnostics = [Diagnostic::new(7, LineKind::Unknown)];
        // Every length of text, and of the arrays before it, so that each
        // array starts at each offset its alignment allows.
        for n in 0..=17 {
            let text: Vec<u8> = (0..n).map(|i| b'a' + i as u8).collect();
            round_trip(
                &groups[..n % 3],
                &rules[..n % 6],
                &agents[..n % 4],
                &[span(1, 2); 3][..n % 4],
                &diagnostics[..n % 2],
                &text,
            );
        }
    }

    #[test]
    fn empty_arrays_take_no_block() {
        let packed = Packed::new(&[], &[], &[], &[], &[], &[]);
        assert!(packed.block.is_empty());
        assert!(packed.groups().is_empty() && packed.text().is_empty());
    }
}
