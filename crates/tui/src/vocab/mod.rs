//! The vocabulary the components speak: [`action`] is what a component asks of the app,
//! [`component`] the shape every pane and overlay has and `Cx`, what it may read of the app,
//! [`layout`] where each part sits on the screen.
//!
//! May import the domain rooms (`document`, `requests`, `session`), `text`, `transfer`, `keys`
//! and `theme`; never a widget, an overlay, a pane, `writes` or `app`.

pub(crate) mod action;
pub(crate) mod component;
pub(crate) mod layout;
