//! The TUI: `App::update` driven by messages, rendered frames as insta snapshots, and the
//! real binary in a terminal.

#[path = "tui/bulk.rs"]
mod bulk;
#[path = "tui/bulk_e2e.rs"]
mod bulk_e2e;
#[path = "tui/e2e.rs"]
mod e2e;
#[path = "tui/editing.rs"]
mod editing;
#[path = "tui/follow.rs"]
mod follow;
#[path = "tui/harness.rs"]
mod harness;
#[path = "tui/keys.rs"]
mod keys;
#[path = "tui/snapshots.rs"]
mod snapshots;
#[path = "common/tmux.rs"]
mod tmux;
#[path = "tui/update.rs"]
mod update;
