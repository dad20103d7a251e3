//! What an object update asks (the writer's `UpdateObjects` request, in
//! `writer/ops/objects.rs`), and its outcome when planned ahead of the writer from a cached
//! document (see `plan`).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::object::StoredObject;
use diagtui_model::versions::VersionCondition;
use diagtui_model::{Props, Selector};

/// Which objects an update changes, and how.
#[derive(Debug)]
pub enum ObjectUpdate {
    /// Each named object takes its own properties (the bulk update; one object's update when
    /// not `labelled`, its messages then naming no object).
    Each {
        /// Object id to the properties to merge into it.
        objects: BTreeMap<String, Props>,
        /// Whether messages name the object (`objects.<id>: …`).
        labelled: bool,
        /// The versions some of the objects must be at (`If-Match`, `ifVersions`), else
        /// nothing is written.
        if_versions: BTreeMap<String, VersionCondition>,
    },
    /// Every object whose `meta` matches takes the properties.
    Matching {
        /// Which objects.
        selector: Selector,
        /// What to merge.
        props: Props,
        /// The objects previewed, each at its version: the update goes through only if the
        /// selector matches exactly these, at these versions (`ifVersions`).
        if_versions: Option<BTreeMap<String, u64>>,
    },
}

/// An update's outcome computed ahead of the writer from a cached document.
#[derive(Debug)]
pub struct Plan {
    /// The version of the cached document it was computed from: the writer takes it only if
    /// the document is still at that version.
    pub version: u64,
    /// Each object's new state, in id order.
    pub objects: Vec<(String, Arc<StoredObject>)>,
    /// Each object's state before, in the same order (the cached document's).
    pub before: Vec<Arc<StoredObject>>,
    /// How many objects the document held: an engine may write a large share of them
    /// differently from a few.
    pub doc_len: usize,
}
