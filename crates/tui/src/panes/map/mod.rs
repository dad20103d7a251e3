//! The map: the open document's scene drawn in the terminal, in place of the properties pane
//! (`m`), or over the whole screen (`z`). It pans, zooms and fits; `Enter` selects the object
//! under the centre cross and `n`/`N` the next or previous one by position, which the tree and
//! the properties then show; a click selects, the wheel zooms, a drag pans. The selected
//! object is highlighted and kept in view, marked ones and the selector preview's matches have
//! their own style, and what the tree's filter hides is dimmed.
//!
//! It reads the scene App keeps (`Cx::scene`, built off the input loop) and follows the tree's
//! selection and filter through [`MapPane::sync`], which App calls after every update. Where the
//! terminal shows pixels it is the picture of its view instead of braille once that is drawn
//! ([`MapPane::picture_job`], `document::picture`), and `v` switches it between 2D and 3D.

mod dots;
mod draw;
mod viewport;

use viewport::Viewport;

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui_image::Image;

use crate::document::picture::{DrawnPicture, Graphics, PictureJob, PictureKey, Pictures};
use crate::document::{ObjectModel, OpenDoc, RequestId, TreeRow};
use crate::keys::{Command, Context};
use crate::overlays::ConnectionsView;
use crate::panes::{MAP, TypedPane};
use crate::requests::call::Request;
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::vocab::calls::ObjectsCall;
use crate::vocab::layout::Column;
use crate::widgets::pieces::{load_error_lines, pane_block};
use diagtui_scene::render::Highlights;
use diagtui_scene::{Rect as SceneRect, Scene};
use draw::Emphasis;

/// How much one `+` or `-` (or a wheel step) zooms.
const ZOOM_STEP: f64 = 1.5;

/// Which objects the tree's filter shows, for one version of the objects and one filter.
#[derive(Debug)]
struct FilterView {
    version: u64,
    text: String,
    /// By the object's index in the model.
    shown: Vec<bool>,
}

/// The map pane.
#[derive(Debug, Default)]
pub struct MapPane {
    /// What it shows; `None` until there is something to fit.
    view: Option<Viewport>,
    /// While the user has not moved the view: the drawing's size and the diagram's bounds it
    /// was fitted to (it fits again when either changes).
    fitted: Option<(Rect, SceneRect)>,
    /// The document the view is of.
    viewed_doc: Option<String>,
    area: Rect,
    /// The tree's selection, followed.
    selected: Option<String>,
    /// The tree's filter, while there is one.
    filter: Option<FilterView>,
    /// Where a drag with the left button was last.
    drag: Option<(u16, u16)>,
    /// The pictures of the view, where the terminal shows pixels.
    pictures: Pictures,
}

impl MapPane {
    /// Follows the app: a view fitted to a document's first scene, the tree's selection
    /// (brought into view when it changes) and the filter `filter` (only while the map is shown).
    pub fn sync(&mut self, cx: &Cx, selected: Option<&str>, filter: &str) {
        if self.viewed_doc.as_deref() != cx.doc_id() {
            self.viewed_doc = cx.doc_id().map(str::to_owned);
            self.view = None;
        }
        let canvas = self.canvas_area();
        let shown = canvas.width > 0 && canvas.height > 0;
        let bounds = cx.scene.and_then(Scene::bounds);
        let refit = match (self.view, self.fitted) {
            (None, _) => true,
            (Some(_), Some(fitted)) => Some(fitted) != bounds.map(|b| (canvas, b)),
            (Some(_), None) => false,
        };
        if shown
            && refit
            && let Some(bounds) = bounds
        {
            self.fit(bounds, canvas);
        }
        if self.selected.as_deref() != selected {
            self.selected = selected.map(str::to_owned);
            let target = selected.and_then(|id| cx.scene?.get(id));
            if let (Some(view), Some(target)) = (self.view.as_mut(), target)
                && view.keep_in_view(target.bounds, canvas)
            {
                self.fitted = None;
            }
        }
        let model = cx.doc.and_then(OpenDoc::model);
        match model {
            Some(model) if !filter.trim().is_empty() => {
                let current = self
                    .filter
                    .as_ref()
                    .is_some_and(|f| f.version == model.version() && f.text == filter);
                if shown && !current {
                    self.filter = Some(filter_view(model, filter));
                }
            }
            _ => self.filter = None,
        }
    }

    /// Shows the picture of the view with `graphics` from now on (`None`: braille only).
    pub fn use_graphics(&mut self, graphics: Option<Graphics>) {
        self.pictures.use_graphics(graphics);
    }

