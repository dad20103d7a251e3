//! The shapes the API description names that are not the handlers' own types: the error answers
//! every route may give, and the selector. The routes cite them in their annotations; the
//! description ([`openapi`](super::openapi)) lists them.

use utoipa::{IntoResponses, PartialSchema, ToSchema};

use diagtui_model::ErrorBody;
use diagtui_model::versions::PreconditionFailedBody;
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
        description = "NOT_FOUND, DOC_NOT_FOUND, OBJ_NOT_FOUND, USER_NOT_FOUND, FOLDER_NOT_FOUND, VERSION_NOT_FOUND or VERSION_PRUNED"
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

/// The answer of a write whose condition failed (our extension).
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum PreconditionFailed {
    /// 412: a version given no longer holds; nothing was written.
    #[response(
        status = 412,
        description = "PRECONDITION_FAILED: a version given (If-Match, ifVersions) no longer holds; nothing was written (our extension)",
        headers(("X-Document-Version" = u64, description = "The document's current version"))
    )]
    Failed(PreconditionFailedBody),
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
