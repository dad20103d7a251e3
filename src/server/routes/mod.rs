//! The routes of the API: the spec's, plus our extensions (folders, the legacy object list and
//! `me`). Trailing slashes do not matter; unknown routes and wrong methods answer in the error
//! contract.

mod docs;
mod folders;
mod image;
mod objects;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Router, middleware};

use super::error::{method_not_allowed, not_found};
use super::state::AppState;

/// The whole application: routes, body limit, fallbacks and trailing-slash folding.
pub fn app(state: AppState, max_body: usize) -> Router {
    let api = Router::new()
        .route("/api/v1/me", get(folders::me))
        .route("/api/v1/folder/list", get(folders::list))
        .route("/api/v1/folder/create", post(folders::create))
        .route("/api/v1/folder/change-title", post(folders::change_title))
        .route("/api/v1/folder/delete", post(folders::delete))
        .route("/api/v1/doc", get(docs::list))
        .route("/api/v1/doc/create", post(docs::create))
        .route("/api/v1/doc/empty", post(docs::empty))
        .route("/api/v1/doc/add-collaborator", post(docs::add_collaborator))
        .route("/api/v1/doc/change-title", post(docs::change_title))
        .route("/api/v1/doc/clone", post(docs::clone))
        .route("/api/v1/doc/delete", post(docs::delete))
        .route("/api/v1/doc/set-content/{doc_id}", post(docs::set_content))
        .route(
            "/api/v1/doc/{doc_id}",
            get(docs::details).post(docs::bulk_update),
        )
        .route(
            "/api/v1/doc/{doc_id}/obj",
            get(objects::all).post(objects::create),
        )
        .route("/api/v1/doc/{doc_id}/obj/all", get(objects::all))
        .route(
            "/api/v1/doc/{doc_id}/obj/where",
            post(objects::update_where),
        )
        .route(
            "/api/v1/doc/{doc_id}/obj/where/{*selector}",
            get(objects::read_where),
        )
        .route(
            "/api/v1/doc/{doc_id}/obj/{obj_id}",
            get(objects::get_one).post(objects::update),
        )
        .route(
            "/api/v1/doc/{doc_id}/obj/{obj_id}/delete",
            post(objects::delete),
        )
        .route(
            "/api/v1/image/from-document/{doc_id}",
            get(image::from_document),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state);
    // Routing happens inside `api`, after the outer layer has folded the trailing slash.
    Router::new()
        .fallback_service(api)
        .layer(middleware::map_request(trim_trailing_slash))
}

/// Drops trailing slashes from the path (`/api/v1/doc/` is `/api/v1/doc`), keeping the query.
async fn trim_trailing_slash(mut req: Request) -> Request {
    let path = req.uri().path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        let trimmed = if trimmed.is_empty() { "/" } else { trimmed };
        let rebuilt = match req.uri().query() {
            Some(query) => format!("{trimmed}?{query}"),
            None => trimmed.to_owned(),
        };
        let mut parts = req.uri().clone().into_parts();
        if let Ok(path_and_query) = rebuilt.parse() {
            parts.path_and_query = Some(path_and_query);
            if let Ok(uri) = Uri::from_parts(parts) {
                *req.uri_mut() = uri;
            }
        }
    }
    req
}

/// The answer to a write that creates nothing: `{ success: true }`.
const OK: axum::Json<crate::model::Success> = axum::Json(crate::model::Success { success: true });

/// An answer whose body is JSON text already written.
fn json_text(text: String) -> Response {
    let mut response = text.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
