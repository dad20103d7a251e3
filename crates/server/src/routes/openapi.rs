//! `GET /api/v1/openapi.json`: the API described as OpenAPI 3.1, generated from the handlers'
//! own types and annotations. Operations and properties that are ours rather than the spec's
//! carry `x-diagtui-extension: true`.

use std::sync::OnceLock;

use axum::response::Response;
use bytes::Bytes;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, PartialSchema, ToSchema};

use super::json_bytes;
use diagtui_model::events::{AccountEvent, DocChangeEvent, ResyncEvent};
use diagtui_model::{ErrorBody, ErrorCode, UserRef};
use diagtui_store::rules::MAX_SELECTOR_CONDITIONS;

/// The error answers any route may give: the HTTP layer's own rejections (400, 414, 431), a
/// path that names another route's (405), and the route's own.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum Errors {
    /// 400: a malformed request, body, property, selector or path.
    #[response(
        status = 400,
        description = "BAD_REQUEST, INVALID_JSON, VALIDATION_ERROR or INVALID_SELECTOR"
    )]
    BadRequest(ErrorBody),
    /// 401: no key, or an unknown one.
    #[response(
        status = 401,
        description = "UNAUTHORIZED: no API key, or an unknown one"
    )]
    Unauthorized(ErrorBody),
    /// 404: no such route, document, object, account or folder.
    #[response(
        status = 404,
        description = "NOT_FOUND, DOC_NOT_FOUND, OBJ_NOT_FOUND, USER_NOT_FOUND or FOLDER_NOT_FOUND"
    )]
    NotFound(ErrorBody),
    /// 405: the path is another route's.
    #[response(status = 405, description = "METHOD_NOT_ALLOWED")]
    MethodNotAllowed(ErrorBody),
    /// 414: the URI is too long.
    #[response(status = 414, description = "URI_TOO_LONG")]
    UriTooLong(ErrorBody),
    /// 431: the headers are too large.
    #[response(status = 431, description = "HEADERS_TOO_LARGE")]
    HeadersTooLarge(ErrorBody),
    /// 500: the server failed.
    #[response(
        status = 500,
        description = "INTERNAL_ERROR; the details are in the server's log"
    )]
    Internal(ErrorBody),
    /// 503: the database cannot be reached.
    #[response(
        status = 503,
        description = "UNAVAILABLE: the database cannot be reached right now (a PostgreSQL server restarting or away); try again"
    )]
    Unavailable(ErrorBody),
}

/// The error answers of reading a JSON body, besides [`Errors`].
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum BodyErrors {
    /// 408: the body did not arrive in time.
    #[response(
        status = 408,
        description = "REQUEST_TIMEOUT: the body did not arrive in time"
    )]
    RequestTimeout(ErrorBody),
    /// 413: the body is over the limit.
    #[response(
        status = 413,
        description = "PAYLOAD_TOO_LARGE: the body is over --max-body"
    )]
    PayloadTooLarge(ErrorBody),
    /// 415: the body is not sent as JSON.
    #[response(status = 415, description = "UNSUPPORTED_MEDIA_TYPE")]
    UnsupportedMediaType(ErrorBody),
}

/// A selector: `[key, operator, value]`, or a list of them that must all match.
pub struct SelectorSchema;

impl PartialSchema for SelectorSchema {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type,
        };
        let condition = || {
            ArrayBuilder::new()
                .prefix_items([
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .min_length(Some(1))
                        .build(),
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some(["eq", "gt", "lt", "co", "no"]))
                        .build(),
                    ObjectBuilder::new()
                        .schema_type(SchemaType::Array(vec![
                            Type::String,
                            Type::Number,
                            Type::Boolean,
                        ]))
                        .build(),
                ])
                .min_items(Some(3))
                .max_items(Some(3))
        };
        OneOfBuilder::new()
            .item(condition().build())
            .item(
                ArrayBuilder::new()
                    .items(condition())
                    .min_items(Some(1))
                    .max_items(Some(MAX_SELECTOR_CONDITIONS))
                    .build(),
            )
            .description(Some(
                "[key, operator, value], or a list of them that must all match; matched \
                 against each object's meta",
            ))
            .into()
    }
}

impl ToSchema for SelectorSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "Selector".into()
    }
}

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
        super::events::doc,
        super::events::account,
        document,
    ),
    components(schemas(
        UserRef, SelectorSchema, ErrorBody, ErrorCode, DocChangeEvent, AccountEvent, ResyncEvent
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
