//! The status bar's message and its lifetime: an information fades after a few seconds; a
//! warning or an error stays until the user's next key, paste or click (or a newer message).
//! Time comes in as the app's ticks, never from a clock. Every message is also kept in the log
//! (`L`), which the app writes it to.

use crate::app::notification::{Level, Notification};
use crate::theme::Role;

/// Ticks an information shows: 40 of the runner's 120 ms ticks, about five seconds.
pub const INFO_TICKS: u64 = 40;

/// The message the status bar shows, and since when.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    current: Option<Notification>,
    since: u64,
}

impl Status {
    /// Shows `notification` from tick `now` on.
    pub fn show(&mut self, notification: Notification, now: u64) {
        self.current = Some(notification);
        self.since = now;
    }

    /// The message shown, if any.
    pub fn current(&self) -> Option<&Notification> {
        self.current.as_ref()
    }

    /// Time passed: an information shown for [`INFO_TICKS`] goes.
    pub fn tick(&mut self, now: u64) {
        if self.fading() && now.wrapping_sub(self.since) >= INFO_TICKS {
            self.current = None;
        }
    }

    /// Whether the message will go by itself (an information): the screen must be drawn again as
    /// time passes.
    pub fn fading(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|n| n.level == Level::Info)
    }

    /// The user did something: a warning or an error has been seen and goes.
    pub fn user_acted(&mut self) {
        if !self.fading() {
            self.current = None;
        }
    }

    /// Takes an error off (a retry is under way).
    pub fn clear_error(&mut self) {
        if self
            .current
            .as_ref()
            .is_some_and(|n| n.level == Level::Error)
        {
            self.current = None;
        }
    }
}

/// How a message of `level` looks: its mark (none for an information) and its style.
pub fn look(level: Level) -> (&'static str, Role) {
    match level {
        Level::Error => ("✗", Role::Error),
        Level::Warning => ("!", Role::Warning),
        Level::Info => ("", Role::Success),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_information_fades_and_an_error_stays_until_the_user_acts() {
        let mut status = Status::default();
        status.show(Notification::info("saved"), 10);
        status.tick(10 + INFO_TICKS - 1);
        assert!(status.current().is_some() && status.fading());
        status.tick(10 + INFO_TICKS);
        assert_eq!(status.current(), None);

        status.show(Notification::error("save failed"), 100);
        status.tick(100 + 10 * INFO_TICKS);
        assert_eq!(status.current(), Some(&Notification::error("save failed")));
        assert!(!status.fading());
        status.user_acted();
        assert_eq!(status.current(), None);

        status.show(Notification::info("copied"), 0);
        status.user_acted();
        assert!(
            status.current().is_some(),
            "an information waits for its time"
        );
        status.show(Notification::warning("careful"), 0);
        status.clear_error();
        assert!(status.current().is_some(), "a retry clears errors only");
    }
}
