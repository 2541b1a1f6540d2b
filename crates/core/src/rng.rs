/// SplitMix64: a tiny, fast, seedable generator. Zobrist keys and test playouts use it so that
/// every run (and every machine) sees the same numbers, which the bench signature depends on.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub const fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0); the slight modulo bias does not matter for tests.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `N` keys, generated at compile time when called in a `const`.
    pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
        let mut rng = SplitMix64::new(seed);
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[i] = rng.next();
            i += 1;
        }
        out
    }
}
