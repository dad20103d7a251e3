//! Each overlay as the component it holds, for App to route keys to it and draw it.

use crate::overlays::Overlay;
use crate::vocab::component::Component;

/// The component inside each variant, as `$convert` gives it from a box.
macro_rules! inside {
    ($overlay:expr, $convert:ident) => {
        match $overlay {
            Overlay::Question(c) => c,
            Overlay::Prompt(c) => c,
            Overlay::Help(c) => c,
            Overlay::Log(c) => c,
            Overlay::Palette(c) => c,
            Overlay::TypePicker(c) => c,
            Overlay::ComponentPicker(c) => c,
            Overlay::FolderPicker(c) => c,
            Overlay::Form(c) => c.$convert(),
            Overlay::Result(c) => c,
            Overlay::BulkEdit(c) => c.$convert(),
            Overlay::Writes(c) => c,
            Overlay::Connections(c) => c,
            Overlay::Versions(c) => c,
        }
    };
}

impl Overlay {
    /// It, as a component.
    pub fn component(&self) -> &dyn Component {
        inside!(self, as_ref)
    }

    /// It, as a component to change.
    pub fn component_mut(&mut self) -> &mut dyn Component {
        inside!(self, as_mut)
    }
}
