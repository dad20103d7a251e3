//! The text every room speaks: a message for the user ([`notification`]), counted nouns
//! ([`words`]), terminal columns and long lines ([`text_view`]), JSON as the editors see it: its
//! check, the diff a write sends, its highlighting ([`json`]).
//!
//! Imports only `theme` of the TUI: it is the ground every other room stands on.

pub(crate) mod json;
pub mod notification;
pub(crate) mod text_view;
pub(crate) mod words;
