//! Byte searches with SSE2 compares (x86_64; a scalar fallback elsewhere):
//! over the short texts a check scans (one URL, the rest of a path after a
//! pattern's prefix), 16 bytes a step, where the fixed cost of a `memchr`
//! call outweighs its speed; and over a whole body to parse, 64 bytes at a
//! time into one bit mask per class of bytes (`body_masks`), with AVX2
//! compares of 32 bytes where the CPU has them.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    _mm_setzero_si128, _mm_storeu_si128,
};

/// Bytes per step.
pub(crate) const WIDTH: usize = 16;

/// Up to 16 bytes of a text, from some offset; bit `i` of every mask is
/// byte `offset + i`. Past the text's end a block holds zeros: no search
/// here is for a zero byte (`body_masks` is, and masks its tail).
pub(crate) struct Block {
    #[cfg(target_arch = "x86_64")]
    bytes: __m128i,
    #[cfg(not(target_arch = "x86_64"))]
    bytes: [u8; WIDTH],
    /// Bytes loaded before the offset (the block was read from further
    /// back to stay inside the text): shifted out of every mask.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    skip: u32,
}

impl Block {
    /// The bytes of `s` from `at` (`at < s.len()`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn load(s: &[u8], at: usize) -> Block {
        debug_assert!(at < s.len());
        let (bytes, skip) = if let Some(chunk) = s.get(at..at + WIDTH) {
            (load16(chunk), 0)
        } else if let Some(last) = s.len().checked_sub(WIDTH) {
            // The last 16 bytes; those before `at` are shifted out.
            (load16(&s[last..]), (at - last) as u32)
        } else {
            // A text shorter than 16 bytes: built in a register, no copy.
            let (lo, hi) = short_words(&s[at..]);
            // SAFETY: SSE2 is part of x86_64.
            (unsafe { _mm_set_epi64x(hi as i64, lo as i64) }, 0)
        };
        Block { bytes, skip }
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn load(s: &[u8], at: usize) -> Block {
        let mut bytes = [0u8; WIDTH];
        let rest = &s[at..s.len().min(at + WIDTH)];
        bytes[..rest.len()].copy_from_slice(rest);
        Block { bytes, skip: 0 }
    }

