//! The TUI's settings from a config file (keys, looks) and `NO_COLOR`, reaching the binary in a
//! real terminal (tmux) at 80×24.

use diagtui_testkit::tmux::Tmux;
use diagtui_testkit_server::Local;

/// The SGR parameters of every escape sequence in `text` that sets a colour (30-37, 38, 40-47,
/// 48, 90-97, 100-107); `39`/`49` (back to the default) do not count.
fn colours(text: &str) -> Vec<String> {
    text.split("\x1b[")
        .skip(1)
        .filter_map(|rest| rest.split_once('m').map(|(params, _)| params))
        .filter(|params| {
            params.split(';').any(|p| {
                matches!(
                    p.parse::<u16>(),
                    Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
                )
            })
        })
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_looks_from_the_config_and_no_color_reach_the_binary() {
    assert_eq!(colours("\x1b[1;34mX\x1b[39;49m\x1b[7m"), vec!["1;34"]);
    let Local {
        dir,
        server,
        client,
    } = Local::start().await;
    client.create_doc("E2E doc", None).await.unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "theme = \"light\"\n[keys.global]\nquit = \"ctrl-q\"\n",
    )
    .unwrap();
    let command = format!(
        "NO_COLOR=1 DIAGTUI_CONFIG='{}' DIAGTUI_DATA_DIR='{}' '{}' --url '{}' --api-key '{}'; \
         echo \"diagtui exited $?\"; sleep 60",
        config.display(),
        dir.path().join("tui").display(),
        env!("CARGO_BIN_EXE_diagtui"),
        server.url(),
        server.api_key()
    );
    let Some(session) = Tmux::start("tui-e2e-config", 80, 24, Some(&command)) else {
        return;
    };
    session.wait_for("Ctrl-Q quit");
    session.wait_for("E2E doc");
    let styled = session.run(&["capture-pane", "-p", "-e"]);
    assert_eq!(colours(&styled), Vec::<String>::new(), "no colour at all");
    assert!(
        styled.contains("\x1b[7m") || styled.contains(";7m"),
        "the selection shows in reverse video: {styled:?}"
    );
    // q is not quit any more: it does nothing, and the app takes the next key.
    session.keys(&["q", "/"]);
    session.wait_for("/▏");
    // One key at a time: Esc and a key right after it read as Alt and that key.
    session.keys(&["Escape"]);
    session.wait_for("Enter open");
    session.keys(&["C-q"]);
    session.wait_for("diagtui exited 0");
    server.shutdown().await;
}
