//! What this process knows of the database's commit counter: every diagtui write transaction,
//! on either engine, bumps one counter in the database, and this process remembers the value its
//! own last commit wrote. A value read from the database that this process did not write means
//! another process or instance committed since, so that whatever is kept in memory must go.

use std::sync::Mutex;

/// What this process knows of the counter.
struct Seen {
    /// The counter as of this process's knowledge: its own last commit, or the last value read.
    generation: i64,
    /// The value a commit of this process's writer is writing right now.
    pending: Option<i64>,
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
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes in a value read from the database; calls `changed_elsewhere` (while no other
    /// check can pass) when another process or instance wrote it.
    pub fn observe(&self, generation: i64, changed_elsewhere: impl FnOnce()) {
        let mut seen = self.lock();
        if generation != seen.generation && Some(generation) != seen.pending {
            changed_elsewhere();
            seen.generation = seen.generation.max(generation);
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
        elsewhere
    }

    /// Called by the writer after its transaction ended: `committed` tells whether the value
    /// given to [`Generations::begin_write`] is now in the database.
    pub fn end_write(&self, committed: bool) {
        let mut seen = self.lock();
        if let Some(generation) = seen.pending.take()
            && committed
        {
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
        generations.end_write(true);
        generations.observe(6, || cleared += 1);
        assert_eq!(cleared, 0, "our own commit");
        generations.observe(7, || cleared += 1);
        assert_eq!(cleared, 1, "another's commit");
        assert!(
            generations.begin_write(9, || cleared += 1),
            "one more meanwhile"
        );
        generations.end_write(false);
        assert_eq!(cleared, 2);
    }
}
