//! The `diagtui` binary: bounds malloc's arenas for the whole process, then runs the command
//! line (`diagtui-cli`).

use std::process::ExitCode;

/// How many malloc arenas the process's threads share (glibc).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MALLOC_ARENAS: libc::c_int = 2;

/// Bounds glibc's malloc arenas to [`MALLOC_ARENAS`], unless `MALLOC_ARENA_MAX` sets them;
/// called first, before any thread starts. By default glibc gives threads up to eight arenas
/// per core, and each kept what its threads freed: under many clients `serve`'s resident size
/// crept up (with two it stays flat, `cargo bench --bench load`), and the TUI with 100,000
/// objects open in local mode settled at 174 MB (157 MB with two; `tui_binary`). Figures in
/// BENCHMARKS.md.
#[allow(unsafe_code, reason = "FFI: mallopt")]
fn bound_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets one of malloc's tunables; it takes no pointers.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
        }
    }
}

fn main() -> ExitCode {
    bound_malloc_arenas();
    diagtui_cli::main()
}
