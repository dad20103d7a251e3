//! Pure data and rules shared by the client and the server: the API's JSON shapes, the seven
//! object types, selectors, property defaults, validation, the API's non-recursive merge and
//! the nested merge of bulk changes.
//! Nothing here knows HTTP, SQLite or terminals.

mod content_check;
pub mod embeds;
mod error_code;
pub mod events;
pub mod history;
pub mod ids;
pub mod merge;
pub mod picture;
pub mod private_files;
pub mod props;
pub mod selector;
pub mod versions;
mod wire;

pub use content_check::{ContentProblem, ContentReport, check_content};
pub use error_code::ErrorCode;
pub use props::{ObjectType, PropertyProblem};
pub use selector::{Condition, Operator, Selector, SelectorError};
pub use wire::*;
