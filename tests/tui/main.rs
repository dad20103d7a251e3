//! The TUI: `App::update` driven by messages, rendered frames as insta snapshots, and the
//! real binary in a terminal.

mod bulk;
mod bulk_e2e;
mod e2e;
mod editing;
mod embeds;
mod findable;
mod folders;
mod folders_e2e;
mod follow;
mod from_file;
mod from_file_e2e;
mod harness;
mod history;
mod history_e2e;
mod ids;
mod input;
mod keys;
mod live;
mod map;
mod merge;
mod messages;
mod messages_e2e;
mod paths;
mod pictures;
mod pictures_e2e;
mod rows;
mod scale;
mod selection;
mod selection_e2e;
mod server_undo;
mod server_undo_e2e;
mod snapshots;
mod undo;
mod undo_e2e;
mod update;
