//! Real pixels on the map, for a terminal that shows pictures (kitty, sixel or iTerm2; found
//! at start by `runtime::graphics`): the picture of the map's view, with its selection and
//! marks, drawn by the scene's renderer off the input loop and encoded for the terminal by
//! `ratatui-image`.
//!
//! The map asks [`Pictures::wanted`] after every update for the picture of what it shows; a
//! [`PictureJob`] goes to the runner (`Effect::DrawPicture`), which draws it on a thread of its
//! own and sends back a [`DrawnPicture`] (`Msg::Picture`). A newer view supersedes an older
//! one: its job gives up at its next step, and a picture that comes back for a view no longer
//! asked for is dropped. Until the picture of the view arrives, the map draws braille.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use image::{DynamicImage, RgbaImage};
use ratatui::layout::Size;
use ratatui_image::protocol::Protocol;
use ratatui_image::protocol::iterm2::Iterm2;
use ratatui_image::protocol::kitty::Kitty;
use ratatui_image::protocol::sixel::Sixel;

use diagtui_scene::Rect;
use diagtui_scene::Scene;
use diagtui_scene::render::{Highlights, View, Window, render_window};

/// A terminal graphics protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelProtocol {
    /// The kitty graphics protocol (kitty, Ghostty, recent Konsole).
    Kitty,
    /// DEC sixel (xterm `-ti vt340`, foot, mlterm, WezTerm, Windows Terminal).
    Sixel,
    /// iTerm2's inline images (iTerm2, WezTerm).
    Iterm2,
}

/// How the terminal shows pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Graphics {
    /// The protocol it speaks.
    pub protocol: PixelProtocol,
    /// Pixels across and down one cell.
    pub cell: (u16, u16),
    /// Whether it is reached through tmux (pictures are wrapped for its passthrough).
    pub tmux: bool,
}

/// What one picture shows: the scene (its document and version), the grid rectangle in view,
/// the cells it covers, 2D or 3D, and what it emphasises.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureKey {
    /// The scene's document and its objects' version.
    pub scene: (String, u64),
    /// The grid rectangle in view.
    pub region: Rect,
    /// Columns and rows.
    pub cells: (u16, u16),
    /// 2D or 3D.
    pub view: View,
    /// The selection and the marked objects.
    pub highlights: Highlights,
}

/// The work of drawing one picture ([`PictureJob::run`], off the input loop).
#[derive(Clone)]
pub struct PictureJob {
    key: PictureKey,
    scene: Arc<Scene>,
    graphics: Graphics,
    /// Its number, and the number of the newest job asked for.
    number: u64,
    newest: Arc<AtomicU64>,
}

impl fmt::Debug for PictureJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PictureJob")
            .field("key", &self.key)
            .field("number", &self.number)
            .finish_non_exhaustive()
    }
}

impl PartialEq for PictureJob {
    /// Two jobs are the same work when they draw the same picture.
    fn eq(&self, other: &PictureJob) -> bool {
        self.key == other.key && self.graphics == other.graphics
    }
}

impl PictureJob {
    /// 2D or 3D.
    pub fn view(&self) -> View {
        self.key.view
    }

    /// Whether a newer job was asked for since this one: then it is not worth finishing.
    fn superseded(&self) -> bool {
        self.newest.load(Ordering::Relaxed) != self.number
    }

    /// Draws the picture and encodes it for the terminal; `None` when a newer view was asked
    /// for meanwhile (or it could not be drawn: then the map keeps its braille, and the log
    /// says why).
    pub fn run(self) -> Option<DrawnPicture> {
        if self.superseded() {
            return None;
        }
        let started = Instant::now();
        let (columns, rows) = self.key.cells;
        let (across, down) = self.graphics.cell;
        let window = Window {
            view: self.key.view,
            region: self.key.region,
            width: u32::from(columns) * u32::from(across),
            height: u32::from(rows) * u32::from(down),
        };
        let pixels = render_window(&self.scene, &window, &self.key.highlights)
            .map_err(|e| tracing::warn!(%e, "the map's picture could not be drawn"))
            .ok()?;
        if self.superseded() {
            return None;
        }
        let image = RgbaImage::from_raw(pixels.width, pixels.height, pixels.rgba)
            .map(DynamicImage::ImageRgba8)?;
        let size = Size::new(columns, rows);
        let tmux = self.graphics.tmux;
        let protocol = match self.graphics.protocol {
            PixelProtocol::Kitty => {
                // Each picture its own id, so the terminal never shows an older one's pixels.
                let id = (self.number % u64::from(u32::MAX)) as u32 + 1;
                Kitty::new(image, size, id, tmux, false).map(Protocol::Kitty)
            }
            PixelProtocol::Sixel => Sixel::new(image, size, false)
                .map(|sixel| Protocol::Sixel(if tmux { through_tmux(sixel) } else { sixel })),
            PixelProtocol::Iterm2 => Iterm2::new(image, size, tmux).map(Protocol::ITerm2),
        };
        let protocol = protocol
            .map_err(|e| tracing::warn!(%e, "the map's picture could not be encoded"))
            .ok()?;
        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        tracing::debug!(view = ?self.key.view, millis, "the map's picture drawn");
        Some(DrawnPicture {
            key: self.key,
            protocol: Arc::new(protocol),
        })
    }
}

