//! The embed pages' HTML and headers: a page frames anywhere (`frame-ancestors *`) but runs no
//! script but ours: a static page none, a live page only the served script its nonce allows.
//! Each page gets a fresh nonce for its style sheet and script.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use diagtui_model::ids::random_bytes;
use diagtui_scene::render::{FONT_FAMILY, escape};

/// The page's style: the picture scaled to the frame, centred on white. (The page adds the
/// picture's font, with sans-serif after it for a browser that lacks it.)
const STYLE: &str = "html,body{margin:0;height:100%;background:#fff;font-family:sans-serif}\
    #diagram{width:100%;height:100%;display:flex;align-items:center;justify-content:center}\
    #diagram svg{max-width:100%;max-height:100%;width:auto;height:auto}\
    #note{position:fixed;left:0;right:0;bottom:0;margin:0;padding:.5em;background:#fffbe6;\
    color:#333;text-align:center}";

/// A page's nonce: 16 random bytes as hex.
fn nonce() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a page holds besides its picture.
pub enum Kind<'a> {
    /// A static embed, or a page that only says something: no script.
    Still,
    /// A live embed: the script, and where it reads the picture and the events.
    Live {
        /// The picture's URL.
        picture: &'a str,
        /// The event stream's URL.
        events: &'a str,
    },
}

/// A page of `status` titled `title` showing `body` (HTML: an SVG picture, or a message).
pub fn page(status: StatusCode, title: &str, body: &str, kind: Kind<'_>) -> Response {
    let nonce = nonce();
    let (attributes, script, script_src, connect_src) = match kind {
        Kind::Still => (String::new(), String::new(), "'none'".to_owned(), "'none'"),
        Kind::Live { picture, events } => (
            format!(
                " data-picture=\"{}\" data-events=\"{}\" data-drawn=\"0\"",
                escape(picture),
                escape(events)
            ),
            format!("<script src=\"embed-live.js\" nonce=\"{nonce}\"></script>"),
            format!("'nonce-{nonce}'"),
            "'self'",
        ),
    };
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title}</title><style nonce=\"{nonce}\">{STYLE}\
         #diagram svg{{font-family:\"{FONT_FAMILY}\",sans-serif}}</style></head>\
         <body><div id=\"diagram\"{attributes}>{body}</div>\
         <p id=\"note\" hidden></p>{script}</body></html>\n",
        title = escape(title),
    );
    let policy = format!(
        "default-src 'none'; style-src 'nonce-{nonce}'; img-src data:; \
         script-src {script_src}; connect-src {connect_src}; frame-ancestors *; \
         base-uri 'none'; form-action 'none'"
    );
    with_headers(
        (status, html).into_response(),
        "text/html; charset=utf-8",
        &policy,
    )
}

/// A message page (not found, too many viewers, a bad parameter).
pub fn message(status: StatusCode, text: &str) -> Response {
    let body = format!("<p>{}</p>", escape(text));
    page(status, text, &body, Kind::Still)
}

/// An answer with the headers every embed answer carries: its type and policy, no caching
/// (a live URL holds a key; a deleted embed must stop showing), no referrer (the key stays in
/// the page), no type sniffing, and loading by other sites allowed.
pub fn with_headers(mut response: Response, content_type: &'static str, policy: &str) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(policy) = HeaderValue::from_str(policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("cross-origin"),
    );
    response
}
