//! Auto-layout for create-diagram: a flat list of components, groups and connections (a JSON
//! map, CSV, or a Mermaid flowchart) in, the objects of a laid-out diagram out. Pure code: no
//! HTTP, no store.
//!
//! The steps: [`input`] reads a body into raw entries; [`check`] refuses bad input (naming the
//! entry and the field) and resolves ids into a [`model::Model`]; [`place`] puts components in
//! tiers of rows inside their groups; [`objects`] makes the areas, labels, components and
//! routed line groups. The rules in words: docs/create-diagram.md.

pub mod check;
mod error;
mod fields;
pub mod geometry;
pub mod input;
pub mod model;
pub mod objects;
pub mod place;
mod route;
pub mod settings;
mod tiers;

#[cfg(test)]
mod tests;

pub use error::{LayoutError, LayoutResult};
pub use input::{Format, RawEntry};
pub use objects::Objects;
pub use settings::Settings;

/// Lays out a body of the given format with these settings: the objects to store, each under
/// its id, in drawing order. Refuses the whole input at its first problem.
pub fn lay_out(body: &[u8], format: Format, settings: &Settings) -> LayoutResult<Objects> {
    lay_out_entries(format.parse(body)?, settings)
}

/// Lays out entries already read.
pub fn lay_out_entries(entries: Vec<RawEntry>, settings: &Settings) -> LayoutResult<Objects> {
    let model = check::check(entries)?;
    let placement = place::place(&model, settings)?;
    objects::build(&model, &placement)
}
