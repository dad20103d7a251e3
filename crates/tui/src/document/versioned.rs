//! An object as the server has it: its data with its version, and the versions of many.

use std::collections::BTreeMap;

use diagtui_model::DiagramObject;

/// Object id to its version on the server (our extension), for the objects it gave one.
pub type ObjectVersions = BTreeMap<String, u64>;

/// An object as read, with its version on the server (`None`: the server gives no versions).
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned {
    /// The object.
    pub object: DiagramObject,
    /// Its version.
    pub version: Option<u64>,
}

/// An object read from a server that gave no version.
impl From<DiagramObject> for Versioned {
    fn from(object: DiagramObject) -> Versioned {
        Versioned {
            object,
            version: None,
        }
    }
}
