//! The benchmark's playouts allocate nothing per hand: the number of allocations does not grow
//! with the number of hands played (every outcome, declarations and settlement included).
//!
//! Only the test's own thread is counted: the test harness's threads allocate now and then while a
//! test runs, which would make a process-wide count flaky.
#![allow(unsafe_code)] // a counting global allocator: the one unsafe this crate's tests need

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// True on the thread whose allocations are counted.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn bench_playouts_do_not_allocate_per_hand() {
    use madiao::Variants;
    use madiao::random::{RandomPolicy, bench};
    COUNTED.with(|c| c.set(true));
    // The counter counts this thread.
    let probe = ALLOCATIONS.load(Ordering::Relaxed);
    drop(std::hint::black_box(vec![1u8; 16]));
    assert!(ALLOCATIONS.load(Ordering::Relaxed) > probe);
    for v in [Variants::STANDARD, Variants::FENG] {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let small = bench(3, 100, v, RandomPolicy::default());
        let mid = ALLOCATIONS.load(Ordering::Relaxed);
        let large = bench(3, 50_000, v, RandomPolicy::default());
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        // 50,000 hands see every outcome (melds, four lowest, redeals) many times.
        assert!(large.outcomes.iter().all(|&n| n > 50), "{:?}", large.outcomes);
        assert!(small.hands == 100);
        assert_eq!(after - mid, mid - before, "allocations grew with the number of hands");
        assert_eq!(after - mid, 0);
    }
}
