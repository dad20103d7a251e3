//! The JSON shapes of the API's requests and responses, shared by the server and the client.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::selector::Selector;

/// An object as the API shows it: `{ type, data }`. The type is kept as text so that content
/// stored through set-content (which is not validated) reads back exactly as it was given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiagramObject {
    /// The object type's wire name (`component`, `label`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The type-specific properties.
    pub data: Map<String, Value>,
}

/// A document's content: object id to object, in id (creation) order.
pub type Content = BTreeMap<String, DiagramObject>;

/// Properties to merge into an object: property name to value.
pub type Props = Map<String, Value>;

/// One entry of the document list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocSummary {
    /// The document id (a UUID).
    pub id: String,
    /// The title.
    pub title: String,
}

/// An account as a document shows its owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserRef {
    /// The account id.
    pub id: String,
    /// The account's e-mail address.
    pub email: String,
}

/// A folder as a document shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FolderRef {
    /// The folder id (a UUID).
    pub id: String,
    /// The folder title.
    pub title: String,
}

/// A document's details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocDetails {
    /// The document id.
    pub id: String,
    /// The title.
    pub title: String,
    /// When it was created (ISO 8601 UTC, milliseconds).
    pub created: String,
    /// When it last changed (ISO 8601 UTC, milliseconds).
    pub last_change: String,
    /// The owning account.
    pub user: UserRef,
    /// The folder it sits in.
    pub folder: FolderRef,
    /// How many objects it holds. An extension of ours: absent from servers that lack it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(extensions(("x-diagtui-extension" = json!(true)))))]
    pub object_count: Option<usize>,
}

/// One folder of the folder list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FolderEntry {
    /// The folder title.
    pub title: String,
    /// Its documents: id to title.
    pub docs: BTreeMap<String, String>,
}

/// The folder list: folder id to folder.
pub type FolderList = BTreeMap<String, FolderEntry>;

/// `POST …/obj/`: create an object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateObjectRequest {
    /// The object type's wire name.
    #[serde(rename = "type")]
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^(component|line-group|label|icon|area|widget|image)$")
    )]
    pub kind: String,
    /// The properties; missing ones take their defaults.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub props: Props,
}

/// `POST …/obj/{objId}`: update one object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateObjectRequest {
    /// The properties to merge.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub props: Props,
}

/// `POST /api/v1/doc/{docId}`: update many objects, each with its own properties.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkUpdateRequest {
    /// Object id to the properties to merge into it.
    #[cfg_attr(feature = "openapi", schema(value_type = BTreeMap<String, Object>))]
    pub objects: BTreeMap<String, Props>,
    /// Our extension: object id (each one of `objects`) to the version it must be at, else
    /// 412 and nothing is written.
    #[serde(
        rename = "ifVersions",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub if_versions: Option<BTreeMap<String, super::versions::Version>>,
}

/// `POST …/obj/where`: update every object matching a selector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectorUpdateRequest {
    /// Which objects.
    pub selector: Selector,
    /// The properties to merge into each.
    pub props: Props,
    /// Our extension: exactly the objects previewed, each at its version; the update goes
    /// through only if the selector matches exactly those now, else 412.
    #[serde(
        rename = "ifVersions",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub if_versions: Option<BTreeMap<String, super::versions::Version>>,
}

/// `POST /api/v1/doc/create`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreateDocRequest {
    /// The new document's title.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 1000, pattern = "\\S")
    )]
    pub title: String,
    /// The folder to put it in; the account's first folder when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder_id: Option<String>,
}

/// A request naming one document (`empty`, `delete`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocIdRequest {
    /// The document id.
    pub doc_id: String,
}

/// A request naming a document and a title (`change-title`, `clone`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocTitleRequest {
    /// The document id.
    pub doc_id: String,
    /// The (new) title.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 1000, pattern = "\\S")
    )]
    pub title: String,
}

/// `POST /api/v1/doc/add-collaborator`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AddCollaboratorRequest {
    /// The document id.
    pub doc_id: String,
    /// The e-mail address of the account to share with.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 3, max_length = 254, pattern = "^[^@\\s]+@[^@\\s]+$")
    )]
    pub email: String,
}

/// `POST /api/v1/folder/create`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateFolderRequest {
    /// The folder title.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 1000, pattern = "\\S")
    )]
    pub title: String,
}

/// A request naming one folder (`folder/delete`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FolderIdRequest {
    /// The folder id.
    pub folder_id: String,
}

/// `POST /api/v1/doc/move` (extension): a document into another of the account's folders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MoveDocRequest {
    /// The document id (one the account owns).
    pub doc_id: String,
    /// The folder id (one of the account's own folders).
    pub folder_id: String,
}

/// `POST /api/v1/folder/change-title`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FolderTitleRequest {
    /// The folder id.
    pub folder_id: String,
    /// The new title.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 1000, pattern = "\\S")
    )]
    pub title: String,
}

/// The answer to a write that creates nothing: `{ success: true }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Success {
    /// Always true in a success answer.
    pub success: bool,
}

/// The answer to object create.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectCreated {
    /// Always true.
    pub success: bool,
    /// The new object's id.
    pub obj_id: String,
}

/// The answer to document create and clone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocCreated {
    /// Always true.
    pub success: bool,
    /// The new document's id.
    pub doc_id: String,
}

/// The answer to folder create.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FolderCreated {
    /// Always true.
    pub success: bool,
    /// The new folder's id.
    pub folder_id: String,
}

/// The answer to the selector update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SelectorUpdated {
    /// Always true.
    pub success: bool,
    /// How many objects matched and were updated.
    pub updated_object_count: usize,
    /// Their ids.
    pub updated_object_ids: Vec<String>,
}

/// The body of every error answer: `{ success: false, error: CODE, message }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// Always false.
    pub success: bool,
    /// A stable code such as `VALIDATION_ERROR`.
    pub error: super::ErrorCode,
    /// What was wrong, for people.
    pub message: String,
}

/// The answer to create-diagram (`POST /api/v1/create-diagram/{docId}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiagramCreated {
    /// Always true.
    pub success: bool,
    /// How many objects were stored (components, areas, labels and line groups). An extension
    /// of ours.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(extensions(("x-diagtui-extension" = json!(true)))))]
    pub object_count: usize,
    /// What of the input could not be drawn as written, and what was done instead (empty when
    /// everything was). An extension of ours.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(extensions(("x-diagtui-extension" = json!(true)))))]
    pub notes: Vec<DiagramNote>,
}

/// Something in a create-diagram input that could not be drawn as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiagramNote {
    /// The input's line (1-based), when the note concerns one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What was left out or changed.
    pub text: String,
}
