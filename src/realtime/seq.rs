//! The clock seq of topics whose documents no single row versions (a
//! person's matches, follows, notifications, chats; a roster's
//! availability; open spots): the clock in microseconds, strictly
//! increasing within the process (two changes in one microsecond keep their
//! order; across nodes the clocks order them). A snapshot of such a topic
//! carries seq 0, so every update after it is delivered whichever node
//! published it.

use std::sync::atomic::{AtomicI64, Ordering};

static LAST: AtomicI64 = AtomicI64::new(0);

/// The next seq: now in microseconds, or one past the last one handed out.
pub fn next() -> i64 {
    let now = chrono::Utc::now().timestamp_micros();
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let seq = now.max(last + 1);
        match LAST.compare_exchange_weak(last, seq, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return seq,
            Err(seen) => last = seen,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn strictly_increases_even_within_one_microsecond() {
        let seqs: Vec<i64> = (0..10_000).map(|_| super::next()).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]));
    }
}
