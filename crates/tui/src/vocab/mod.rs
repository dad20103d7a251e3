//! The vocabulary the components speak: [`action`] is what a component asks of the app (an
//! `Action`, a question to `Ask`), the shape every pane and overlay has (`Component`, and `Cx`,
//! what it may read of the app) and an `Overlay` as App holds it; [`calls`] the small words
//! actions carry (panes, marks, prompts, the calls App forwards to one component, a question's
//! body); [`layout`] where each part sits on the screen.
//!
//! May import the domain rooms (`document`, `requests`, `session`), `text`, `transfer`, `keys`
//! and `theme`; never a widget, an overlay, a pane, `writes` or `app`.

pub(crate) mod action;
pub(crate) mod calls;
pub(crate) mod layout;