    /// Takes a drawn picture, if it is of what the map shows by now.
    pub fn settle_picture(&mut self, drawn: DrawnPicture) {
        self.pictures.settle(drawn);
    }

    /// After [`MapPane::sync`]: the job that draws the picture of what the map shows, while it
    /// is `open` and the terminal shows pictures; `scene` is the one `cx` holds, shared, with
    /// its document and version.
    pub fn picture_job(
        &mut self,
        cx: &Cx,
        scene: Option<(&Arc<Scene>, (String, u64))>,
        open: bool,
    ) -> Option<PictureJob> {
        let (shared, stamp) = scene.unzip();
        let key = self.picture_key(cx, stamp, open);
        self.pictures.wanted(key, shared)
    }

    /// What the picture of the map's view shows now, if one can be drawn.
    fn picture_key(&self, cx: &Cx, stamp: Option<(String, u64)>, open: bool) -> Option<PictureKey> {
        if !open || !self.pictures.on() {
            return None;
        }
        let (scene, doc, stamp) = (cx.scene?, cx.doc?, stamp?);
        let canvas = self.canvas_area();
        if canvas.width == 0 || canvas.height == 0 {
            return None;
        }
        let view = self.view_for(scene, canvas)?;
        let mut marked: Vec<String> = doc.emphasised_ids().map(str::to_owned).collect();
        marked.sort_unstable();
        marked.dedup();
        Some(PictureKey {
            scene: stamp,
            region: view.visible(canvas),
            cells: (canvas.width, canvas.height),
            view: self.pictures.view(),
            highlights: Highlights {
                selected: self.selected.clone(),
                marked,
            },
        })
    }

    /// `v`: the picture in 3D, or back in 2D; braille is 2D only.
    fn switch_view(&mut self) -> Vec<Action> {
        if !self.pictures.on() {
            return vec![Action::info(
                "3D is drawn in pixels, and this terminal shows none: braille is 2D only \
                 ([map] graphics in the config file)",
            )];
        }
        self.pictures.switch_view();
        vec![Action::info(format!(
            "the map's picture in {}",
            self.pictures.view()
        ))]
    }

    /// Shows all of `bounds` in `canvas`, until the user moves the view.
    fn fit(&mut self, bounds: SceneRect, canvas: Rect) {
        self.view = Some(Viewport::fit(bounds, canvas));
        self.fitted = Some((canvas, bounds));
    }

    /// Takes `view` as what the map shows; the user moved it when it is not the one shown.
    fn moved_to(&mut self, view: Viewport) {
        if self.view != Some(view) {
            self.view = Some(view);
            self.fitted = None;
        }
    }

    /// Where the drawing goes: inside the border, above the lines that name the selection and
    /// say where the cross is.
    fn canvas_area(&self) -> Rect {
        canvas_and_info(self.area).0
    }

    /// Whether the tree's filter hides object `id`.
    fn hidden(&self, model: Option<&ObjectModel>, id: &str) -> bool {
        let (Some(filter), Some(model)) = (&self.filter, model) else {
            return false;
        };
        filter.version == model.version()
            && model
                .index_of(id)
                .is_some_and(|i| !filter.shown.get(i).copied().unwrap_or(true))
    }

    /// Selects object `id`: the tree shows it (and so the properties), the focus stays here.
    fn select(&self, id: &str) -> Vec<Action> {
        vec![
            Action::to_pane(ObjectsCall::Jump(id.to_owned())),
            Action::Focus(MAP),
        ]
    }

    /// The next (or previous) object by position that the filter shows.
    fn step(&self, scene: &Scene, forward: bool, cx: &Cx) -> Vec<Action> {
        let model = cx.doc.and_then(OpenDoc::model);
        let mut at = self.selected.clone();
        for _ in 0..scene.primitives().len() {
            let next = if forward {
                scene.next_by_position(at.as_deref())
            } else {
                scene.previous_by_position(at.as_deref())
            };
            let Some(next) = next else {
                break;
            };
            if !self.hidden(model, &next.id) {
                return self.select(&next.id);
            }
            at = Some(next.id.clone());
        }
        vec![Action::info("nothing on the map to select")]
    }

    /// The view in use for `canvas`: the pane's, else the whole diagram fitted.
    fn view_for(&self, scene: &Scene, canvas: Rect) -> Option<Viewport> {
        self.view
            .or_else(|| scene.bounds().map(|bounds| Viewport::fit(bounds, canvas)))
    }

