//! The mark of a long-lived answer: a route that streams (the change events) puts it in its
//! answer's extensions, and the HTTP layer then lifts its timeouts for that connection.

/// Marks an answer (in its extensions) as a long-lived stream.
#[derive(Debug, Clone, Copy)]
pub struct Streaming;
