//! Every instance's commits applied to what this instance keeps, in commit order. Each write
//! transaction of every instance bumps the `generation` counter (its row lock orders them), so
//! generation `g` is applied only once everything up to `g - 1` is: this instance's own commits
//! by its writer, the other instances' by the listener as their reports arrive (see
//! [`notify`](super::notify)). A request answered from memory first waits until everything up
//! to the counter it read is applied (see [`freshness`](super::freshness)).
//!
//! A value at or below the one applied is not news. A report that cannot arrive (the listening
//! connection is down) or does not arrive within [`AT_MOST`] is not waited for: whatever is
//! kept is dropped instead ([`CommitObserver::changed_elsewhere`]) and the sequence moves past
//! it ([`Sequence::skip_to`]).
//!
//! [`CommitObserver::changed_elsewhere`]: crate::observer::CommitObserver::changed_elsewhere

use std::time::Duration;

use tokio::sync::watch;

/// The longest wait for a commit's report before what is kept is dropped instead.
pub const AT_MOST: Duration = Duration::from_secs(2);

/// Where the sequence stands.
#[derive(Debug, Clone, Copy)]
struct Position {
    /// Every commit up to this generation is applied (or was skipped by dropping everything).
    applied: i64,
    /// Whether the other instances' reports can arrive (the listening connection is up and
    /// caught up).
    listening: bool,
}

/// The commits applied so far.
pub struct Sequence {
    position: watch::Sender<Position>,
}

impl Sequence {
    /// Starts with everything up to `generation` applied (the counter read once listening),
    /// and the listener up.
    pub fn new(generation: i64) -> Sequence {
        Sequence {
            position: watch::channel(Position {
                applied: generation,
                listening: true,
            })
            .0,
        }
    }

    /// The last generation applied.
    pub fn applied(&self) -> i64 {
        self.position.borrow().applied
    }

    /// Waits until everything up to `generation` is applied; `false` when that is not to be
    /// waited for: the listener is down, or [`AT_MOST`] passed.
    pub async fn caught_up(&self, generation: i64) -> bool {
        let mut position = self.position.subscribe();
        let waited = tokio::time::timeout(
            AT_MOST,
            position.wait_for(|p| p.applied >= generation || !p.listening),
        )
        .await;
        matches!(waited, Ok(Ok(p)) if p.applied >= generation)
    }

    /// Applies commit `generation` with `apply`, unless it was skipped meanwhile; the caller
    /// waited until everything before it was applied ([`Sequence::caught_up`] of
    /// `generation - 1`, or [`Sequence::skip_to`] it).
    pub fn apply(&self, generation: i64, apply: impl FnOnce()) {
        self.advance(generation, apply);
    }

    /// Moves past every commit up to `generation` that is not applied yet, calling `drop_kept`
    /// (which forgets everything kept) when there is one.
    pub fn skip_to(&self, generation: i64, drop_kept: impl FnOnce()) {
        self.advance(generation, drop_kept);
    }

    /// Runs `step` and moves to `generation`, unless the sequence is there already; while no
    /// other commit is applied or skipped.
    fn advance(&self, generation: i64, step: impl FnOnce()) {
        self.position.send_if_modified(|position| {
            if position.applied >= generation {
                return false;
            }
            step();
            position.applied = generation;
            true
        });
    }

    /// The listener lost its connection: its reports are not waited for until it is back.
    pub fn listener_down(&self) {
        self.position
            .send_modify(|position| position.listening = false);
    }

    /// The listener is back and caught up.
    pub fn listener_up(&self) {
        self.position
            .send_modify(|position| position.listening = true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn commits_apply_in_order_and_a_skipped_one_is_not_applied_late() {
        let sequence = Sequence::new(5);
        assert!(sequence.caught_up(5).await, "nothing newer is news");
        let mut applied = Vec::new();
        sequence.apply(6, || applied.push(6));
        assert!(sequence.caught_up(6).await);
        // A report of 7 is late: a request that read 8 drops everything and moves past both.
        let mut dropped = 0;
        sequence.skip_to(8, || dropped += 1);
        sequence.apply(7, || applied.push(7));
        sequence.skip_to(8, || dropped += 1);
        assert_eq!(
            applied,
            [6],
            "what was dropped is not applied from an older read"
        );
        assert_eq!(dropped, 1);
        sequence.apply(9, || applied.push(9));
        assert_eq!((applied, sequence.applied()), (vec![6, 9], 9));
    }

    #[tokio::test]
    async fn a_waiter_is_answered_when_the_commit_is_applied_or_the_listener_goes() {
        let sequence = std::sync::Arc::new(Sequence::new(1));
        let waiter = {
            let sequence = std::sync::Arc::clone(&sequence);
            tokio::spawn(async move { sequence.caught_up(2).await })
        };
        tokio::task::yield_now().await;
        sequence.apply(2, || {});
        assert!(waiter.await.unwrap());
        let waiter = {
            let sequence = std::sync::Arc::clone(&sequence);
            tokio::spawn(async move { sequence.caught_up(3).await })
        };
        tokio::task::yield_now().await;
        sequence.listener_down();
        assert!(
            !waiter.await.unwrap(),
            "not waited for while the listener is down"
        );
        sequence.listener_up();
        assert!(sequence.caught_up(2).await);
    }
}