    /// A command that needs a scene with something on it.
    fn on_scene(&mut self, command: Command, scene: &Scene, cx: &Cx) -> Vec<Action> {
        let canvas = self.canvas_area();
        let Some(mut view) = self.view_for(scene, canvas) else {
            return vec![Action::info("nothing on the map yet")];
        };
        let mut actions = Vec::new();
        match command {
            Command::PanLeft => view.pan(-1.0, 0.0, canvas),
            Command::PanRight => view.pan(1.0, 0.0, canvas),
            Command::PanUp => view.pan(0.0, -1.0, canvas),
            Command::PanDown => view.pan(0.0, 1.0, canvas),
            Command::ZoomIn => view.zoom(ZOOM_STEP, view.centre),
            Command::ZoomOut => view.zoom(1.0 / ZOOM_STEP, view.centre),
            Command::Fit => {
                if let Some(bounds) = scene.bounds() {
                    self.fit(bounds, canvas);
                    return Vec::new();
                }
            }
            Command::SelectCentre => {
                actions = match scene.pick(view.centre, view.cell_reach()) {
                    Some(p) => self.select(&p.id),
                    None => vec![Action::info(format!(
                        "nothing under the cross: pan onto an object, or {} selects the next one",
                        cx.key(Context::Map, Command::NextObject)
                    ))],
                }
            }
            Command::NextObject => actions = self.step(scene, true, cx),
            Command::PrevObject => actions = self.step(scene, false, cx),
            Command::Connections => {
                actions = ConnectionsView::open(self.selected.as_deref(), scene, MAP)
            }
            _ => {}
        }
        self.moved_to(view);
        actions
    }
}

/// Which objects of `model` the filter `text` shows.
fn filter_view(model: &ObjectModel, text: &str) -> FilterView {
    let mut shown = vec![false; model.len()];
    for row in model.rows(text, &HashSet::new()) {
        if let TreeRow::Object(i) = row {
            shown[i] = true;
        }
    }
    FilterView {
        version: model.version(),
        text: text.to_owned(),
        shown,
    }
}

