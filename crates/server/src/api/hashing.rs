//! Password hashing on threads of its own, whose memory is kept and used again.
//!
//! An argon2id hash with the parameters the accounts use takes 19 MiB of memory. Made on any of
//! the runtime's blocking threads, each hash allocated that much afresh, on whichever thread it
//! landed, and the C allocator (glibc keeps an arena per thread and raises its threshold for
//! giving large blocks back to the system after the first is freed) kept it: eight wrong
//! sign-ins took the server from 12 to 126 MB. Here the hashes run on a fixed few threads
//! ([`crate::api::accounts::AccountLimits::hashes_at_once`], started at the first hash), each
//! with one buffer of argon2 blocks allocated once and used by every hash it makes: the memory
//! hashing ever takes is that many buffers. These threads run nothing else (no bot, replay or
//! analysis), so a sign-in waits only for other hashes.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

use crate::pool::FairPool;

/// The largest argon2 memory a stored hash may ask of a check, in 1 KiB blocks (64 MiB); a
/// stored hash asking for more is not checked (the server only stores hashes of
/// [`Params::default`], 19 MiB).
pub const MAX_BLOCKS: usize = 64 * 1024;

thread_local! {
    /// The argon2 blocks of this thread, kept between hashes.
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with at least `n` argon2 blocks of this thread's buffer (grown once, then kept).
fn with_blocks<T>(n: usize, f: impl FnOnce(&mut [Block]) -> T) -> T {
    BLOCKS.with(|b| {
        let mut blocks = b.borrow_mut();
        if blocks.len() < n {
            blocks.resize(n, Block::default());
        }
        f(&mut blocks[..n])
    })
}

/// The bytes of argon2 memory this thread keeps for its hashes.
pub fn kept_bytes() -> usize {
    BLOCKS.with(|b| b.borrow().len() * Block::SIZE)
}

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// No random salt could be had from the system.
    #[error("{0}")]
    Random(getrandom::Error),
    /// The hash could not be made.
    #[error("{0}")]
    Argon(argon2::Error),
    /// The hash could not be written in the PHC string format.
    #[error("{0}")]
    Format(argon2::password_hash::Error),
    /// The hashing threads could not be started.
    #[error("the hashing threads cannot start: {0}")]
    Threads(std::io::Error),
    /// The hashing thread failed (its work panicked).
    #[error("hashing failed")]
    Failed,
}

/// `password`'s argon2id hash (the `argon2` crate's default parameters) in the PHC string
/// format, with a new random salt, made in this thread's kept memory.
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(HashError::Random)?;
    let params = Params::default();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    with_blocks(params.block_count(), |blocks| {
        argon.hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, blocks)
    })
    .map_err(HashError::Argon)?;
    let salt = SaltString::encode_b64(&salt).map_err(HashError::Format)?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(HashError::Format)?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(HashError::Format)?),
    };
    Ok(hash.to_string())
}

/// Whether `password` is the one `hash` (an argon2 PHC string) was made from, checked in this
/// thread's kept memory. A hash that cannot be read, or asks for more than [`MAX_BLOCKS`], is
/// not matched.
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(h) = PasswordHash::new(hash) else { return false };
    let (Ok(algorithm), Ok(params)) = (Algorithm::try_from(h.algorithm), Params::try_from(&h)) else {
        return false;
    };
    let version = match h.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let (Some(expected), Some(salt)) = (h.hash, h.salt) else { return false };
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else { return false };
    if params.block_count() > MAX_BLOCKS {
        return false;
    }
    let argon = Argon2::new(algorithm, version, params.clone());
    let mut out = vec![0u8; expected.len()];
    let made = with_blocks(params.block_count(), |blocks| {
        argon.hash_password_into_with_memory(password.as_bytes(), salt, &mut out, blocks)
    });
    // `Output`'s comparison takes the same time wherever the bytes differ.
    made.is_ok() && Output::new(&out).is_ok_and(|o| o == expected)
}

/// The hashing threads of a server, started at the first hash.
pub struct Hasher {
    threads: usize,
    pool: Mutex<Option<Arc<FairPool<(), ()>>>>,
}

impl Hasher {
    /// Hashing on `threads` threads (at least one).
    pub fn new(threads: usize) -> Hasher {
        Hasher { threads: threads.max(1), pool: Mutex::new(None) }
    }

    /// Runs `f` (a hash or a check) on a hashing thread in its turn (first come, first
    /// served); an error if the threads cannot be started or `f` failed.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let pool = {
            let mut p = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            match &*p {
                Some(pool) => pool.clone(),
                None => {
                    let pool = Arc::new(
                        FairPool::new("yezi-hash", self.threads, || {}).map_err(HashError::Threads)?,
                    );
                    *p = Some(pool.clone());
                    pool
                }
            }
        };
        pool.run((), (), f).await.ok_or(HashError::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    /// The hashes made in kept memory are the argon2 crate's own: each checks the other's.
    #[test]
    fn hashes_in_kept_memory_are_standard_argon2id() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        let parsed = PasswordHash::new(&h).unwrap();
        assert!(Argon2::default().verify_password(b"correct horse", &parsed).is_ok());
        assert!(Argon2::default().verify_password(b"wrong horse", &parsed).is_err());
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &SaltString::encode_b64(b"0123456789abcdef").unwrap())
            .unwrap()
            .to_string();
        assert!(verify_password("battery staple", &theirs));
        assert!(!verify_password("battery stapler", &theirs));
        assert!(!verify_password("battery staple", "not a hash"));
        // Too much memory asked: not checked.
        let greedy = theirs.replace("m=19456", "m=1048576");
        assert!(!verify_password("battery staple", &greedy));
    }

    /// A thread hashing again and again keeps one buffer of one hash's size.
    #[test]
    fn a_thread_keeps_one_buffer() {
        std::thread::spawn(|| {
            assert_eq!(kept_bytes(), 0);
            for i in 0..3 {
                let h = hash_password(&format!("password {i}")).unwrap();
                assert!(verify_password(&format!("password {i}"), &h));
            }
            assert_eq!(kept_bytes(), Params::default().block_count() * Block::SIZE);
        })
        .join()
        .unwrap();
    }

    /// Hashes run on the hashing threads, never more threads than asked for.
    #[tokio::test]
    async fn hashes_run_on_the_bounded_threads() {
        let hasher = Hasher::new(2);
        let mut names = std::collections::BTreeSet::new();
        let runs: Vec<_> = (0..6)
            .map(|i| {
                hasher.run(move || {
                    let h = hash_password(&format!("p{i}")).unwrap();
                    (
                        std::thread::current().name().unwrap_or("").to_string(),
                        verify_password(&format!("p{i}"), &h),
                    )
                })
            })
            .collect();
        for r in futures_util::future::join_all(runs).await {
            let (name, ok) = r.unwrap();
            assert!(ok);
            names.insert(name);
        }
        assert!(names.iter().all(|n| n.starts_with("yezi-hash-")), "{names:?}");
        assert!(names.len() <= 2, "{names:?}");
    }
}
