//! The routes of the API: the spec's, plus our extensions (folders, the legacy object list, `me`,
//! the change event streams, embeds and their pages, the OpenAPI description, `healthz` and
//! `readyz`). Trailing slashes do not matter; unknown routes and wrong
//! methods answer in the error contract. Every request gets an id ([`request_id`]), is logged
//! (see [`trace`]) and, when origins are configured, answered with CORS headers.

mod create_diagram;
mod docs;
mod embed_pages;
mod embeds;
mod events;
mod folders;
pub(crate) mod health;
mod history;
mod image;
pub(crate) mod listener;
mod objects;
pub(crate) mod openapi;
mod request_id;
mod schemas;
mod trace;
mod versions;

use std::task::{Context, Poll};

use axum::Router;
use axum::http::{HeaderValue, Method, Request, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use bytes::Bytes;
use tower::util::Either;
use tower_http::cors::{AllowOrigin, Cors as CorsService, CorsLayer};

use super::error::{method_not_allowed, not_found};
use super::metrics::Count;
use super::state::AppState;

/// Who may call the API from a web page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Cors {
    /// No one: no CORS headers (the default).
    #[default]
    Off,
    /// Any origin (`--cors-origin '*'`).
    Any,
    /// These origins.
    Origins(Vec<HeaderValue>),
}

/// The application as a service: routes behind trailing-slash folding, behind CORS when it is on.
pub type App = Either<CorsService<TrimSlash<Count<Router>>>, TrimSlash<Count<Router>>>;

/// The whole application: routes (the event streams only when `events`), fallbacks, request
/// counting (when the metrics are on), request logging (when `info` is enabled at start), the
/// request id, CORS and trailing-slash folding.
pub fn app(state: AppState, cors: &Cors, events: bool) -> App {
    let routes = every_route(events);
    let counting = state
        .metrics
        .as_ref()
        .map(|metrics| metrics.counting(&routes.templates));
    let api = routes
        .router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let api = if trace::enabled() {
        api.layer(trace::layer())
    } else {
        api
    };
    // Outside the log line's span, which reads the id.
    let api = api.layer(axum::middleware::from_fn(request_id::request_id));
    // Counted outside the router, once, by the template the path matches.
    let counted = Count::new(api.with_state(state), counting);
    // Routing happens inside, after the slash is folded and CORS preflights are answered.
    let routed = TrimSlash(counted);
    match cors_layer(cors) {
        Some(layer) => Either::Left(tower::Layer::layer(&layer, routed)),
        None => Either::Right(routed),
    }
}

/// Every route, the event streams only when `events`.
fn every_route(events: bool) -> Routes {
    let routes = pictures_and_pages(documents(Routes::default()));
    if events {
        routes
            .route("/api/v1/doc/{doc_id}/events", get(events::doc))
            .route("/app/embed-events", get(embed_pages::live_events))
            .route("/api/v1/events", get(events::account))
    } else {
        routes
    }
}

/// The routes of folders, documents, objects and their history (and the API description).
fn documents(routes: Routes) -> Routes {
    routes
        .route("/api/v1/openapi.json", get(openapi::document))
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
        .route("/api/v1/doc/move", post(docs::move_doc))
        .route("/api/v1/doc/set-content/{doc_id}", post(docs::set_content))
        .route(
            "/api/v1/doc/{doc_id}",
            get(docs::details).post(docs::bulk_update),
        )
        .route(
            "/api/v1/doc/{doc_id}/obj",
            get(objects::legacy_all).post(objects::create),
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
        .route("/api/v1/doc/{doc_id}/history", get(history::list))
        .route("/api/v1/doc/{doc_id}/history/{version}", get(history::one))
        .route("/api/v1/doc/{doc_id}/diff", get(history::diff))
        .route("/api/v1/doc/{doc_id}/restore", post(history::restore))
        .route(
            "/api/v1/doc/{doc_id}/obj/{obj_id}/history",
            get(history::object),
        )
}

/// The routes of pictures, create-diagram, embeds and their pages, and the health checks.
fn pictures_and_pages(routes: Routes) -> Routes {
    routes
        .route(
            "/api/v1/image/from-document/{doc_id}",
            get(image::from_document),
        )
        .route(
            "/api/v1/create-diagram/{doc_id}",
            post(create_diagram::create),
        )
        .route(
            "/api/v1/image/create-from-diagram",
            post(create_diagram::image),
        )
        .route("/api/v1/embed/create-static", post(embeds::create_static))
        .route("/api/v1/embed/delete-static", post(embeds::delete_static))
        .route("/api/v1/embed/enable-live", post(embeds::enable_live))
        .route("/api/v1/embed/rotate-live", post(embeds::rotate_live))
        .route("/api/v1/embed/disable-live", post(embeds::disable_live))
        .route("/api/v1/embed/list/{doc_id}", get(embeds::list))
        .route("/app/embed.html", get(embed_pages::show))
        .route("/app/embed.svg", get(embed_pages::live_picture))
        .route("/app/embed-live.js", get(embed_pages::script))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
}

/// The router being built, and the template of every route it is given: the route labels of
/// the request counting ([`crate::metrics`]).
#[derive(Default)]
struct Routes {
    router: Router<AppState>,
    templates: Vec<&'static str>,
}

impl Routes {
    /// Adds a route, as [`Router::route`] does, and keeps its template.
    fn route(mut self, template: &'static str, handler: MethodRouter<AppState>) -> Routes {
        self.router = self.router.route(template, handler);
        self.templates.push(template);
        self
    }
}

/// Folds trailing slashes before routing: `/api/v1/doc/` is `/api/v1/doc`.
#[derive(Clone)]
pub struct TrimSlash<S>(S);

impl<S, B> tower::Service<Request<B>> for TrimSlash<S>
where
    S: tower::Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> S::Future {
        trim_trailing_slash(&mut request);
        self.0.call(request)
    }
}

/// The CORS layer for the configured origins, if any.
fn cors_layer(cors: &Cors) -> Option<CorsLayer> {
    let origins = match cors {
        Cors::Off => return None,
        Cors::Any => AllowOrigin::any(),
        Cors::Origins(list) => AllowOrigin::list(list.iter().cloned()),
    };
    Some(
        CorsLayer::new()
            .allow_origin(origins)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
            .max_age(std::time::Duration::from_secs(3600)),
    )
}

/// Drops trailing slashes from the path (`/api/v1/doc/` is `/api/v1/doc`), keeping the query.
fn trim_trailing_slash<B>(req: &mut Request<B>) {
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
}

/// The answer to a write that creates nothing: `{ success: true }`.
const OK: axum::Json<diagtui_model::Success> = axum::Json(diagtui_model::Success { success: true });

/// An answer whose body is JSON already written.
fn json_bytes(body: Bytes) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::templates::Templates;

    #[test]
    fn every_route_is_counted_under_its_own_template() {
        let routes = every_route(true);
        let mut tree = Templates::default();
        for (route, template) in routes.templates.iter().enumerate() {
            tree.insert(template, route);
        }
        for (route, template) in routes.templates.iter().enumerate() {
            let path: Vec<&str> = template
                .split('/')
                .map(|segment| {
                    if segment.starts_with('{') {
                        "x1"
                    } else {
                        segment
                    }
                })
                .collect();
            assert_eq!(tree.route_of(&path.join("/")), Some(route), "{template}");
        }
    }
}
