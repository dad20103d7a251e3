//! What this process knows of the SQLite database's commit counter: every diagtui write
//! transaction bumps one counter in the database, and this process remembers the value its own
//! last commit wrote. A value read from the database that this process did not write means
//! another process committed since, so that whatever is kept in memory must go. (PostgreSQL
//! instances apply each other's commits instead, in counter order: `postgres/sequence.rs`, under
//! the same rule that a value at or below the one known is not news.)

use std::sync::Mutex;

/// What this process knows of the counter.
struct Seen {
    /// The counter as of this process's knowledge: its own last commit, or the last value read.
    /// Every commit up to it has been accounted for (written through, or the cache cleared).
    generation: i64,
    /// The value a commit of this process's writer is writing right now.
    pending: Option<i64>,
    /// Whether a reader handed in the pending value while it was pending: if the commit then
    /// fails, that value was another process's commit.
    pending_read: bool,
}

/// The counter as this process knows it.
pub struct Generations {
    seen: Mutex<Seen>,
}

impl Generations {
    /// Starts from the value read when the engine opened.
    pub fn new(generation: i64) -> Generations {
        Generations {
            seen: Mutex::new(Seen {
                generation,
                pending: None,
                pending_read: false,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes in a value read from the database; calls `changed_elsewhere` (while no other
    /// check can pass) when another process or instance wrote it.
    ///
    /// The counter only grows, so a value at or below the one already known, or below the
    /// value being committed now (whose [`Generations::begin_write`] accounted for everything
    /// before it), is old news: a reader that read the counter just before this process's
    /// writer ended its write hands in a value one behind, which is no one else's commit.
    pub fn observe(&self, generation: i64, changed_elsewhere: impl FnOnce()) {
        let mut seen = self.lock();
        if generation <= seen.generation {
            return;
        }
        match seen.pending {
            Some(pending) if generation < pending => {}
            Some(pending) if generation == pending => seen.pending_read = true,
            _ => {
                changed_elsewhere();
                seen.generation = generation;
            }
        }
    }

    /// Called by the writer inside its transaction with the value it bumped the counter to;
    /// calls `changed_elsewhere` and answers `true` when another process committed since this
    /// one knew.
    pub fn begin_write(&self, generation: i64, changed_elsewhere: impl FnOnce()) -> bool {
        let mut seen = self.lock();
        let elsewhere = generation != seen.generation + 1;
        if elsewhere {
            changed_elsewhere();
        }
        seen.pending = Some(generation);
        seen.pending_read = false;
        elsewhere
    }

    /// Called by the writer after its transaction ended: `committed` tells whether the value
    /// given to [`Generations::begin_write`] is now in the database. When it is not, but a
    /// reader saw that value meanwhile, another process committed it: `changed_elsewhere` is
    /// called.
    pub fn end_write(&self, committed: bool, changed_elsewhere: impl FnOnce()) {
        let mut seen = self.lock();
        let Some(generation) = seen.pending.take() else {
            return;
        };
        if !committed && seen.pending_read {
            changed_elsewhere();
        }
        if committed || seen.pending_read {
            seen.generation = seen.generation.max(generation);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_values_written_elsewhere_count_as_changes() {
        let generations = Generations::new(5);
        let mut cleared = 0;
        generations.observe(5, || cleared += 1);
        assert!(!generations.begin_write(6, || cleared += 1));
        generations.observe(6, || cleared += 1);
        generations.end_write(true, || cleared += 1);
        generations.observe(6, || cleared += 1);
        assert_eq!(cleared, 0, "our own commit");
        generations.observe(7, || cleared += 1);
        assert_eq!(cleared, 1, "another's commit");
        assert!(
            generations.begin_write(9, || cleared += 1),
            "one more meanwhile"
        );
        generations.end_write(false, || cleared += 1);
        assert_eq!(cleared, 2);
    }

    /// A reader reads the counter, then the writer commits and ends its write, then the reader
    /// hands in what it read: one behind, which is old news, not another's commit.
    #[test]
    fn a_value_read_before_our_own_commit_ended_is_not_news() {
        let generations = Generations::new(5);
        let mut cleared = 0;
        assert!(!generations.begin_write(6, || cleared += 1));
        let read_before_the_commit = 5;
        generations.end_write(true, || cleared += 1);
        generations.observe(read_before_the_commit, || cleared += 1);
        assert_eq!(cleared, 0, "read before our commit ended");
        // The next write under way: a value from before the last one is older still.
        assert!(!generations.begin_write(7, || cleared += 1));
        generations.observe(5, || cleared += 1);
        generations.observe(6, || cleared += 1);
        assert_eq!(cleared, 0, "read before either commit");
        generations.end_write(true, || cleared += 1);
        generations.observe(8, || cleared += 1);
        assert_eq!(cleared, 1, "another's commit after ours is news");
        generations.observe(8, || cleared += 1);
        assert_eq!(cleared, 1, "and news once");
    }

    /// A commit that failed after a reader saw its value: that value was another process's.
    #[test]
    fn a_value_seen_while_our_commit_failed_was_anothers() {
        let generations = Generations::new(5);
        let mut cleared = 0;
        assert!(!generations.begin_write(6, || cleared += 1));
        generations.observe(6, || cleared += 1);
        assert_eq!(cleared, 0, "maybe ours");
        generations.end_write(false, || cleared += 1);
        assert_eq!(cleared, 1, "ours failed: it was another's");
        generations.observe(6, || cleared += 1);
        assert_eq!(cleared, 1, "known now");
    }
}
