//! The one token bucket of the server's allowances: messages and chat lines of a connection,
//! guests made per address, sign-ins, analyses and posted replays per guest.

/// A token bucket: `rate` tokens a second, at most `burst`.
#[derive(Clone, Debug)]
pub struct RateBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: std::time::Instant,
}

impl RateBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> RateBucket {
        RateBucket { tokens: burst, rate, burst, at: std::time::Instant::now() }
    }

    fn refill(&mut self) {
        let now = std::time::Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Seconds until the next token.
    pub fn wait_seconds(&mut self) -> f64 {
        self.refill();
        if self.tokens >= 1.0 || self.rate <= 0.0 { 0.0 } else { (1.0 - self.tokens) / self.rate }
    }

    /// True when the bucket is full again (and can be forgotten).
    pub fn is_full(&mut self) -> bool {
        self.refill();
        self.tokens >= self.burst
    }
}
