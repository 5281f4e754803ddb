//! Appending a short byte string to a vector in copies of fixed size.
//!
//! A parse stores every rule's pattern and every user-agent token, most of
//! them a few dozen bytes; `extend_from_slice` copies each with a call to
//! memcpy, whose dispatch on the length costs more than the copy.
//! Where the bytes lie in a longer slice (a pattern in the body parsed),
//! one copy of 32 bytes does, with no branch on the length: which of
//! several copy sizes a line takes is not predictable.

/// Appends `bytes` to `text`: two overlapping copies of fixed size when it
/// has 4 to 32 bytes, `extend_from_slice` otherwise.
#[inline(always)]
pub(crate) fn append(text: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    if !(4..=32).contains(&n) {
        text.extend_from_slice(bytes);
        return;
    }
    text.reserve(n);
    let len = text.len();
    // SAFETY: `reserve` left room for `n` more bytes after `len`. Each copy
    // reads inside `bytes` and writes inside those `n` bytes; the two of a
    // size cover all `n` (they overlap when `n` is under twice the size),
    // so every byte counted by `set_len` is written.
    unsafe {
        let (src, dst) = (bytes.as_ptr(), text.as_mut_ptr().add(len));
        let copy_ends = |size: usize| {
            std::ptr::copy_nonoverlapping(src, dst, size);
            std::ptr::copy_nonoverlapping(src.add(n - size), dst.add(n - size), size);
        };
        match n {
            16.. => copy_ends(16),
            8.. => copy_ends(8),
            _ => copy_ends(4),
        }
        text.set_len(len + n);
    }
}

/// Appends `bytes`. When they lie within `window` (the body they were read
/// from), are no longer than 32 and `window` holds 32 bytes from their
/// start, those 32 are copied and the first `bytes.len()` kept.
#[inline(always)]
pub(crate) fn append_within(text: &mut Vec<u8>, window: &[u8], bytes: &[u8]) {
    // Where `bytes` start in `window`, by address. When `window` holds 32
    // bytes from there and `bytes` no more, `bytes` lie within those 32:
    // they are the same memory. Bytes from anywhere else fail one test.
    let offset = (bytes.as_ptr() as usize).wrapping_sub(window.as_ptr() as usize);
    let source = window.get(offset..).and_then(<[u8]>::first_chunk::<32>);
    let Some(source) = source.filter(|s| bytes.len() <= s.len()) else {
        return append(text, bytes);
    };
    text.reserve(source.len());
    let len = text.len();
    // SAFETY: `reserve` left room for 32 bytes after `len`; the first
    // `bytes.len()` of them, counted by `set_len`, are `bytes` (above).
    unsafe {
        std::ptr::copy_nonoverlapping(source.as_ptr(), text.as_mut_ptr().add(len), source.len());
        text.set_len(len + bytes.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_every_length_whole() {
        let source: Vec<u8> = (0..80).map(|i| b'a' + i % 26).collect();
        for n in 0..=source.len() {
            // With room to spare and with none, so that `reserve` grows it.
            for capacity in [0, 200] {
                let mut text = Vec::with_capacity(capacity);
                text.extend_from_slice(b"head");
                append(&mut text, &source[..n]);
                assert_eq!(text, [&b"head"[..], &source[..n]].concat(), "{n} bytes");
            }
        }
    }

    #[test]
    fn appends_within_every_length_and_slack_whole() {
        let window: Vec<u8> = (0..120).map(|i| b'a' + i % 26).collect();
        for start in [0, 7, 60] {
            for n in 0..=window.len() - start {
                // Bytes ending where the window does, and with slack after.
                for end in [start + n, window.len()] {
                    for capacity in [0, 200] {
                        let bytes = &window[start..start + n];
                        let mut text = Vec::with_capacity(capacity);
                        text.extend_from_slice(b"head");
                        append_within(&mut text, &window[..end], bytes);
                        assert_eq!(text, [&b"head"[..], bytes].concat(), "{start} {n} {end}");
                    }
                    // Bytes from elsewhere (a copy), and an empty slice
                    // from nowhere: appended all the same.
                    let copied = window[start..start + n].to_vec();
                    let mut text = b"head".to_vec();
                    append_within(&mut text, &window[..end], &copied);
                    append_within(&mut text, &window[..end], &[]);
                    assert_eq!(text, [&b"head"[..], &copied].concat(), "{start} {n} copied");
                }
            }
        }
    }
}
