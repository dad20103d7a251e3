//! Where a request-backed thing stands: the document list, a document's details, the open
//! document's content, the selector preview. One enum instead of `loading`/`loaded`/`error`
//! flags; a reload keeps the last value showing until its answer arrives (a reload in place), and
//! an answer to anything but the request awaited is dropped.

/// Identifies one request; replies carry it back so stale ones can be dropped.
pub type RequestId = u64;

/// Nothing asked yet, asked (keeping the last value), arrived, or failed.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Load<T> {
    /// Never asked for.
    #[default]
    Idle,
    /// Asked for by request `id`; `last` is what showed before, kept while it loads.
    Loading {
        /// The request whose answer is awaited.
        id: RequestId,
        /// The value before this load, if there was one.
        last: Option<T>,
    },
    /// Arrived.
    Loaded(T),
    /// The last request failed, in words.
    Failed(String),
}

impl<T> Load<T> {
    /// Request `id` now loads it; the value so far stays showing.
    pub fn start(&mut self, id: RequestId) {
        let last = match std::mem::take(self) {
            Load::Loaded(value) => Some(value),
            Load::Loading { last, .. } => last,
            Load::Idle | Load::Failed(_) => None,
        };
        *self = Load::Loading { id, last };
    }

    /// Whether request `id` is the one awaited.
    pub fn awaits(&self, id: RequestId) -> bool {
        matches!(self, Load::Loading { id: awaited, .. } if *awaited == id)
    }

    /// Takes the answer of request `id` if it is the one awaited; says whether it was.
    pub fn settle(&mut self, id: RequestId, value: T) -> bool {
        self.finish(id, Load::Loaded(value))
    }

    /// [`Load::settle`], the value it replaces freed on another thread (see [`drop_elsewhere`]).
    pub fn settle_dropping_elsewhere(&mut self, id: RequestId, value: T) -> bool
    where
        T: Send + 'static,
    {
        if !self.awaits(id) {
            return false;
        }
        if let Load::Loading { last, .. } = self
            && let Some(last) = last.take()
        {
            drop_elsewhere(last);
        }
        self.settle(id, value)
    }

    /// Records the failure of request `id` if it is the one awaited; says whether it was.
    pub fn fail(&mut self, id: RequestId, message: String) -> bool {
        self.finish(id, Load::Failed(message))
    }

    fn finish(&mut self, id: RequestId, outcome: Load<T>) -> bool {
        let awaited = self.awaits(id);
        if awaited {
            *self = outcome;
        }
        awaited
    }

    /// The value to show: the arrived one, or the last one while it reloads.
    pub fn value(&self) -> Option<&T> {
        match self {
            Load::Loaded(value)
            | Load::Loading {
                last: Some(value), ..
            } => Some(value),
            _ => None,
        }
    }

    /// The value to change in place (a row removed before the server confirms it).
    pub fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            Load::Loaded(value)
            | Load::Loading {
                last: Some(value), ..
            } => Some(value),
            _ => None,
        }
    }

    /// Whether a request is under way.
    pub fn is_loading(&self) -> bool {
        matches!(self, Load::Loading { .. })
    }

    /// Why the last request failed.
    pub fn error(&self) -> Option<&str> {
        match self {
            Load::Failed(message) => Some(message),
            _ => None,
        }
    }
}

/// Frees `value` on a thread of its own: a large value (the 50,000 objects of a preview, the
/// scene of a large document) takes tens of milliseconds to free, which the input loop should
/// not wait for.
pub fn drop_elsewhere<T: Send + 'static>(value: T) {
    // Without a thread to spare it is freed here, as it would have been anyway.
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_keeps_the_value_and_takes_only_the_awaited_answer() {
        let mut load = Load::Idle;
        load.start(1);
        assert_eq!(load.value(), None);
        assert!(load.settle(1, "a"));
        load.start(2);
        assert_eq!(load.value(), Some(&"a"), "in place while reloading");
        load.start(3);
        assert!(!load.settle(2, "stale"), "an answer overtaken is dropped");
        assert_eq!(load.value(), Some(&"a"));
        assert!(load.fail(3, "down".into()));
        assert_eq!((load.value(), load.error()), (None, Some("down")));
        load.start(4);
        assert_eq!(load.value(), None, "nothing to keep after a failure");
        assert!(load.is_loading());
    }
}
