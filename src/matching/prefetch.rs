//! Bringing data into the CPU cache ahead of use: loads that do not
//! depend on one another, so that their misses overlap (see
//! `Rules::prefetch`).

/// Loads about one element per cache line of `items`, or, of a long
/// slice, `lines` evenly spaced elements (for the sorted prefixes, close
/// to where every search's first steps land): independent loads, whose
/// misses overlap.
pub(crate) fn slice<T: Copy>(items: &[T], lines: usize) {
    for at in positions(items.len(), std::mem::size_of::<T>(), lines) {
        std::hint::black_box(items[at]);
    }
}

/// The elements `slice` loads, of `len` elements of `size` bytes.
fn positions(len: usize, size: usize, lines: usize) -> impl Iterator<Item = usize> {
    let in_slice = (len * size).div_ceil(64);
    let touched = in_slice.min(lines);
    let whole = touched == in_slice;
    // Spread: element floor(k * len / touched) for the k-th load, stepped
    // with a carried remainder (no overflow, no division in the loop).
    let (step, extra) = (len / touched.max(1), len % touched.max(1));
    let (mut spread_at, mut carry) = (0, 0);
    (0..touched).map(move |k| {
        if whole {
            return k * 64 / size;
        }
        let at = spread_at;
        spread_at += step;
        carry += extra;
        if carry >= touched {
            carry -= touched;
            spread_at += 1;
        }
        at
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_stay_inside_the_slice_and_reach_its_end() {
        // Element sizes that divide a cache line and that do not; slices
        // shorter and longer than `lines` lines.
        for len in 0..700 {
            for lines in [0, 1, 3, 64, 1000] {
                for size in [1, 40, 200] {
                    let at: Vec<usize> = positions(len, size, lines).collect();
                    let in_slice = (len * size).div_ceil(64);
                    assert_eq!(at.len(), in_slice.min(lines), "{len} {size} {lines}");
                    assert!(at.iter().all(|&i| i < len), "{len} {size} {lines}");
                    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{len} {size} {lines}");
                    // Evenly spread: the last load is within one step of
                    // the end.
                    if let Some(&last) = at.last() {
                        assert!(last + len.div_ceil(at.len()) >= len, "{len} {size} {lines}");
                    }
                }
                slice(&vec![(); len], lines);
            }
        }
    }
}
