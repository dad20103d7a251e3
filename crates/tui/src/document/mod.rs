//! The document room: the open document that App owns and every component reads through `Cx`
//! (the tree, the properties, the map, the selector form, the bulk edit). Its content sits in an
//! [`ObjectModel`], the one data model of the objects, compact and built off the input loop
//! (see `model.rs`): the tree asks it for rows and rows' text and never parses the objects.
//! Also here: how objects are named ([`names`]), the summary of the marked objects
//! ([`summary`]), the scene built off the loop ([`scene_cache`]) and the pictures of the map's
//! view for terminals that show pixels ([`picture`]).
//!
//! Also [`load`]: where a request-backed value stands (what is loading), and `Versioned`, an
//! object as the server has it.
//!
//! May import: `text`, `theme`, and the model and scene crates; nothing above.

mod departed;
mod filter;
mod glance;
pub(crate) mod load;
mod marks;
mod meta;
mod model;
pub(crate) mod names;
mod open;
mod past;
pub mod picture;
mod row;
pub mod scene_cache;
pub(crate) mod summary;
mod texts;
mod versioned;

pub use departed::Departed;
pub use filter::Matches;
pub use load::RequestId;
pub use marks::Marks;
pub use meta::{MetaIndex, MetaValues};
pub use model::{Entry, Group, ObjectModel, ObjectTexts, TreeRow};
pub use open::OpenDoc;
pub use past::Past;
pub use row::{RowParts, row_text, scalar_text};
pub use versioned::{ObjectVersions, Versioned};
