//! What the app asks of the allocator (glibc's malloc on Linux; elsewhere nothing): how many
//! arenas its threads share, and when to hand freed memory back to the system. Figures in
//! BENCHMARKS.md ("The TUI at 100,000 objects").

/// How many malloc arenas the app's threads share (glibc), the number `serve` uses.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MALLOC_ARENAS: libc::c_int = 2;

/// Bounds glibc's malloc arenas to two, unless `MALLOC_ARENA_MAX` sets them; call it before
/// any thread starts (before the async runtime). By default glibc gives threads up to eight
/// arenas per core, and the threads that parse a document and build its scene each freed
/// their working memory into an arena of their own, which kept it: 100,000 objects open in
/// local mode settled at 174 MB, 157 MB with two arenas.
pub fn bound_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets one of malloc's tunables; it takes no pointers.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
        }
    }
}

/// Hands the memory the allocator keeps after a large job back to the system. glibc keeps what
/// threads freed in their arenas: after a scene build of a 100,000-object document (what
/// placing used on the way, then dropped; and the model's texts, if a change made the model copy
/// them during the build) the app would otherwise stay larger than what it uses (about 60 MB,
/// measured when the job still held a copy of the model). Called before a scene build too, so
/// that what the document's load freed (its JSON, the parse's working memory; in local mode the
/// server's answer) is not kept beside the build's own peak.
pub(crate) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory that is free; it may be called at any time,
    // from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
