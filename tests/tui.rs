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
#[path = "common/generated.rs"]
mod generated;
#[path = "tui/harness.rs"]
mod harness;
#[path = "tui/input.rs"]
mod input;
#[path = "tui/keys.rs"]
mod keys;
#[path = "tui/live.rs"]
mod live;
#[path = "tui/map.rs"]
mod map;
#[path = "tui/merge.rs"]
mod merge;
#[path = "tui/scale.rs"]
mod scale;
#[path = "tui/snapshots.rs"]
mod snapshots;
#[path = "common/tmux.rs"]
mod tmux;
#[path = "tui/undo.rs"]
mod undo;
#[path = "tui/undo_e2e.rs"]
mod undo_e2e;
#[path = "tui/update.rs"]
mod update;
