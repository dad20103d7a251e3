//! Waiting for the user or the system to ask the process to stop (`serve`, `doc watch`).

use anyhow::Context;

/// Starts catching SIGINT (Ctrl-C) and, on Unix, SIGTERM at once, so that a signal sent as
/// soon as the process shows it runs is caught; the future resolves on the first of them.
pub fn stop_requested() -> anyhow::Result<impl Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot catch SIGINT")?;
        let mut terminate = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
