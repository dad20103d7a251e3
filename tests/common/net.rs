//! Network helpers shared by the test binaries.

/// The URL of a loopback port that nothing listens on: bound, then closed at once.
pub fn closed_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}
