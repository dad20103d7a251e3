//! Content as raw JSON bytes: set-content from bytes or from a reader, and obj/all read piece
//! by piece, against the real local server.

use crate::Local;
use bytes::Bytes;
use diagtui_client::{AnswerBody, ApiError, JsonBody};
use serde_json::{Value, json};

/// The whole body, from its pieces.
async fn read_all(mut answer: AnswerBody) -> Vec<u8> {
    let mut all = Vec::new();
    while let Some(piece) = answer.chunk().await.unwrap() {
        all.extend_from_slice(&piece);
    }
    all
}

fn content() -> Value {
    json!({
        "1aaaaaaaa-aaaaaaaa": {"type": "label", "data": {"text": "raw é", "meta": {"k": "v"}}},
        "1bbbbbbbb-bbbbbbbb": {"type": "component", "data": {"componentId": "generic.server"}}
    })
}

#[tokio::test]
async fn content_goes_and_comes_back_as_bytes() {
    let f = Local::start().await;
    let c = &f.client;
    let doc = c.create_doc("Raw", None).await.unwrap();
    let text = serde_json::to_string_pretty(&content()).unwrap();

    c.set_content_body(&doc, JsonBody::from_bytes(Bytes::from(text.clone())))
        .await
        .unwrap();
    let answer = read_all(c.content_body(&doc).await.unwrap()).await;
    assert_eq!(serde_json::from_slice::<Value>(&answer).unwrap(), content());
    assert_eq!(
        c.content(&doc).await.unwrap().len(),
        2,
        "the typed route reads it too"
    );

    c.empty_doc(&doc).await.unwrap();
    let reader = std::io::Cursor::new(text.clone().into_bytes());
    c.set_content_body(&doc, JsonBody::from_reader(reader, text.len() as u64))
        .await
        .unwrap();
    let answer = read_all(c.content_body(&doc).await.unwrap()).await;
    assert_eq!(serde_json::from_slice::<Value>(&answer).unwrap(), content());
}

#[tokio::test]
async fn raw_content_errors_are_api_errors() {
    let f = Local::start().await;
    let c = &f.client;
    let err = c.content_body("no-such-doc").await.unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
    let err = c
        .set_content_body(
            "no-such-doc",
            JsonBody::from_bytes(Bytes::from_static(b"{}")),
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");

    let doc = c.create_doc("Lengths", None).await.unwrap();
    for wrong_length in [10, 1] {
        let reader = std::io::Cursor::new(b"{}".to_vec());
        let err = c
            .set_content_body(&doc, JsonBody::from_reader(reader, wrong_length))
            .await
            .unwrap_err();
        assert!(
            matches!(err, ApiError::Request { .. }),
            "{wrong_length}: {err}"
        );
        assert!(err.to_string().contains("were announced"), "{err}");
    }
    assert!(c.content(&doc).await.unwrap().is_empty());
}
