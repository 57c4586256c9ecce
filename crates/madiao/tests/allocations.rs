//! The benchmark's playouts allocate nothing per hand: the number of allocations does not grow
//! with the number of hands played (every outcome, declarations and settlement included).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
