//! Auto-layout for create-diagram: a flat list of components, groups and connections (a JSON
//! map, CSV, or a Mermaid flowchart) in, the objects of a laid-out diagram out. Pure code: no
//! HTTP, no store.
//!
//! The steps: [`input`] reads a body into raw entries; [`check`] refuses bad input (naming the
//! entry and the field) and resolves ids into a [`model::Model`]; [`place`] puts components in
//! tiers of rows inside their groups when some component gives a `tier`, else [`layered`] lays
//! them out in layers along the flow (as Graphviz dot does); [`objects`] makes the areas,
//! labels, components and routed line groups (each line straightened where a straight piece
//! is clear). The rules in words: docs/create-diagram.md.

pub mod catalogue;
pub mod check;
mod error;
mod fields;
pub mod geometry;
pub mod input;
pub mod layered;
mod link_labels;
mod loops;
pub mod model;
pub mod objects;
pub mod place;
pub mod quality;
mod route;
pub mod settings;
mod stop;
mod straighten;
mod tiers;

#[cfg(test)]
mod tests;

pub use error::{LayoutError, LayoutResult};
pub use input::{Format, Note, Parsed, RawEntry};
pub use objects::Objects;
pub use settings::Settings;
pub use stop::Stop;

/// A laid-out diagram: the objects to store, and what of the input could not be drawn.
#[derive(Debug)]
pub struct Laid {
    /// The objects, each under its id, in drawing order.
    pub objects: Objects,
    /// What could not be drawn as written (the input's own notes).
    pub notes: Vec<Note>,
}

/// Lays out a body of the given format with these settings. Refuses the whole input at its
/// first problem; what can be drawn another way is drawn so and noted.
pub fn lay_out(body: &[u8], format: Format, settings: &Settings) -> LayoutResult<Laid> {
    lay_out_parsed(format.parse(body)?, settings)
}

/// [`lay_out`], given up between its steps once `stop` is raised (with an error saying so).
pub fn lay_out_unless_stopped(
    body: &[u8],
    format: Format,
    settings: &Settings,
    stop: &Stop,
) -> LayoutResult<Laid> {
    laid(format.parse(body)?, settings, stop)
}

/// Lays out an input already read.
pub fn lay_out_parsed(parsed: Parsed, settings: &Settings) -> LayoutResult<Laid> {
    laid(parsed, settings, &Stop::default())
}

/// Lays out an input already read unless stopped, keeping its notes.
fn laid(parsed: Parsed, settings: &Settings, stop: &Stop) -> LayoutResult<Laid> {
    let Parsed {
        entries,
        direction,
        notes,
    } = parsed;
    let objects = lay_out_entries(entries, direction.unwrap_or_default(), settings, stop)?;
    Ok(Laid { objects, notes })
}

/// Lays out entries already read, the flow running in `direction`, unless `stop` is raised.
pub fn lay_out_entries(
    entries: Vec<RawEntry>,
    direction: model::Direction,
    settings: &Settings,
    stop: &Stop,
) -> LayoutResult<Objects> {
    let model = check::check(entries, direction)?;
    let placement = if model.uses_tiers() {
        place::place(&model, settings)?
    } else {
        layered::place(&model, settings, stop)?
    };
    objects::build(&model, &placement)
}
