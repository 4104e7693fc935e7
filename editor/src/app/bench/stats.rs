//! A run of timings summed up as the bench reports them.

use std::time::Duration;

/// The median and the 95th percentile, in milliseconds.
pub fn stats(times: &[Duration]) -> (f64, f64) {
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    if ms.is_empty() {
        return (0.0, 0.0);
    }
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}
