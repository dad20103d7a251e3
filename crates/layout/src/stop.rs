//! Giving a layout up between its steps: the server raises a [`Stop`] when the client that
//! asked for the layout has gone, so that a diagram too large for the grid, whose shrinking
//! gaps are tried for seconds before it is refused, does not hold a core for no one.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{LayoutError, LayoutResult};

/// A flag raised, from any thread, to stop a layout at its next step.
#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

impl Stop {
    /// Asks the layout to stop at its next step.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the layout was asked to stop.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// An error once the layout was asked to stop, to leave it with `?`.
    pub(crate) fn check(&self) -> LayoutResult<()> {
        if self.is_raised() {
            return Err(LayoutError::input(
                "the layout was stopped before it was done",
            ));
        }
        Ok(())
    }
}