/// A pane's rectangle split into the drawing and the two lines under it.
fn canvas_and_info(area: Rect) -> (Rect, Rect) {
    let inner = Rect::new(
        area.x.saturating_add(1),
        area.y.saturating_add(1),
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    let [canvas, info] = Layout::vertical([Constraint::Min(0), Constraint::Length(2)]).areas(inner);
    (canvas, info)
}

/// The map makes no request of its own and takes no call.
impl TypedPane for MapPane {
    const NAME: &'static str = "Map";
    const COLUMN: Column = Column::Right;
    const CONTEXTS: &'static [Context] = &[Context::Map];

    type Reply = Infallible;
    type Call = Infallible;

    fn on_reply(&mut self, reply: Infallible, _: RequestId, _: Request, _: &Cx) -> Vec<Action> {
        match reply {}
    }

    fn call(&mut self, call: Infallible, _: &Cx) -> Vec<Action> {
        match call {}
    }
}

impl Component for MapPane {
    fn context(&self) -> Context {
        Context::Map
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if command == Command::Back {
            return vec![Action::Show(MAP, false)];
        }
        if command == Command::SwitchView {
            return self.switch_view();
        }
        match cx.scene {
            Some(scene) => self.on_scene(command, scene, cx),
            None => vec![Action::info("the map is not drawn yet")],
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, cx: &Cx) -> Vec<Action> {
        let canvas = self.canvas_area();
        let (column, row) = (mouse.column, mouse.row);
        let inside = canvas.contains(ratatui::layout::Position::new(column, row));
        let Some(scene) = cx.scene else {
            return Vec::new();
        };
        let Some(mut view) = self.view_for(scene, canvas) else {
            return Vec::new();
        };
        let mut actions = Vec::new();
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) if inside => {
                self.drag = Some((column, row));
                let point = view.point_at(canvas, column, row);
                if let Some(p) = scene.pick(point, view.cell_reach()) {
                    actions = self.select(&p.id);
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let Some((from_column, from_row)) = self.drag {
                    view.shift_cells(
                        f64::from(from_column) - f64::from(column),
                        f64::from(from_row) - f64::from(row),
                    );
                    self.drag = Some((column, row));
                }
            }
            MouseEventKind::Up(_) => self.drag = None,
            MouseEventKind::ScrollUp if inside => {
                view.zoom(ZOOM_STEP, view.point_at(canvas, column, row));
            }
            MouseEventKind::ScrollDown if inside => {
                view.zoom(1.0 / ZOOM_STEP, view.point_at(canvas, column, row));
            }
            _ => {}
        }
        self.moved_to(view);
        actions
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let mut title = match cx.doc {
            Some(doc) => format!(" 3 Map · {} ", doc.summary.title),
            None => " 3 Map ".to_owned(),
        };
        if self.pictures.on() {
            title.push_str(&format!("· {} ", self.pictures.view()));
        }
        let block = pane_block(&title, area.width, focused, cx.theme);
        frame.render_widget(block, area);
        let (canvas, info) = canvas_and_info(area);
        let dim = cx.style(Role::Dim);
        let model = cx.doc.and_then(OpenDoc::model);
        let note =
            |text: String| Paragraph::new(Line::styled(text, dim)).wrap(Wrap { trim: false });
        let (doc, scene) = match (cx.doc, model, cx.scene) {
            (None, _, _) => {
                let text = format!(
                    "open a document ({} in the documents pane)",
                    cx.key(Context::Documents, Command::Open)
                );
                return frame.render_widget(note(text), canvas);
            }
            (Some(doc), None, _) => {
                let lines = match doc.content.error() {
                    Some(error) => load_error_lines("the objects", error, cx),
                    None => vec![Line::styled("loading…", dim)],
                };
                return frame
                    .render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), canvas);
            }
            (Some(_), Some(_), None) => {
                return frame.render_widget(note("drawing the map…".to_owned()), canvas);
            }
            (Some(doc), Some(_), Some(scene)) => (doc, scene),
        };
        let Some(view) = self.view_for(scene, canvas) else {
            let mut text = "nothing to draw: the document has no objects".to_owned();
            if let Some(unplaced) = scene.unplaced_note() {
                text = format!("nothing to draw: {unplaced}");
            }
            return frame.render_widget(note(text), canvas);
        };
        let emphasised: HashSet<&str> = doc.emphasised_ids().collect();
        let marked = |id: &str| emphasised.contains(id);
        let hidden = |id: &str| self.hidden(model, id);
        let emphasis = Emphasis {
            selected: self.selected.as_deref().and_then(|id| scene.get(id)),
            marked: &marked,
            hidden: &hidden,
        };
        match self.pictures.current() {
            Some(picture) => frame.render_widget(Image::new(picture), canvas),
            None => draw::draw(frame, canvas, scene, view, &emphasis, cx.theme, focused),
        }
        let lines = info_lines(scene, view, canvas, self.selected.as_deref(), cx);
        frame.render_widget(Paragraph::new(lines), info);
    }
}

/// The two lines under the map: the selection by its name and how many objects could not be
/// placed; then where the cross is, the zoom and, when it is not the selection, what lies under
/// the cross.
fn info_lines(
    scene: &Scene,
    view: Viewport,
    canvas: Rect,
    selected: Option<&str>,
    cx: &Cx,
) -> Vec<Line<'static>> {
    let fitted = scene
        .bounds()
        .map_or(view.per_column, |b| Viewport::fit(b, canvas).per_column);
    // Rounded first, so that a hair below zero does not read -0.0.
    let tenths = |v: f64| (v * 10.0).round() / 10.0 + 0.0;
    let names = cx.names();
    let width = usize::from(canvas.width);
    let mut first = Vec::new();
    let mut room = width;
    let selection = selected.map(|id| format!("▸ {}", names.of(id).described()));
    let unplaced = scene.unplaced_note().map(|note| format!("! {note}"));
    for (text, role) in [(selection, Role::Strong), (unplaced, Role::Warning)] {
        let Some(text) = text else {
            continue;
        };
        if !first.is_empty() && room > 2 {
            first.push(Span::raw("  "));
            room -= 2;
        }
        let text = clip(&text, room);
        room = room.saturating_sub(text.chars().count());
        first.push(Span::styled(text, cx.style(role)));
    }
    let mut cross = format!(
        "✛ {:.1}, {:.1}  ×{:.1}",
        tenths(view.centre.x),
        tenths(view.centre.y),
        fitted / view.per_column
    );
    if let Some(p) = scene
        .pick(view.centre, view.cell_reach())
        .filter(|p| Some(p.id.as_str()) != selected)
    {
        cross.push_str(&format!("  on {}", names.of(&p.id).described()));
    }
    vec![
        Line::from(first),
        Line::styled(clip(&cross, width), cx.style(Role::Dim)),
    ]
}
