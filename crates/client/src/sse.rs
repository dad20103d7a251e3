//! Reading Server-Sent Events from a body that arrives in chunks: `id:`, `event:`, `data:`
//! fields, comments, an event per blank line (as the HTML standard's event stream format says;
//! lines end with `\n` or `\r\n`).

/// One event as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The stream's last event id as of this event (ids carry over to the events after).
    pub id: Option<String>,
    /// The event's name (`message` when none was sent).
    pub event: String,
    /// Its data lines, joined with `\n`.
    pub data: String,
}

/// What a stream carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// An event.
    Event(SseEvent),
    /// A comment line (`: keep-alive`), without its colon and the space after.
    Comment(String),
}

/// Reads events out of chunks as they come.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of an unfinished line.
    partial: Vec<u8>,
    last_id: Option<String>,
    event: Option<String>,
    data: Option<String>,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> SseParser {
        SseParser::default()
    }

    /// Reads a chunk; answers the events and comments it completes.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseItem> {
        let mut items = Vec::new();
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let mut line = std::mem::take(&mut self.partial);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if let Some(item) = self.line(&String::from_utf8_lossy(&line)) {
                items.push(item);
            }
        }
        self.partial.extend_from_slice(rest);
        items
    }

    /// Takes one whole line.
    fn line(&mut self, line: &str) -> Option<SseItem> {
        if line.is_empty() {
            return self.dispatch();
        }
        if let Some(comment) = line.strip_prefix(':') {
            return Some(SseItem::Comment(
                comment.strip_prefix(' ').unwrap_or(comment).to_owned(),
            ));
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            "event" => self.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => self.last_id = Some(value.to_owned()),
            _ => {}
        }
        None
    }

    /// A blank line: the event gathered so far, if it has data.
    fn dispatch(&mut self) -> Option<SseItem> {
        let event = self.event.take();
        let data = self.data.take()?;
        Some(SseItem::Event(SseEvent {
            id: self.last_id.clone(),
            event: event.unwrap_or_else(|| "message".to_owned()),
            data,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: Option<&str>, name: &str, data: &str) -> SseItem {
        SseItem::Event(SseEvent {
            id: id.map(str::to_owned),
            event: name.to_owned(),
            data: data.to_owned(),
        })
    }

    #[test]
    fn events_comments_and_ids_in_any_chunking() {
        let text = ": hi\n\nid: a-1\nevent: change\ndata: {\"x\":1}\n\n\
                    data: one\r\ndata:two\r\n\r\nretry: 5\nid: a-2\nevent: resync\ndata\n\n";
        let expected = vec![
            SseItem::Comment("hi".into()),
            event(Some("a-1"), "change", "{\"x\":1}"),
            event(Some("a-1"), "message", "one\ntwo"),
            event(Some("a-2"), "resync", ""),
        ];
        for size in [1, 2, 3, 7, text.len()] {
            let mut parser = SseParser::new();
            let items: Vec<_> = text
                .as_bytes()
                .chunks(size)
                .flat_map(|chunk| parser.push(chunk))
                .collect();
            assert_eq!(items, expected, "chunks of {size}");
        }
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_and_its_name_does_not_carry_over() {
        let mut parser = SseParser::new();
        let items = parser.push(b"event: lonely\n\ndata: x\n\n");
        assert_eq!(items, vec![event(None, "message", "x")]);
    }
}
