//! What lets web pages and tools use the server: CORS for the origins given, and the OpenAPI
//! description of every route.

use diagtui_server::{Cors, ServerOptions};
use reqwest::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_REQUEST_HEADERS, ACCESS_CONTROL_REQUEST_METHOD, ORIGIN,
};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::common::Harness;

const APP: &str = "https://app.example.com";

/// A preflight for a POST with a key and JSON, from `origin`.
async fn preflight(h: &Harness, origin: &str) -> reqwest::Response {
    h.http
        .request(
            Method::OPTIONS,
            format!("{}/api/v1/doc/create", h.server.url()),
        )
        .header(ORIGIN, origin)
        .header(ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .header(ACCESS_CONTROL_REQUEST_HEADERS, "authorization,content-type")
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn cors_is_off_unless_an_origin_is_given() {
    let h = Harness::new().await;
    let answer = preflight(&h, APP).await;
    assert!(answer.headers().get(ACCESS_CONTROL_ALLOW_ORIGIN).is_none());
    let list = h
        .http
        .get(format!("{}/api/v1/doc", h.server.url()))
        .bearer_auth(h.key())
        .header(ORIGIN, APP)
        .send()
        .await
        .unwrap();
    assert!(list.headers().get(ACCESS_CONTROL_ALLOW_ORIGIN).is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_on_an_allowed_origin_may_call_the_api() {
    let h = Harness::with(ServerOptions {
        cors: Cors::Origins(vec![APP.parse().unwrap()]),
        ..ServerOptions::default()
    })
    .await;
    let answer = preflight(&h, APP).await;
    assert_eq!(answer.status(), StatusCode::OK);
    let header = |name| {
        answer
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    assert_eq!(header(ACCESS_CONTROL_ALLOW_ORIGIN), APP);
    assert!(header(ACCESS_CONTROL_ALLOW_METHODS).contains("post"));
    let allowed = header(ACCESS_CONTROL_ALLOW_HEADERS);
    assert!(allowed.contains("authorization") && allowed.contains("content-type"));

    for key in [Some(h.key()), None] {
        let mut request = h
            .http
            .get(format!("{}/api/v1/doc", h.server.url()))
            .header(ORIGIN, APP);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        let answer = request.send().await.unwrap();
        assert_eq!(
            answer.headers()[ACCESS_CONTROL_ALLOW_ORIGIN],
            APP,
            "errors too, so a page can read them ({})",
            answer.status()
        );
    }
    let other = preflight(&h, "https://elsewhere.example.com").await;
    assert!(other.headers().get(ACCESS_CONTROL_ALLOW_ORIGIN).is_none());

    let any = Harness::with(ServerOptions {
        cors: Cors::Any,
        ..ServerOptions::default()
    })
    .await;
    let answer = preflight(&any, "https://elsewhere.example.com").await;
    assert_eq!(answer.headers()[ACCESS_CONTROL_ALLOW_ORIGIN], "*");
}

/// Every route the server has: (method, OpenAPI path, an extension of ours).
const ROUTES: [(&str, &str, bool); 43] = [
    ("get", "/api/v1/doc", false),
    ("get", "/api/v1/doc/{docId}", false),
    ("post", "/api/v1/doc/{docId}", false),
    ("post", "/api/v1/doc/set-content/{docId}", false),
    ("post", "/api/v1/doc/create", false),
    ("post", "/api/v1/doc/empty", false),
    ("post", "/api/v1/doc/add-collaborator", false),
    ("post", "/api/v1/doc/change-title", false),
    ("post", "/api/v1/doc/clone", false),
    ("post", "/api/v1/doc/delete", false),
    ("post", "/api/v1/doc/move", true),
    ("get", "/api/v1/doc/{docId}/obj/all", false),
    ("get", "/api/v1/doc/{docId}/obj", true),
    ("post", "/api/v1/doc/{docId}/obj", false),
    ("get", "/api/v1/doc/{docId}/obj/{objId}", false),
    ("post", "/api/v1/doc/{docId}/obj/{objId}", false),
    ("get", "/api/v1/doc/{docId}/obj/where/{selector}", false),
    ("post", "/api/v1/doc/{docId}/obj/where", false),
    ("post", "/api/v1/doc/{docId}/obj/{objId}/delete", false),
    ("get", "/api/v1/me", true),
    ("get", "/api/v1/folder/list", true),
    ("post", "/api/v1/folder/create", true),
    ("post", "/api/v1/folder/change-title", true),
    ("post", "/api/v1/folder/delete", true),
    ("get", "/api/v1/image/from-document/{docId}", false),
    ("post", "/api/v1/create-diagram/{docId}", false),
    ("post", "/api/v1/image/create-from-diagram", false),
    ("get", "/api/v1/openapi.json", true),
    ("get", "/api/v1/doc/{docId}/events", true),
    ("get", "/api/v1/events", true),
    ("get", "/api/v1/doc/{docId}/history", true),
    ("get", "/api/v1/doc/{docId}/history/{version}", true),
    ("get", "/api/v1/doc/{docId}/obj/{objId}/history", true),
    ("get", "/api/v1/doc/{docId}/diff", true),
    ("post", "/api/v1/doc/{docId}/restore", true),
    ("post", "/api/v1/embed/create-static", false),
    ("post", "/api/v1/embed/delete-static", false),
    ("post", "/api/v1/embed/enable-live", false),
    ("post", "/api/v1/embed/rotate-live", true),
    ("post", "/api/v1/embed/disable-live", true),
    ("get", "/api/v1/embed/list/{docId}", true),
    ("get", "/healthz", true),
    ("get", "/readyz", true),
];

#[tokio::test(flavor = "multi_thread")]
async fn the_server_describes_every_route_as_openapi_3_1() {
    let h = Harness::new().await;
    let answer = h
        .http
        .get(format!("{}/api/v1/openapi.json", h.server.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "no key needed");
    assert_eq!(answer.headers()["content-type"], "application/json");
    let doc: Value = answer.json().await.unwrap();
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    let paths = doc["paths"].as_object().unwrap();
    let mut ids: Vec<&str> = paths
        .values()
        .flat_map(|p| p.as_object().unwrap().values())
        .map(|operation| operation["operationId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), ROUTES.len(), "no more operations than routes");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), ROUTES.len(), "operation ids are unique");
    for (method, path, extension) in ROUTES {
        let operation = &paths[path][method];
        assert!(operation.is_object(), "{method} {path} is described");
        assert_eq!(
            operation["x-diagtui-extension"] == true,
            extension,
            "{method} {path} marked as ours or the spec's"
        );
        let responses = operation["responses"].as_object().unwrap();
        assert!(responses.contains_key("200"), "{method} {path}");
        for status in ["400", "401", "404", "500"] {
            let schema = &responses[status]["content"]["application/json"]["schema"]["$ref"];
            assert_eq!(
                schema, "#/components/schemas/ErrorBody",
                "{method} {path} {status}"
            );
        }
    }
    // The documented caps are the enforced ones.
    use diagtui_store::rules::{MAX_EMAIL_CHARS, MAX_OBJECT_ID_CHARS, MAX_TITLE_CHARS};
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["CreateDocRequest"]["properties"]["title"]["maxLength"],
        MAX_TITLE_CHARS
    );
    assert_eq!(
        schemas["FolderTitleRequest"]["properties"]["title"]["maxLength"],
        MAX_TITLE_CHARS
    );
    let email = &schemas["AddCollaboratorRequest"]["properties"]["email"]["maxLength"];
    assert_eq!(*email, MAX_EMAIL_CHARS);
    let obj_id = paths["/api/v1/doc/{docId}/obj/{objId}"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "objId")
        .unwrap();
    assert_eq!(obj_id["schema"]["maxLength"], MAX_OBJECT_ID_CHARS);
    let selector = &schemas["Selector"]["oneOf"][1]["maxItems"];
    assert_eq!(*selector, diagtui_store::rules::MAX_SELECTOR_CONDITIONS);
    let details = &doc["components"]["schemas"]["DocDetails"]["properties"];
    assert_eq!(details["objectCount"]["x-diagtui-extension"], true);
    let codes = doc["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .unwrap();
    for code in ["DOC_NOT_FOUND", "PAYLOAD_TOO_LARGE", "HEADERS_TOO_LARGE"] {
        assert!(codes.iter().any(|c| c == code), "{code}");
    }
    let schemes = doc["components"]["securitySchemes"].as_object().unwrap();
    assert!(schemes.contains_key("bearer") && schemes.contains_key("key"));
}