/// A sixel picture wrapped for tmux's passthrough: every escape doubled, the one of the
/// picture's own end included. (`ratatui-image` 11 doubles only the first, so tmux ends the
/// passthrough at the picture's end and the terminal never sees the picture finish: with tmux
/// 3.3a in xterm nothing was drawn.)
fn through_tmux(sixel: Sixel) -> Sixel {
    let data = format!("\x1bPtmux;{}\x1b\\", sixel.data.replace('\x1b', "\x1b\x1b"));
    Sixel {
        data,
        is_tmux: true,
        ..sixel
    }
}

/// A picture drawn by a [`PictureJob`], for `Msg::Picture`.
#[derive(Clone)]
pub struct DrawnPicture {
    key: PictureKey,
    protocol: Arc<Protocol>,
}

impl fmt::Debug for DrawnPicture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DrawnPicture")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl PartialEq for DrawnPicture {
    fn eq(&self, other: &DrawnPicture) -> bool {
        self.key == other.key && Arc::ptr_eq(&self.protocol, &other.protocol)
    }
}

/// The map's pictures: how the terminal shows them (none: braille only), 2D or 3D, the
/// picture asked for and the one drawn last.
#[derive(Debug)]
pub struct Pictures {
    graphics: Option<Graphics>,
    view: View,
    /// What the map shows now.
    now: Option<PictureKey>,
    asked: Option<PictureKey>,
    shown: Option<DrawnPicture>,
    newest: Arc<AtomicU64>,
}

impl Default for Pictures {
    /// No pictures; 2D, as the braille map, when they come.
    fn default() -> Pictures {
        Pictures {
            graphics: None,
            view: View::Flat,
            now: None,
            asked: None,
            shown: None,
            newest: Arc::default(),
        }
    }
}

impl Pictures {
    /// Shows pictures with `graphics` from now on (`None`: braille only).
    pub fn use_graphics(&mut self, graphics: Option<Graphics>) {
        *self = Pictures {
            graphics,
            view: self.view,
            ..Pictures::default()
        };
    }

    /// Whether the terminal shows pictures.
    pub fn on(&self) -> bool {
        self.graphics.is_some()
    }

    /// 2D or 3D.
    pub fn view(&self) -> View {
        self.view
    }

    /// Switches between 2D and 3D.
    pub fn switch_view(&mut self) {
        self.view = match self.view {
            View::Flat => View::Isometric,
            View::Isometric => View::Flat,
        };
    }

    /// Notes what the map shows now (`None`: no picture of it can be drawn) and returns the
    /// job that draws its picture, unless it is drawn or being drawn (or the terminal shows
    /// no pictures); a job supersedes the jobs asked for before it.
    pub fn wanted(
        &mut self,
        key: Option<PictureKey>,
        scene: Option<&Arc<Scene>>,
    ) -> Option<PictureJob> {
        self.now = key;
        let (graphics, key, scene) = (self.graphics?, self.now.clone()?, scene?);
        let drawn = self.shown.as_ref().is_some_and(|s| s.key == key);
        if drawn || self.asked.as_ref() == Some(&key) {
            return None;
        }
        self.asked = Some(key.clone());
        let number = self.newest.fetch_add(1, Ordering::Relaxed) + 1;
        Some(PictureJob {
            key,
            scene: Arc::clone(scene),
            graphics,
            number,
            newest: Arc::clone(&self.newest),
        })
    }

    /// Takes a drawn picture if it is the one asked for last; says whether it did.
    pub fn settle(&mut self, drawn: DrawnPicture) -> bool {
        if self.asked.as_ref() != Some(&drawn.key) {
            return false;
        }
        self.asked = None;
        self.shown = Some(drawn);
        true
    }

    /// The picture of what the map shows now, when it is drawn.
    pub fn current(&self) -> Option<&Protocol> {
        self.shown
            .as_ref()
            .filter(|s| self.now.as_ref() == Some(&s.key))
            .map(|s| s.protocol.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sixel_picture_goes_through_tmux_with_every_escape_doubled() {
        let image =
            DynamicImage::ImageRgba8(RgbaImage::from_pixel(8, 12, image::Rgba([255, 0, 0, 255])));
        let plain = Sixel::new(image, Size::new(1, 1), false).unwrap();
        assert!(
            plain.data.ends_with("\x1b\\"),
            "a sixel picture ends with ST"
        );
        let wrapped = through_tmux(plain.clone()).data;
        let inner = wrapped
            .strip_prefix("\x1bPtmux;")
            .and_then(|rest| rest.strip_suffix("\x1b\\"))
            .expect("one passthrough around it");
        assert_eq!(inner.replace("\x1b\x1b", "\x1b"), plain.data);
        assert!(
            !inner.replace("\x1b\x1b", "").contains('\x1b'),
            "no escape alone: tmux would end the passthrough there"
        );
    }
}