    /// The bytes equal to `b` (not zero: see above).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn equal(&self, b: u8) -> u32 {
        // SAFETY: SSE2 is part of x86_64; no memory is touched.
        let mask = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.bytes, _mm_set1_epi8(b as i8))) };
        (mask as u32) >> self.skip
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn equal(&self, b: u8) -> u32 {
        self.mask(|x| x == b)
    }

    /// The bytes ≥ 0x80.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn high(&self) -> u32 {
        // SAFETY: SSE2 is part of x86_64; no memory is touched.
        let mask = unsafe { _mm_movemask_epi8(self.bytes) };
        (mask as u32) >> self.skip
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn high(&self) -> u32 {
        self.mask(|x| x >= 0x80)
    }

    /// The ASCII letters, `A-Z` and `a-z`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn letters(&self) -> u32 {
        // SAFETY: SSE2 is part of x86_64; no memory is touched. Folded to
        // lower case and shifted so that `a` is -128 (the compares are
        // signed): letters are then the bytes below -128 + 26.
        let mask = unsafe {
            let folded = _mm_or_si128(self.bytes, _mm_set1_epi8(0x20));
            let shifted = _mm_add_epi8(folded, _mm_set1_epi8((0x80u8 - b'a') as i8));
            _mm_movemask_epi8(_mm_cmplt_epi8(shifted, _mm_set1_epi8(-128 + 26)))
        };
        (mask as u32) >> self.skip
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn letters(&self) -> u32 {
        self.mask(|x| x.is_ascii_alphabetic())
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn mask(&self, test: impl Fn(u8) -> bool) -> u32 {
        (self.bytes.iter().enumerate()).fold(0, |m, (i, &x)| m | u32::from(test(x)) << i)
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn load16(chunk: &[u8]) -> __m128i {
    assert!(chunk.len() >= WIDTH);
    // SAFETY: 16 readable bytes, checked above; SSE2 is part of x86_64.
    unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
}

/// `s` (under 16 bytes) as two little-endian words, zero-padded: from two
/// overlapping loads of 8, 4 or 1 bytes, where a loop over the bytes cost
/// every short path and pattern a few dozen instructions.
#[inline(always)]
pub(crate) fn short_words(s: &[u8]) -> (u64, u64) {
    let n = s.len();
    let le64 = |at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let le32 = |at: usize| {
        u64::from(u32::from_le_bytes(
            s[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    match n {
        // The last 8 bytes, shifted down over those already in the first
        // word: what is left are bytes 8 to n.
        8.. => (
            le64(0),
            le64(n - 8).checked_shr(8 * (16 - n) as u32).unwrap_or(0),
        ),
        // The overlapping bytes of the two loads are the same bytes.
        4.. => (le32(0) | le32(n - 4) << (8 * (n - 4)), 0),
        // The first, middle and last bytes cover 1 to 3.
        1.. => {
            let byte = |i: usize| u64::from(s[i]) << (8 * i);
            (byte(0) | byte(n / 2) | byte(n - 1), 0)
        }
        0 => (0, 0),
    }
}

/// The 16 bytes of `s` from `at`, ASCII letters lower-cased, or `None`
/// when `s` has fewer: every line's key is lower-cased to be recognised,
/// 16 bytes at once rather than one at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn lower16(s: &[u8], at: usize) -> Option<[u8; WIDTH]> {
    let block = load16(s.get(at..)?.get(..WIDTH)?);
    let mut out = [0u8; WIDTH];
    // SAFETY: SSE2 is part of x86_64; the store writes the 16 bytes of
    // `out`. Signed compares: bytes ≥ 0x80 are below `A`.
    unsafe {
        let upper = _mm_and_si128(
            _mm_cmpgt_epi8(block, _mm_set1_epi8(b'A' as i8 - 1)),
            _mm_cmplt_epi8(block, _mm_set1_epi8(b'Z' as i8 + 1)),
        );
        let lower = _mm_or_si128(block, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
        _mm_storeu_si128(out.as_mut_ptr().cast(), lower);
    }
    Some(out)
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn lower16(s: &[u8], at: usize) -> Option<[u8; WIDTH]> {
    let bytes: [u8; WIDTH] = s.get(at..)?.get(..WIDTH)?.try_into().ok()?;
    Some(bytes.map(|b| b.to_ascii_lowercase()))
}

/// Bytes per chunk of `chunk_masks`.
pub(crate) const CHUNK: usize = 64;

/// Bytes to find in a chunk: any of `bytes`, and with `high` every byte
/// ≥ 0x80 too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ByteSet {
    pub bytes: &'static [u8],
    pub high: bool,
}

impl ByteSet {
    /// Just `bytes`.
    pub const fn of(bytes: &'static [u8]) -> ByteSet {
        ByteSet { bytes, high: false }
    }
}

/// Per set, the mask of the bytes of `chunk` in it (bit `i` for byte `i`):
/// a whole body is classified this way, 64 bytes at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn chunk_masks<const N: usize>(chunk: &[u8; CHUNK], sets: [ByteSet; N]) -> [u64; N] {
    let mut masks = [0u64; N];
    for (quarter, bytes) in chunk.chunks_exact(WIDTH).enumerate() {
        let block = load16(bytes);
        for (mask, set) in masks.iter_mut().zip(&sets) {
            // SAFETY: SSE2 is part of x86_64; no memory is touched.
            let found = unsafe {
                // One byte mask per set: compares are or-ed first; a byte's
                // own high bit marks it ≥ 0x80.
                let mut any = if set.high { block } else { _mm_setzero_si128() };
                for &b in set.bytes {
                    any = _mm_or_si128(any, _mm_cmpeq_epi8(block, _mm_set1_epi8(b as i8)));
                }
                _mm_movemask_epi8(any)
            };
            *mask |= u64::from(found as u16) << (WIDTH * quarter);
        }
    }
    masks
}

/// Proof that this CPU has AVX2 (most x86_64 servers since 2013; the
/// baseline is SSE2): `body_masks` classifies twice as many bytes a step
/// with one.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `None` where the CPU lacks AVX2 (std asks the CPU once, then caches).
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Avx2(()));
        }
        None
    }
}

/// Sets of bytes fixed at compile time, for `body_masks`: each way of
/// classifying is its own function, in which the sets are constants that
/// the compiler unrolls.
pub(crate) trait ChunkSets<const N: usize> {
    const SETS: [ByteSet; N];
}

/// Per set of `S`, the mask of the 64 bytes of `body` from `at` in it
/// (`at < body.len()`); no bits past the end of `body`.
#[inline(always)]
pub(crate) fn body_masks<S: ChunkSets<N>, const N: usize>(
    body: &[u8],
    at: usize,
    avx2: Option<Avx2>,
) -> [u64; N] {
    match avx2 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx2` exists only where the CPU has AVX2.
        Some(_) => unsafe { body_masks_avx2::<S, N>(body, at) },
        _ => body_masks_baseline::<S, N>(body, at),
    }
}

/// `body_masks` without AVX2 (SSE2 on x86_64). As in `body_masks_avx2`,
/// the chunk the body ends in goes through `tail_masks`.
#[inline(never)]
fn body_masks_baseline<S: ChunkSets<N>, const N: usize>(body: &[u8], at: usize) -> [u64; N] {
    match body.get(at..at + CHUNK) {
        Some(chunk) => chunk_masks(chunk.try_into().expect("64 bytes"), S::SETS),
        None => tail_masks::<S, N>(body, at, None),
    }
}

/// `body_masks` for the chunk the body ends in (fewer than 64 bytes from
/// `at`): copied into a chunk of zeros first, apart from the other chunks,
/// which need no such setup; no bits past the body's end.
#[inline(never)]
#[cold]
fn tail_masks<S: ChunkSets<N>, const N: usize>(
    body: &[u8],
    at: usize,
    avx2: Option<Avx2>,
) -> [u64; N] {
    let tail = &body[at..];
    let mut spare = [0; CHUNK];
    spare[..tail.len()].copy_from_slice(tail);
    let inside = (1u64 << tail.len()) - 1;
    body_masks::<S, N>(&spare, 0, avx2).map(|mask| mask & inside)
}

/// `body_masks_baseline` 32 bytes a step. All in this one function, with
/// no closure (before Rust 1.86 a closure is not built for the features
/// of the function it is in): masks handed back from a separate call
/// built for AVX2 go through memory, and reading them back stalled every
/// chunk. The chunk the body ends in goes through `tail_masks`: every
/// other chunk is read where it lies, with nothing to set up.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn body_masks_avx2<S: ChunkSets<N>, const N: usize>(body: &[u8], at: usize) -> [u64; N] {
    use core::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm256_setzero_si256,
    };
    let Some(chunk) = body.get(at..at + CHUNK) else {
        // The caller vouches for AVX2: its proof is made again for the
        // call back.
        return tail_masks::<S, N>(body, at, Some(Avx2(())));
    };
    let mut masks = [0u64; N];
    for (half, bytes) in chunk.chunks_exact(2 * WIDTH).enumerate() {
        // SAFETY: 32 readable bytes; the caller vouches for AVX2.
        let block = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        for (mask, set) in masks.iter_mut().zip(&S::SETS) {
            // SAFETY: as above; no memory is touched. (Compares are safe
            // calls here from Rust 1.87 on; not before.) As in `chunk_masks`.
            #[allow(unused_unsafe)]
            let found = unsafe {
                let mut any = if set.high {
                    block
                } else {
                    _mm256_setzero_si256()
                };
                for &b in set.bytes {
                    let each = _mm256_cmpeq_epi8(block, _mm256_set1_epi8(b as i8));
                    any = _mm256_or_si256(any, each);
                }
                _mm256_movemask_epi8(any)
            };
            *mask |= u64::from(found as u32) << (2 * WIDTH * half);
        }
    }
    masks
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn chunk_masks<const N: usize>(chunk: &[u8; CHUNK], sets: [ByteSet; N]) -> [u64; N] {
    let mut masks = [0u64; N];
    for (i, &b) in chunk.iter().enumerate() {
        for (mask, set) in masks.iter_mut().zip(&sets) {
            let found = set.bytes.contains(&b) || (set.high && b >= 0x80);
            *mask |= u64::from(found) << i;
        }
    }
    masks
}

/// The index of the lowest set bit of `mask` (non-zero).
pub(crate) fn first(mask: u32) -> usize {
    mask.trailing_zeros() as usize
}

/// The first occurrence of a non-empty `needle` in `haystack`.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&head, rest) = needle.split_first()?;
    let last_start = haystack.len().checked_sub(needle.len())?;
    let mut at = 0;
    while at <= last_start {
        let mut heads = Block::load(haystack, at).equal(head);
        while heads != 0 {
            let i = at + first(heads);
            if i > last_start {
                return None;
            }
            if haystack[i + 1..].starts_with(rest) {
                return Some(i);
            }
            heads &= heads - 1;
        }
        at += WIDTH;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_the_text_from_the_offset_only() {
        let texts: [&[u8]; 5] = [
            b"a/b\xC3/",
            b"0123456/89a/cd\xFFf/h",
            b"/////////////////////",
            b"a\x01/\x01b",
            b"@AZ[`az{\xC1\xE1\xFAGooglebot_-",
        ];
        for s in texts {
            for at in 0..s.len() {
                let block = Block::load(s, at);
                let mut slash = 0;
                let mut high = 0;
                let mut one = 0;
                let mut letters = 0;
                for (i, &b) in s[at..].iter().take(WIDTH).enumerate() {
                    letters |= u32::from(b.is_ascii_alphabetic()) << i;
                    slash |= u32::from(b == b'/') << i;
                    high |= u32::from(b >= 0x80) << i;
                    one |= u32::from(b == 1) << i;
                }
                assert_eq!(block.equal(b'/'), slash, "{s:?} at {at}");
                assert_eq!(block.high(), high, "{s:?} at {at}");
                assert_eq!(block.equal(1), one, "{s:?} at {at}");
                assert_eq!(block.letters(), letters, "{s:?} at {at}");
            }
        }
    }

    #[test]
    fn body_masks_agree_with_a_byte_by_byte_reading_with_and_without_avx2() {
        struct Sets;
        impl ChunkSets<3> for Sets {
            const SETS: [ByteSet; 3] = [
                ByteSet::of(b"\n\r"),
                ByteSet::of(b"\0"),
                ByteSet {
                    bytes: b"%",
                    high: true,
                },
            ];
        }
        // Without AVX2 (every x86_64 CPU), and with it where this CPU has
        // it; bodies shorter and longer than a chunk, read from every
        // offset, so that the padded tail is read too.
        let ways = [None, Avx2::detect()];
        // Where the CPU lists AVX2, both ways are the ones tested here.
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        if std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|cpu| cpu.contains(" avx2")) {
            assert!(ways[1].is_some(), "the CPU lists AVX2, but it is not used");
        }
        let mut draw = crate::draw::Draw::new(0x2545_F491_4F6C_DD1D);
        for len in 1..200 {
            let body: Vec<u8> = (0..len)
                .map(|_| draw.pick(b"ab\n\r\0%\x7F\x80\xFF"))
                .collect();
            for at in 0..len {
                let want = Sets::SETS.map(|set| {
                    let inside = body[at..].iter().take(CHUNK).enumerate();
                    inside.fold(0u64, |mask, (i, &b)| {
                        let found = set.bytes.contains(&b) || (set.high && b >= 0x80);
                        mask | u64::from(found) << i
                    })
                });
                for &avx2 in &ways {
                    let got = body_masks::<Sets, 3>(&body, at, avx2);
                    assert_eq!(got, want, "{body:?} from {at}, {avx2:?}");
                }
            }
        }
    }

    #[test]
    fn chunk_masks_flag_each_needle() {
        let mut chunk = [b'x'; CHUNK];
        for (i, b) in [(0, b'\n'), (17, b':'), (40, b'\n'), (63, 0)] {
            chunk[i] = b;
        }
        let set = |bytes, high| ByteSet { bytes, high };
        let [lf, colon_or_nul, none] = chunk_masks(
            &chunk,
            [set(b"\n", false), set(b":\0", false), set(b"#", false)],
        );
        assert_eq!(lf, 1 | 1 << 40);
        assert_eq!(colon_or_nul, 1 << 17 | 1 << 63);
        assert_eq!(none, 0);
        chunk[5] = 0x80;
        chunk[60] = 0xFF;
        let [high, colon_or_high] = chunk_masks(&chunk, [set(b"", true), set(b":", true)]);
        assert_eq!(high, 1 << 5 | 1 << 60);
        assert_eq!(colon_or_high, 1 << 5 | 1 << 17 | 1 << 60);
    }

    #[test]
    fn lower16_lowers_ascii_letters_only() {
        let all: Vec<u8> = (0..=255).collect();
        for at in 0..all.len() {
            let want = all.get(at..at + WIDTH).map(|s| {
                let mut bytes = [0u8; WIDTH];
                bytes.copy_from_slice(s);
                bytes.map(|b| b.to_ascii_lowercase())
            });
            assert_eq!(lower16(&all, at), want, "from {at}");
        }
        assert_eq!(lower16(b"Disallow", 0), None);
    }

    #[test]
    fn find_agrees_with_a_window_search() {
        let hay = b"/abab/aab/ababx/ab$/a/abab/aab/ababx/ab$/a";
        for from in 0..hay.len() {
            for len in 1..5 {
                for start in 0..hay.len() - len {
                    let needle = &hay[start..start + len];
                    let hay = &hay[from..];
                    let want = hay.windows(len).position(|w| w == needle);
                    assert_eq!(find(hay, needle), want, "{needle:?} in {hay:?}");
                }
            }
        }
    }
}
