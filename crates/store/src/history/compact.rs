//! Retention: the versions older than the time kept are compacted away. A document's oldest
//! kept version becomes its first written at or after the cutoff (its newest stored, when all
//! are older); its content is kept as a snapshot, and everything before it goes. Reading a version
//! before it answers `VERSION_PRUNED`.

use super::HistoryWrites;
use super::read::{content, states_before};
use crate::error::StoreResult;

/// Compacts every document's history to the versions written at or after `cutoff` (an ISO
/// 8601 UTC time, as versions are stamped); returns how many documents lost versions. The
/// objects the oldest kept version changed are kept as they were before it (as snapshot rows
/// one version back, which no version row marks), so that it still shows its states before.
pub(crate) async fn compact(s: &impl HistoryWrites, cutoff: &str) -> StoreResult<usize> {
    let mut compacted = 0;
    for doc in s.histories().await? {
        let Some(keep_from) = s.keep_from(&doc, cutoff).await? else {
            continue;
        };
        let oldest = s.oldest(&doc).await?;
        if keep_from <= oldest {
            continue;
        }
        let snapshot = match s.last_snapshot(&doc, keep_from).await? == Some(keep_from) {
            true => None,
            false => Some(content(s, &doc, keep_from).await?),
        };
        let changes = s.changes(&doc, keep_from).await?;
        let before = states_before(s, &doc, keep_from, oldest, &changes).await?;
        s.drop_before(&doc, keep_from).await?;
        if let Some(objects) = snapshot {
            s.insert_snapshot_rows(&doc, keep_from, &objects).await?;
            s.mark_snapshot(&doc, keep_from).await?;
        }
        s.insert_snapshot_rows(&doc, keep_from - 1, &before).await?;
        compacted += 1;
    }
    Ok(compacted)
}
