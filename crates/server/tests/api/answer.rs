//! An answer with its headers, and a request that reads one, for the server's suite and the
//! binary's (`tests/serve` includes this file).

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// An answer: status, headers and JSON body (null when there is none, as for a 304).
pub(crate) struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }

    /// The `ETag`, which must be there.
    pub fn etag(&self) -> String {
        self.header("etag").expect("an ETag").to_owned()
    }

    /// `X-Document-Version`, which must be there.
    pub fn doc_version(&self) -> u64 {
        let text = self
            .header("x-document-version")
            .expect("X-Document-Version");
        text.parse().unwrap()
    }
}

/// Sends a request to `base` with the key, extra headers and an optional JSON body.
pub(crate) async fn request(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Answer {
    let mut req = http
        .request(method, format!("{base}{path}"))
        .bearer_auth(key);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    let resp = req.send().await.expect("request sent");
    let status = resp.status();
    let headers = resp.headers().clone();
    let text = resp.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    };
    Answer {
        status,
        headers,
        body,
    }
}
