//! Server-Sent Events on the wire: one event as the bytes sent (built once, shared by every
//! subscriber), event ids and the keep-alive comment.

use bytes::Bytes;
use serde::Serialize;

/// The keep-alive comment.
pub const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// Where an event sits in its stream: the stream's generation (a stream started again, after a
/// restart or once forgotten, has another) and its place in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventId {
    /// The stream's generation.
    pub generation: String,
    /// The event's place in the stream: 1, 2, 3, ... (0 before the first).
    pub seq: u64,
}

impl EventId {
    /// Reads a `Last-Event-ID`: `GENERATION-SEQ`.
    pub fn parse(text: &str) -> Option<EventId> {
        let (generation, seq) = text.trim().rsplit_once('-')?;
        Some(EventId {
            generation: generation.to_owned(),
            seq: seq.parse().ok()?,
        })
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.generation, self.seq)
    }
}

/// One event, ready to send.
#[derive(Debug)]
pub struct Frame {
    /// Its place in its stream.
    pub seq: u64,
    /// The bytes sent: `id:`, `event:` and `data:` lines and the blank line.
    pub bytes: Bytes,
    /// The stream ends after it (its document was deleted).
    pub last: bool,
}

impl Frame {
    /// An event named `name` with `data` as its JSON.
    pub fn new(id: &EventId, name: &str, data: &impl Serialize) -> Frame {
        let json = serde_json::to_string(data).expect("an event serialises");
        Frame {
            seq: id.seq,
            bytes: Bytes::from(format!("id: {id}\nevent: {name}\ndata: {json}\n\n")),
            last: false,
        }
    }

    /// The same event, ending its stream.
    pub fn ending(self) -> Frame {
        Frame { last: true, ..self }
    }

    /// How many bytes it holds.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_id_event_and_one_data_line() {
        let id = EventId {
            generation: "ab12".into(),
            seq: 7,
        };
        let frame = Frame::new(&id, "change", &serde_json::json!({"a": "x\ny"}));
        assert_eq!(
            frame.bytes,
            "id: ab12-7\nevent: change\ndata: {\"a\":\"x\\ny\"}\n\n"
        );
        assert_eq!(EventId::parse("ab12-7"), Some(id));
        assert_eq!(EventId::parse("ab-12-7").unwrap().generation, "ab-12");
        assert_eq!(EventId::parse("nope"), None);
        assert_eq!(EventId::parse("ab-x"), None);
    }
}
