//! The measuring harness of the comparison bench: parquet-kit against the arrow-rs
//! `parquet` crate, on the same input bytes, in one process.
//!
//! For each workload the two decoders (or encoders) and a `memcpy` of the same output
//! size run interleaved, A B M then B A M, round after round, each sample long enough to
//! time well. Each round gives a ratio; the report is the median over the rounds, because
//! this machine's absolute speed drifts within minutes while side-by-side ratios do not.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// One measured workload.
#[derive(Debug, Clone)]
pub struct Row {
    /// What was measured.
    pub name: String,
    /// Values per run.
    pub values: usize,
    /// Bytes of decoded output per run (the `memcpy` baseline copies as many).
    pub output_bytes: usize,
    /// Median time per run, parquet-kit.
    pub ours: Duration,
    /// Median time per run, arrow-rs.
    pub theirs: Duration,
    /// Median time per run, `memcpy` of `output_bytes`.
    pub memcpy: Duration,
    /// Median over rounds of arrow-rs time / parquet-kit time: above 1 means we are faster.
    pub speedup: f64,
    /// Median over rounds of parquet-kit time / memcpy time.
    pub memcpy_ratio: f64,
}

/// Settings from the environment: `COMPARE_ROUNDS` (default 15) and
/// `COMPARE_SAMPLE_MS` (default 20).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Measured rounds after warm-up.
    pub rounds: usize,
    /// Target length of one sample.
    pub sample: Duration,
}

impl Settings {
    /// Reads the settings from the environment.
    pub fn from_env() -> Self {
        let get = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        Self {
            rounds: get("COMPARE_ROUNDS", 15).max(3) as usize,
            sample: Duration::from_millis(get("COMPARE_SAMPLE_MS", 20)),
        }
    }
}

/// Times `iterations` runs of `f`.
fn sample(f: &mut dyn FnMut(), iterations: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed() / iterations
}

/// Runs needed for one sample of `f` to last about `target`.
fn calibrate(f: &mut dyn FnMut(), target: Duration) -> u32 {
    let mut iterations = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..iterations {
            f();
        }
        let elapsed = start.elapsed();
        if elapsed >= target / 4 || iterations >= 1 << 20 {
            let per_run = elapsed.as_secs_f64() / f64::from(iterations);
            return ((target.as_secs_f64() / per_run).ceil() as u32).clamp(1, 1 << 24);
        }
        iterations *= 4;
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// Measures one workload.
pub fn measure(
    settings: Settings,
    name: &str,
    values: usize,
    output_bytes: usize,
    ours: &mut dyn FnMut(),
    theirs: &mut dyn FnMut(),
) -> Row {
    let source = vec![0x5a_u8; output_bytes.max(1)];
    let mut target = vec![0_u8; output_bytes.max(1)];
    let mut memcpy = || {
        target.copy_from_slice(black_box(&source));
        black_box(&mut target);
    };
    let n_ours = calibrate(ours, settings.sample);
    let n_theirs = calibrate(theirs, settings.sample);
    let n_memcpy = calibrate(&mut memcpy, settings.sample);
    // Warm-up round.
    sample(ours, n_ours);
    sample(theirs, n_theirs);

    let mut t_ours = Vec::new();
    let mut t_theirs = Vec::new();
    let mut t_memcpy = Vec::new();
    let mut speedups = Vec::new();
    let mut memcpy_ratios = Vec::new();
    for round in 0..settings.rounds {
        let (a, b) = if round % 2 == 0 {
            let a = sample(ours, n_ours);
            (a, sample(theirs, n_theirs))
        } else {
            let b = sample(theirs, n_theirs);
            (sample(ours, n_ours), b)
        };
        let m = sample(&mut memcpy, n_memcpy);
        speedups.push(b.as_secs_f64() / a.as_secs_f64());
        memcpy_ratios.push(a.as_secs_f64() / m.as_secs_f64());
        t_ours.push(a.as_secs_f64());
        t_theirs.push(b.as_secs_f64());
        t_memcpy.push(m.as_secs_f64());
    }
    let row = Row {
        name: name.to_owned(),
        values,
        output_bytes,
        ours: Duration::from_secs_f64(median(&mut t_ours)),
        theirs: Duration::from_secs_f64(median(&mut t_theirs)),
        memcpy: Duration::from_secs_f64(median(&mut t_memcpy)),
        speedup: median(&mut speedups),
        memcpy_ratio: median(&mut memcpy_ratios),
    };
    eprintln!(
        "{:<48} ours {:>9.3} ms  arrow-rs {:>9.3} ms  speedup {:>5.2}x  ours/memcpy {:>5.2}",
        row.name,
        row.ours.as_secs_f64() * 1e3,
        row.theirs.as_secs_f64() * 1e3,
        row.speedup,
        row.memcpy_ratio
    );
    row
}

/// The rows as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| workload | parquet-kit Mvalues/s | parquet-kit GB/s | arrow-rs Mvalues/s | speedup vs arrow-rs | parquet-kit / memcpy |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let per_s = |d: Duration| row.values as f64 / d.as_secs_f64() / 1e6;
        out.push_str(&format!(
            "| {} | {:.0} | {:.2} | {:.0} | {:.2} | {:.2} |\n",
            row.name,
            per_s(row.ours),
            row.output_bytes as f64 / row.ours.as_secs_f64() / 1e9,
            per_s(row.theirs),
            row.speedup,
            row.memcpy_ratio,
        ));
    }
    out
}

/// A small, fast, deterministic generator for benchmark data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub const fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value below `bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound.max(1)
    }
}
