//! The history's write request: retention.

use crate::batch::Batch;
use crate::change::Committed;
use crate::history::compact;
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;

area_ops! {
    CompactHistory,
}

/// Compact every document's history to the versions written at or after a time.
pub struct CompactHistory {
    /// The cutoff: an ISO 8601 UTC time.
    pub cutoff: String,
}

impl Write for CompactHistory {
    type Answer = ();
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, _batch: &mut Batch<'_>) -> Applied<()> {
        compact::compact(s, &self.cutoff).await?;
        Ok(((), Committed::default()))
    }
}
