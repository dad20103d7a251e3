//! `GET /api/v1/openapi.json`: the API described as OpenAPI 3.1, generated from the handlers'
//! own types and annotations. Operations and properties that are ours rather than the spec's
//! carry `x-diagtui-extension: true`.

use std::sync::OnceLock;

use axum::response::Response;
use bytes::Bytes;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::json_bytes;
use super::schemas::{Errors, SelectorSchema};
use diagtui_model::events::{AccountEvent, DocChangeEvent, ResyncEvent};
use diagtui_model::versions::{PreconditionFailedBody, Version, VersionedObject};
use diagtui_model::{ErrorBody, ErrorCode, UserRef};

/// Adds the two ways of sending the key: `Authorization: Bearer KEY` and `?key=KEY`.
struct Keys;

impl Modify for Keys {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        components.add_security_scheme(
            "key",
            SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::new("key"))),
        );
    }
}

/// The API's description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Diagram Document REST API (diagtui's local server)",
        description = "The Diagram Document REST API as diagtui serves it. Operations and \
            properties marked x-diagtui-extension are ours, not the spec's. Every error answers \
            {\"success\": false, \"error\": CODE, \"message\"}."
    ),
    paths(
        super::docs::list,
        super::docs::details,
        super::docs::bulk_update,
        super::docs::set_content,
        super::docs::create,
        super::docs::empty,
        super::docs::add_collaborator,
        super::docs::change_title,
        super::docs::clone,
        super::docs::delete,
        super::docs::move_doc,
        super::objects::all,
        super::objects::legacy_all,
        super::objects::get_one,
        super::objects::read_where,
        super::objects::create,
        super::objects::update,
        super::objects::update_where,
        super::objects::delete,
        super::folders::me,
        super::folders::list,
        super::folders::create,
        super::folders::change_title,
        super::folders::delete,
        super::image::from_document,
        super::create_diagram::create,
        super::create_diagram::image,
        super::history::list,
        super::history::one,
        super::history::object,
        super::history::diff,
        super::history::restore,
        super::events::doc,
        super::events::account,
        super::embeds::create_static,
        super::embeds::delete_static,
        super::embeds::enable_live,
        super::embeds::rotate_live,
        super::embeds::disable_live,
        super::embeds::list,
        super::health::healthz,
        super::health::readyz,
        document,
    ),
    components(schemas(
        UserRef, SelectorSchema, ErrorBody, ErrorCode, DocChangeEvent, AccountEvent, ResyncEvent,
        PreconditionFailedBody, VersionedObject, Version
    )),
    modifiers(&Keys),
    security(("bearer" = []), ("key" = [])),
)]
struct ApiDoc;

/// The description as JSON, built once.
pub fn json() -> Bytes {
    static TEXT: OnceLock<Bytes> = OnceLock::new();
    TEXT.get_or_init(|| {
        Bytes::from(
            ApiDoc::openapi()
                .to_json()
                .expect("the OpenAPI description serialises"),
        )
    })
    .clone()
}

/// `GET /api/v1/openapi.json`: this description. Needs no key.
#[utoipa::path(get, operation_id = "getOpenApi", path = "/api/v1/openapi.json", tag = "meta", security(()),
    extensions(("x-diagtui-extension" = json!(true))),
    responses((status = 200, description = "The OpenAPI 3.1 description", body = Object), Errors))]
pub async fn document() -> Response {
    json_bytes(json())
}
