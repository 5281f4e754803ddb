//! Seeded draws for generated tests: a xorshift generator, so that every
//! run checks the same inputs.

pub(crate) struct Draw(u64);

impl Draw {
    pub fn new(seed: u64) -> Draw {
        Draw(seed)
    }

    /// A number below `n` (not zero).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// `count` of `pieces`, joined.
    pub fn joined(&mut self, pieces: &[&[u8]], count: usize) -> Vec<u8> {
        (0..count)
            .flat_map(|_| self.pick(pieces).iter().copied())
            .collect()
    }
}
