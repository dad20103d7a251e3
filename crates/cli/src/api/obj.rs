//! `diagtui obj …`: the object commands.

use std::collections::BTreeMap;

use clap::Subcommand;

use super::confirm::Yes;
use super::input::{objects_arg, props_arg, selector_words};
use super::output::Output;
use super::{Failure, Session, json, merge, success};
use diagtui_model::versions::parse_version;
use diagtui_model::{ObjectCreated, ObjectType, Props};

/// Examples shown under `diagtui obj --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui obj where DOC status eq down
  diagtui obj create DOC label '{\"text\":\"web-01\",\"position\":{\"x\":2,\"y\":3}}'
  diagtui obj set-where DOC '[\"status\",\"eq\",\"down\"]' '{\"primaryColor\":\"#FF0000\"}'
  diagtui obj set-where DOC region eq eu-west-1 '{\"meta\":{\"owner\":\"ops\"}}' --merge

Selectors are JSON ('[\"status\",\"eq\",\"down\"]', or a list of them: all must match) or three
words KEY OP VALUE, where OP is eq, gt, lt, co or no and VALUE is read as JSON when it is a JSON
number, boolean or string (16, true, \"16\") and as plain text otherwise (down).
PROPS is JSON given as an argument, @FILE for a file, or - for stdin.
Flags go anywhere on the line. A value that starts with - (other than a number) goes after --,
after which nothing is read as a flag:
  diagtui obj where DOC -- name eq -web";

/// The object commands.
#[derive(Debug, Subcommand)]
pub enum ObjCommand {
    /// Print one object: {type, data, version} (version: our server's; absent from servers
    /// without versions).
    #[command(after_help = "Example:\n  diagtui obj get DOC 1chsmqmgt-q6lfvkevo")]
    Get {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
    },
    /// Print the objects whose metadata matches a selector: object id to {type, data}.
    #[command(
        after_help = "Examples:\n  diagtui obj where DOC status eq down\n  diagtui obj where DOC '[[\"port\",\"gt\",8000],[\"name\",\"co\",\"web\"]]'"
    )]
    Where {
        /// The document id.
        doc: String,
        /// One JSON selector, or three words: KEY OP VALUE.
        #[arg(
            value_name = "SELECTOR",
            required = true,
            num_args = 1..,
            allow_negative_numbers = true
        )]
        selector: Vec<String>,
    },
    /// Create an object; missing properties take their defaults. Prints {success, objId}.
    #[command(
        after_help = "Examples:\n  diagtui obj create DOC label '{\"text\":\"hello\"}'\n  diagtui obj create DOC component @web.json"
    )]
    Create {
        /// The document id.
        doc: String,
        /// The object type.
        #[arg(value_name = "TYPE", value_parser = object_type)]
        kind: ObjectType,
        /// The properties: JSON, @FILE or - for stdin (a component needs componentId).
        #[arg(value_name = "PROPS", value_parser = props_arg)]
        props: Option<Props>,
    },
    /// Merge properties into an object (non-recursively: a nested value is replaced whole).
    #[command(
        after_help = "Examples:\n  diagtui obj update DOC OBJ '{\"position\":{\"x\":4,\"y\":0}}'\n  diagtui obj update DOC OBJ '{\"text\":\"b\"}' --if-version 12"
    )]
    Update {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
        /// The properties: JSON, @FILE or - for stdin.
        #[arg(value_name = "PROPS", value_parser = props_arg)]
        props: Props,
        /// Write only while the object is at this version (as `obj get` prints it; our server's
        /// extension, sent as If-Match): otherwise nothing is written and it fails with HTTP 412.
        #[arg(long, value_name = "V", value_parser = version_arg)]
        if_version: Option<u64>,
    },
    /// Merge properties into many objects at once, each with its own.
    #[command(
        after_help = "Examples:\n  diagtui obj bulk DOC '{\"OBJ1\":{\"text\":\"5%\"},\"OBJ2\":{\"text\":\"7%\"}}'\n  diagtui obj bulk DOC '{\"OBJ1\":{\"position\":{\"x\":3}}}' --merge"
    )]
    Bulk {
        /// The document id.
        doc: String,
        /// Object id to properties: JSON, @FILE or - for stdin.
        #[arg(value_name = "OBJECTS", value_parser = objects_arg)]
        objects: BTreeMap<String, Props>,
        /// Merge nested values into each object's (read first) instead of replacing them whole.
        #[arg(long)]
        merge: bool,
    },
    /// Merge properties into every object a selector matches; prints the count and the ids.
    #[command(
        override_usage = "diagtui obj set-where [OPTIONS] <DOC> <SELECTOR>... <PROPS>",
        after_help = "Examples:\n  diagtui obj set-where DOC status eq down '{\"primaryColor\":\"#FF0000\"}'\n  diagtui obj set-where DOC status eq down '{\"meta\":{\"owner\":\"ops\"}}' --merge"
    )]
    SetWhere {
        /// The document id.
        doc: String,
        /// The selector (one JSON word, or three words KEY OP VALUE), then the properties (JSON,
        /// @FILE or -): both are needed.
        #[arg(
            value_name = "SELECTOR PROPS",
            required = true,
            num_args = 1..,
            allow_negative_numbers = true
        )]
        words: Vec<String>,
        /// Merge nested values into each match's (read first; one bulk update with each
        /// object's own values) instead of replacing them whole; counts the objects changed.
        #[arg(long)]
        merge: bool,
    },
    /// Delete an object (asks first; --yes when not on a terminal).
    #[command(after_help = "Example:\n  diagtui obj delete DOC OBJ --yes")]
    Delete {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
        /// Do it without asking.
        #[command(flatten)]
        yes: Yes,
    },
}

