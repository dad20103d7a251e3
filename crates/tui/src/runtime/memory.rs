//! What the app asks of the allocator (glibc's malloc on Linux; elsewhere nothing): when to
//! hand freed memory back to the system. (How many arenas its threads share is set by the
//! binary for every command, before any thread starts.) Figures in BENCHMARKS.md ("The TUI at
//! 100,000 objects").

/// Hands the memory the allocator keeps after a large job back to the system. glibc keeps what
/// threads freed in their arenas: after a scene build of a 100,000-object document (what
/// placing used on the way, then dropped; and the model's texts, if a change made the model copy
/// them during the build) the app would otherwise stay larger than what it uses (about 60 MB,
/// measured when the job still held a copy of the model). Called before a scene build too, so
/// that what the document's load freed (its JSON, the parse's working memory; in local mode the
/// server's answer) is not kept beside the build's own peak.
#[allow(unsafe_code, reason = "FFI: malloc_trim")]
pub(crate) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory that is free; it may be called at any time,
    // from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
