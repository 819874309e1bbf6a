//! Sizing a filter from the number of distinct values (NDV) it will hold and the
//! false-positive probability (FPP) wanted.
//!
//! A split-block filter sets exactly eight bits per value, one in each 32-bit word of one
//! block, so the classic Bloom filter bound with `k = 8` hash functions gives its bits
//! per distinct value (upstream `BloomFilter.md`, "Build a Bloom filter"):
//!
//! ```text
//! bits per value c(p) = -8 / ln(1 - p^(1/8))
//! bytes(ndv, p)       = next_power_of_two(ceil(ndv * c(p) / 8)), within [MIN_BYTES, limit]
//! ```
//!
//! where `limit` is the caller's maximum rounded down to a power of two, at most
//! [`MAX_BYTES`]. These are the sizes parquet-java and arrow-rs choose (they round the
//! bit count down where this rounds the byte count up).
//!
//! The formula is the bound for an ideal split Bloom filter; blocks fill unevenly (their
//! loads are binomial), so a filter of exactly `c(p)` bits per value has a higher rate
//! than `p`, the more so the smaller `p` is: 1.5 times `p` at 1%, 2.1 times at 0.1%,
//! 3.2 times at 0.01% (the spec's table asks for 10.5, 16.9 and 26.4 bits where the
//! formula gives 9.7, 14.6 and 21). Rounding up to a power of two often makes up for it,
//! not always. [`expected_fpp`] computes the rate a given size really has, from the
//! binomial block loads (it reproduces the spec's table and its worked example), and
//! [`num_bytes_for_expected_fpp`] sizes by it: the smallest power of two whose expected
//! rate is at most `p`.

use crate::block::BLOCK_BYTES;
use parquet_core::{Error, Result};

/// The smallest bitset: one block.
pub const MIN_BYTES: usize = BLOCK_BYTES;

/// The largest bitset this crate builds or reads: 128 MiB (parquet-java's upper bound),
/// 4 Mi blocks.
pub const MAX_BYTES: usize = 128 << 20;

/// The false-positive probability writers use when none is configured (parquet-java's
/// and arrow-rs's default).
pub const DEFAULT_FPP: f64 = 0.01;

/// `c(fpp) = -8 / ln(1 - fpp^(1/8))`: the bits per distinct value that the sizing
/// formula gives for a false-positive probability in `(0, 1)`.
///
/// Positive and finite for every such `fpp`, and decreasing in it.
///
/// # Errors
///
/// [`Error::Invalid`] when `fpp` is not in `(0, 1)` (its `value` is the bit pattern of
/// `fpp`).
pub fn bits_per_value(fpp: f64) -> Result<f64> {
    if !(fpp > 0.0 && fpp < 1.0) {
        return Err(Error::invalid(
            "false-positive probability, not in (0, 1), as f64 bits",
            0,
            fpp.to_bits(),
        ));
    }
    // ln_1p keeps the logarithm away from 0 (and the quotient finite) when fpp^(1/8)
    // is below f64's epsilon.
    Ok(-8.0 / (-fpp.powf(1.0 / 8.0)).ln_1p())
}

/// The bitset size, in bytes, for `ndv` distinct values at false-positive probability
/// `fpp`, per the [module docs](self): a power of two from [`MIN_BYTES`] to `max_bytes`
/// rounded down to a power of two (and clamped to `MIN_BYTES..=MAX_BYTES`).
///
/// Monotone: never smaller for more values or for a smaller `fpp`.
///
/// # Errors
///
/// [`Error::Invalid`] when `fpp` is not in `(0, 1)` (its `value` is the bit pattern of
/// `fpp`).
pub fn optimal_num_bytes(ndv: u64, fpp: f64, max_bytes: usize) -> Result<usize> {
    let bits_per_value = bits_per_value(fpp)?;
    let limit = prev_power_of_two(max_bytes.clamp(MIN_BYTES, MAX_BYTES));
    // Both factors are finite and positive: the product is finite or +inf, never NaN.
    #[allow(clippy::cast_precision_loss)]
    let bytes = (ndv as f64 * bits_per_value / 8.0).ceil();
    #[allow(clippy::cast_precision_loss)]
    if bytes >= limit as f64 {
        return Ok(limit);
    }
    // 0 <= bytes < limit <= MAX_BYTES: the conversion is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let bytes = bytes as usize;
    Ok(bytes.max(MIN_BYTES).next_power_of_two())
}

/// The smallest bitset, a power of two from [`MIN_BYTES`] to `max_bytes` (as for
/// [`optimal_num_bytes`]), whose [`expected_fpp`] for `ndv` values is at most `fpp`; the
/// limit when none is.
///
/// Never smaller than needed, unlike the formula of [`optimal_num_bytes`], and sometimes
/// twice its size: for 90,000 values at 0.01%, 512 KiB (the formula's 256 KiB has an
/// expected rate of 0.019%).
///
/// # Errors
///
/// [`Error::Invalid`] when `fpp` is not in `(0, 1)` (its `value` is the bit pattern of
/// `fpp`).
pub fn num_bytes_for_expected_fpp(ndv: u64, fpp: f64, max_bytes: usize) -> Result<usize> {
    let mut bytes = optimal_num_bytes(ndv, fpp, max_bytes)?;
    let limit = prev_power_of_two(max_bytes.clamp(MIN_BYTES, MAX_BYTES));
    // The rate falls as the size grows: walk from the formula's size to the smallest
    // that meets `fpp`.
    while bytes < limit && expected_fpp(bytes, ndv) > fpp {
        bytes *= 2;
    }
    while bytes > MIN_BYTES && expected_fpp(bytes / 2, ndv) <= fpp {
        bytes /= 2;
    }
    Ok(bytes)
}

/// The largest power of two not above `n`, for `n >= 1`.
const fn prev_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// The expected false-positive probability of a filter of `num_bytes` bytes (rounded down
/// to whole blocks, at least one) holding `ndv` distinct values with independent uniform
/// hashes.
///
/// A value lands in one of the `z` blocks uniformly, so a block's load `k` is binomial
/// `B(ndv, 1/z)`; a block holding `k` values has each bit of a word set with probability
/// `1 - (31/32)^k`, and a probe of it succeeds with the eighth power of that. The result
/// is the sum over `k`: for 1024 blocks and 26,214 values it is 1.26%, the spec's example.
pub fn expected_fpp(num_bytes: usize, ndv: u64) -> f64 {
    let blocks = (num_bytes / BLOCK_BYTES).max(1);
    let in_block = |k: f64| (1.0 - (31.0_f64 / 32.0).powf(k)).powi(8);
    #[allow(clippy::cast_precision_loss)]
    let (n, z) = (ndv as f64, blocks as f64);
    let load = n / z;
    if blocks == 1 || load > 10_000.0 {
        // One block holds everything; or every block is so full that a probe all but
        // surely succeeds: 1 - (31/32)^k is within 1e-100 of 1 for every likely k.
        return in_block(load);
    }
    // Sum the binomial pmf in log space, from k = 0 up to far past the mean: the first
    // terms can be below f64's range without harm, the later ones never are.
    let q = 1.0 / z;
    let log_odds = (q / (1.0 - q)).ln();
    let last = (load + 12.0 * load.sqrt() + 30.0).min(n);
    let mut log_pmf = n * (-q).ln_1p();
    let mut fpp = 0.0;
    let mut k = 0.0;
    while k <= last {
        fpp += log_pmf.exp() * in_block(k);
        k += 1.0;
        log_pmf += ((n - k + 1.0) / k).ln() + log_odds;
    }
    fpp.min(1.0)
}
