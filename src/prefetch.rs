//! Bringing data into the CPU cache ahead of use: loads that do not
//! depend on one another, so that their misses overlap (see
//! `Rules::prefetch`).

/// Loads about one element per cache line of `items`, or, of a long
/// slice, `lines` evenly spaced elements (for the sorted prefixes, close
/// to where every search's first steps land): independent loads, whose
/// misses overlap.
pub(crate) fn slice<T: Copy>(items: &[T], lines: usize) {
    let size = std::mem::size_of::<T>();
    if size == 0 {
        return;
    }
    let in_slice = std::mem::size_of_val(items).div_ceil(64);
    let touched = in_slice.min(lines);
    if touched == 0 {
        return;
    }
    // Spread over the slice: k * spread < len, no overflow, and no wide
    // division in the loop (a call to a helper, 64 times a batch).
    let spread = items.len() / touched;
    for k in 0..touched {
        let at = if touched == in_slice {
            k * 64 / size
        } else {
            k * spread
        };
        std::hint::black_box(items[at]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_load_is_inside_the_slice() {
        // Element sizes that divide a cache line and that do not; slices
        // shorter and longer than `lines` lines.
        for len in 0..700 {
            for lines in [0, 1, 3, 64, 1000] {
                slice(&vec![0u8; len], lines);
                slice(&vec![[0u8; 40]; len], lines);
                slice(&vec![[0u8; 200]; len], lines);
                slice(&vec![(); len], lines);
            }
        }
    }
}
