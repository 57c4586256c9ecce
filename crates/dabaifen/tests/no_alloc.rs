//! The playout path and legal-action enumeration allocate nothing (counted by a global
//! allocator wrapper). Only the test's own thread is counted: the test harness's threads allocate
//! now and then while a test runs, which made a process-wide count flaky.
#![allow(unsafe_code)] // a counting global allocator: the one unsafe this crate's tests need

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// True on the thread whose allocations are counted.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.try_with(Cell::get).unwrap_or(false) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: forwarding the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn random_playouts_and_legal_action_enumeration_do_not_allocate() {
    COUNTED.with(|c| c.set(true));
    let v = dabaifen::Variants::STANDARD;
    let before = ALLOCS.load(Ordering::SeqCst);
    let t = dabaifen::random::bench(v, 3, 3000);
    let l = dabaifen::random::bench_legal(v, 3, 300);
    let after = ALLOCS.load(Ordering::SeqCst);
    assert_eq!(t.deals, 3000);
    assert!(l.lead_calls > 0 && l.follow_calls > 0);
    assert_eq!(after - before, 0, "allocations during 3,300 playouts");
    // The counter does count: the convenience `legal_actions` allocates its Vec.
    let st = dabaifen::State::new(&dabaifen::HandSetup::first(
        dabaifen::deck_from_seed(1, 0),
        cards::Seat::ALL[0],
        v,
    ))
    .unwrap();
    let n = st.legal_actions().len();
    assert!(n > 0 && ALLOCS.load(Ordering::SeqCst) > after);
}
