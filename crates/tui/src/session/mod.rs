//! What the session remembers: [`record`] is the session's writes to each document (what undo
//! needs), [`selectors`] the selectors remembered (kept in a file).
//!
//! May import `document` (the objects a write names), `text` and `transfer`; nothing that draws.

pub(crate) mod record;
pub mod selectors;
