//! The `diagtui` binary: bounds malloc's arenas for the whole process, then runs the command
//! line (`diagtui-cli`) with the TUI (`diagtui-tui`) as its front: the two crates meet only
//! here, so that an edit to either rebuilds it and this binary, not the other.

use std::future::Future;
use std::path::Path;
use std::process::ExitCode;

use diagtui_cli::front::{Front, Session};
use diagtui_tui::Configured;
use diagtui_tui::settings::UiSettings;

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

/// The TUI as the command line starts it.
struct Tui;

impl Front for Tui {
    type Settings = Configured;

    fn settings(&self, text: Option<&str>) -> Result<Configured, String> {
        let settings = text.map_or_else(|| Ok(UiSettings::default()), UiSettings::from_config);
        settings
            .and_then(|settings| Configured::new(&settings))
            .map_err(|e| e.to_string())
    }

    fn key_table(&self, settings: &Configured, markdown: bool) -> String {
        settings.key_table(markdown)
    }

    fn init_log(&self, data_dir: &Path) -> std::io::Result<()> {
        diagtui_tui::init_log(data_dir)
    }

    fn run(
        &self,
        settings: Configured,
        session: Session,
    ) -> impl Future<Output = anyhow::Result<()>> {
        let Session {
            client,
            mode,
            account,
            poll,
            data_dir,
        } = session;
        let setup = settings.into_setup(mode, account, poll, &data_dir);
        diagtui_tui::run(client, setup)
    }
}

fn main() -> ExitCode {
    bound_malloc_arenas();
    diagtui_cli::main(Tui)
}
