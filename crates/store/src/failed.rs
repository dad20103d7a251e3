//! Why a conditional write wrote nothing (`If-Match`, `ifVersions`): the 412's details, which
//! the error carries (see [`condition`](super::condition) for the checks).

use std::fmt;
use std::sync::Arc;

use super::object::{StoredObject, push_json_string};

/// Why a conditional write wrote nothing: what the client needs to decide again.
#[derive(Debug, Clone)]
pub struct Failed {
    /// The document's current version (filled in by the writer).
    pub document_version: u64,
    /// The current state of every object whose condition failed (`None`: it does not exist),
    /// and for a selector update of every object that now matches but was not previewed, in
    /// id order; `None` for a condition on the document's version.
    pub objects: Option<Vec<(String, Option<Arc<StoredObject>>)>>,
    /// Selector update only: ids matching now that were not previewed, in id order.
    pub now_match: Option<Vec<String>>,
    /// Selector update only: previewed ids that no longer match, in id order.
    pub no_longer_match: Option<Vec<String>>,
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(objects) = &self.objects else {
            return write!(
                f,
                "the document is at version {}, not the version given",
                self.document_version
            );
        };
        let count = |n: usize| match n {
            1 => "1 object".to_owned(),
            n => format!("{n} objects"),
        };
        if let (Some(now), Some(gone)) = (&self.now_match, &self.no_longer_match) {
            write!(
                f,
                "the selector's matches changed since the preview ({} now match{}, {} no \
                 longer match{}): ",
                now.len(),
                if now.len() == 1 { "es" } else { "" },
                gone.len(),
                if gone.len() == 1 { "es" } else { "" },
            )?;
        } else {
            write!(
                f,
                "{} changed since the versions given: ",
                count(objects.len())
            )?;
        }
        for (at, (id, object)) in objects.iter().enumerate() {
            if at == 5 {
                return write!(f, ", and {} more", objects.len() - 5);
            }
            let sep = if at == 0 { "" } else { ", " };
            match object {
                Some(object) => write!(f, "{sep}{id} (now {})", object.version())?,
                None => write!(f, "{sep}{id} (deleted)")?,
            }
        }
        Ok(())
    }
}

impl Failed {
    /// The members the 412 answer adds to the error contract, as JSON text to follow
    /// `"message":…,`: `"documentVersion":N` and, as they apply, `"objects"`, `"nowMatch"`,
    /// `"noLongerMatch"`.
    pub fn json_members(&self) -> String {
        let mut out = format!("\"documentVersion\":{}", self.document_version);
        if let Some(objects) = &self.objects {
            out.push_str(",\"objects\":{");
            for (at, (id, object)) in objects.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                push_json_string(&mut out, id);
                out.push(':');
                match object {
                    Some(object) => object.push_versioned(&mut out),
                    None => out.push_str("null"),
                }
            }
            out.push('}');
        }
        for (name, ids) in [
            ("nowMatch", &self.now_match),
            ("noLongerMatch", &self.no_longer_match),
        ] {
            if let Some(ids) = ids {
                out.push_str(&format!(",\"{name}\":"));
                out.push_str(&serde_json::to_string(ids).expect("ids always serialise"));
            }
        }
        out
    }
}
