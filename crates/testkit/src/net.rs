//! Loopback ports for the tests.

/// A loopback port that nothing listens on: bound, then closed at once.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The URL of a loopback port that nothing listens on.
pub fn closed_url() -> String {
    format!("http://127.0.0.1:{}", free_port())
}
