//! Retention: the versions older than the time kept are compacted away. A document's oldest
//! kept version becomes its first written at or after the cutoff (its newest stored, when all
//! are older); its content is kept as a snapshot, and everything before it goes. Reading a version
//! before it answers `VERSION_PRUNED`.

use super::HistoryWrites;
use super::read::{HistoryAnswer, HistoryQuery, answer};
use crate::{StoreError, StoreResult};

/// Compacts every document's history to the versions written at or after `cutoff` (an ISO
/// 8601 UTC time, as versions are stamped); returns how many documents lost versions.
pub(crate) async fn compact(s: &impl HistoryWrites, cutoff: &str) -> StoreResult<usize> {
    let mut compacted = 0;
    for doc in s.histories().await? {
        let Some(keep_from) = s.keep_from(&doc, cutoff).await? else {
            continue;
        };
        if keep_from <= s.oldest(&doc).await? {
            continue;
        }
        if s.last_snapshot(&doc, keep_from).await? != Some(keep_from) {
            let objects = match answer(s, &doc, HistoryQuery::Content(keep_from)).await? {
                HistoryAnswer::Content(objects, _) => objects,
                other => {
                    return Err(StoreError::Internal(format!(
                        "unexpected history answer: {other:?}"
                    )));
                }
            };
            s.insert_snapshot(&doc, keep_from, &objects).await?;
        }
        s.drop_before(&doc, keep_from).await?;
        compacted += 1;
    }
    Ok(compacted)
}
