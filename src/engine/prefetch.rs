//! Cache prefetch for the search's tables: the search knows a child's key a little before it
//! reads the child's entries, and the table reads that miss the cache are among its costliest.

/// Starts loading the cache line that holds `item`, so a read a little later does not wait on
/// memory. Only a hint: it does nothing where the processor has no such instruction.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint: it reads nothing into the program and cannot
        // fault, and SSE, which it needs, is part of every x86_64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