impl ObjCommand {
    /// Runs the command: one API call.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        Ok(match self {
            ObjCommand::Get { doc, obj } => json(
                session
                    .client()
                    .await?
                    .get_object_versioned(&doc, &obj)
                    .await?,
            ),
            ObjCommand::Where { doc, selector } => {
                let selector = selector_words(&selector).map_err(Failure::Usage)?;
                json(
                    session
                        .client()
                        .await?
                        .objects_where(&doc, &selector)
                        .await?,
                )
            }
            ObjCommand::Create { doc, kind, props } => {
                let props = props.unwrap_or_default();
                let client = session.client().await?;
                json(ObjectCreated {
                    success: true,
                    obj_id: client.create_object(&doc, kind.as_str(), &props).await?,
                })
            }
            ObjCommand::Update {
                doc,
                obj,
                props,
                if_version,
            } => {
                session
                    .client()
                    .await?
                    .update_object_if(&doc, &obj, &props, if_version)
                    .await?;
                success()
            }
            ObjCommand::Bulk {
                doc,
                objects,
                merge: false,
            } => {
                session.client().await?.bulk_update(&doc, &objects).await?;
                success()
            }
            ObjCommand::Bulk {
                doc,
                objects,
                merge: true,
            } => {
                merge::merge_bulk(session.client().await?, &doc, objects).await?;
                success()
            }
            ObjCommand::SetWhere { doc, words, merge } => {
                let Some((props, selector)) = words.split_last().filter(|(_, s)| !s.is_empty())
                else {
                    return Err(Failure::Usage(
                        "give a selector, then the props to merge: status eq down '{\"opacity\":0.5}'"
                            .into(),
                    ));
                };
                let selector = selector_words(selector).map_err(Failure::Usage)?;
                let props = props_arg(props).map_err(Failure::Usage)?;
                let client = session.client().await?;
                if merge {
                    json(merge::merge_where(client, &doc, &selector, &props).await?)
                } else {
                    json(client.update_where(&doc, &selector, &props).await?)
                }
            }
            ObjCommand::Delete { doc, obj, yes } => {
                yes.confirm(&format!("Delete object {obj} of document {doc}"))?;
                session.client().await?.delete_object(&doc, &obj).await?;
                success()
            }
        })
    }
}

/// A version as `obj get` prints it: `12` (or the ETag `"12"`).
fn version_arg(text: &str) -> Result<u64, String> {
    parse_version(text).ok_or_else(|| format!("\"{text}\" is not a version (a whole number: 12)"))
}

fn object_type(text: &str) -> Result<ObjectType, String> {
    text.parse()
        .map_err(|e: diagtui_model::PropertyProblem| e.message)
}
