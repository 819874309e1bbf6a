//! A global allocator that counts the bytes each thread holds, for tests that bound what
//! reading allocates: this crate's `allocation.rs`, and parquet-file's `hostile.rs` and
//! every crate's fuzz regression replay (`fuzz/replay.rs`), which include this file by
//! path; and the bytes the whole process holds, for the field rows of `compare/`, whose
//! parallel readers and writers allocate on their workers and free on the caller's thread.
//!
//! It forwards every call to the system allocator unchanged.
#![allow(dead_code)] // each includer uses one of the two counts

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

thread_local! {
    /// Bytes this thread holds.
    static LIVE: Cell<usize> = const { Cell::new(0) };
    /// The most it held since the last `reset`.
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

/// Bytes the process holds.
static PROCESS_LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most it held since the last `process_peak_allocation` began.
static PROCESS_PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(bytes: usize) {
    let live = PROCESS_LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PROCESS_PEAK.fetch_max(live, Ordering::Relaxed);
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

fn shrink(bytes: usize) {
    PROCESS_LIVE.fetch_sub(bytes, Ordering::Relaxed);
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(bytes)));
}

// SAFETY: every method forwards to `System` with the caller's arguments, so `System`'s
// guarantees are ours; the counting touches only static atomics and const-initialized
// thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which we pass on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grow(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grow(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from our `alloc`, that is from `System`.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, and the caller upholds `realloc`'s contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Both blocks are held for a moment.
            grow(new_size);
            shrink(layout.size());
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes this thread held above what it held before, while running `f`.
pub(crate) fn peak_allocation(f: impl FnOnce()) -> usize {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    f();
    PEAK.with(Cell::get) - before
}

/// The most bytes the whole process held above what it held before, while running `f`.
pub(crate) fn process_peak_allocation(f: impl FnOnce()) -> usize {
    let before = PROCESS_LIVE.load(Ordering::Relaxed);
    PROCESS_PEAK.store(before, Ordering::Relaxed);
    f();
    PROCESS_PEAK.load(Ordering::Relaxed).saturating_sub(before)
}
