//! One display name per object, wherever the app names one: the tree's rows, the connections
//! list (`>`), the map's readout, selector previews and results, the bulk edit, the write
//! history (`U`), the questions and the status messages. [`Names`] reads what the object's data
//! says from the model's precomputed row text (no parse: [`RowParts`]) and what only the scene
//! knows from `diagtui_scene` (a line group's ends, what an area encloses, what an icon sits on,
//! a component's connections); a [`Name`] says it as a row, as words or as a short text.
//!
//! Components build theirs with `cx.names()` (or `cx.name_of(id)` for a message).

use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use crate::document::Departed;
use crate::document::row::STATUS_KEY;
use crate::document::{ObjectModel, RowParts, row_text};
use crate::text::text_view;
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::{Role, Theme};
use diagtui_model::{Content, DiagramObject};
use diagtui_scene::{DEFAULT_STATUS_KEY, Primitive, Rgb, Scene, Shape, Status};
use serde_json::{Value, json};

/// Objects an area's name lists by name before it counts the rest (`around web-01, web-02 +3`).
const AROUND: usize = 2;
/// Room below which the id is left off a row (it would be cut to nothing readable).
const ID_ROOM: usize = 6;

/// What is said dimmed after an object's title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Nothing.
    None,
    /// A text: a component's componentId.
    Text(String),
    /// An area's fill, drawn as a swatch of its colour (`rgb`, from the scene) where the theme
    /// has colours, else as the `hex` its data gives.
    Swatch {
        /// The `fillColor` as written.
        hex: String,
        /// The colour, once the scene has read it (`None`: invisible or not read yet).
        rgb: Option<Rgb>,
    },
}

/// An object's display name and what is said with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// The object's id.
    pub id: String,
    /// Its type's wire name.
    pub kind: String,
    /// What names it (what survives in a narrow row): a component's `name`, a label's text, an
    /// area's name, meta, labels or contents, a line group's ends, an icon's icon.
    pub title: String,
    /// Said dimmed after the title.
    pub hint: Hint,
    /// The rest: a component's meta summary and connections, an area's labels or contents, what
    /// an icon, image or widget sits on.
    pub detail: String,
    /// A component's status, read from `meta.status` (`None`: it has none).
    pub status: Option<Status>,
}

impl Name {
    /// The title alone: how a message names the object (`CDN`).
    pub fn text(&self) -> &str {
        &self.title
    }

    /// Its type and title: how a sentence names an object of any type (`component CDN`).
    pub fn described(&self) -> String {
        format!("{} {}", self.kind, self.title)
    }

    /// One plain line of words: type, title, hint, detail, id (the rows of a question); a
    /// component's detail (status and meta) before its hint (the componentId), as in its row.
    pub fn words(&self) -> String {
        let mut out = format!("{:<11} {}", self.kind, self.title);
        let parts = match &self.hint {
            Hint::None => ["", &self.detail],
            Hint::Text(text) => [&self.detail, text.as_str()],
            Hint::Swatch { hex, .. } => [hex.as_str(), &self.detail],
        };
        for part in parts {
            if !part.is_empty() {
                out.push_str("  ");
                out.push_str(part);
            }
        }
        if self.title != self.id {
            out.push_str("  ");
            out.push_str(&self.id);
        }
        out
    }

    /// A row of at most `width` columns: a mark (`●` when `marked`), the title (in its status's
    /// style, after its glyph under `NO_COLOR`), the hint dimmed, the detail, then the id dimmed
    /// where there is room; a component's detail (its status and meta) comes before its hint
    /// (the componentId). The title comes first and is cut last: in a narrow pane it is what
    /// shows.
    pub fn row(&self, width: usize, marked: bool, theme: &Theme) -> Line<'static> {
        let mark = if marked { "● " } else { "  " };
        let mut line = self.line(width.saturating_sub(2), theme);
        line.spans
            .insert(0, Span::styled(mark, theme.of(Role::Marked)));
        line
    }

    /// [`Name::row`] without the mark: the title, the hint, the detail and the id where there
    /// is room, in at most `width` columns.
    pub fn line(&self, width: usize, theme: &Theme) -> Line<'static> {
        let dim = theme.of(Role::Dim);
        let (glyph, style) = match self.status {
            Some(status) => {
                let (glyph, role) = status_look(status);
                let glyph = if theme.has_colour() { "" } else { glyph };
                (glyph, theme.of(role))
            }
            None => ("", Style::new()),
        };
        let title = clip(&format!("{glyph}{}", self.title), width);
        let mut room = width.saturating_sub(text_view::width(&title));
        let mut spans = vec![Span::styled(title, style)];
        let hint = match &self.hint {
            Hint::None => None,
            Hint::Text(text) => Some((text.clone(), dim)),
            Hint::Swatch { hex, rgb } => match (theme.has_colour(), rgb) {
                (true, Some(rgb)) => Some((
                    "■".to_owned(),
                    Style::new().fg(Color::Rgb(rgb.r, rgb.g, rgb.b)),
                )),
                (true, None) => None,
                (false, _) => Some((hex.clone(), dim)),
            },
        };
        let detail = Some((self.detail.clone(), Style::new()));
        let id = (self.title != self.id).then(|| (self.id.clone(), dim));
        let pieces = match self.hint {
            Hint::Text(_) => [detail, hint, id],
            _ => [hint, detail, id],
        };
        for (i, piece) in pieces.into_iter().enumerate() {
            // The id only where it can be read.
            let wanted = if i == 2 { ID_ROOM } else { 2 };
            let Some((text, style)) = piece.filter(|(text, _)| !text.is_empty()) else {
                continue;
            };
            if room < wanted {
                continue;
            }
            let cut = clip(&text, room - 1);
            room -= text_view::width(&cut) + 1;
            spans.push(Span::styled(format!(" {cut}"), style));
        }
        Line::from(spans)
    }
}

/// A status's glyph (shown before the title under `NO_COLOR`) and style.
fn status_look(status: Status) -> (&'static str, Role) {
    match status {
        Status::Good => ("✓ ", Role::StatusGood),
        Status::Warning => ("! ", Role::StatusWarning),
        Status::Error => ("✗ ", Role::StatusError),
        Status::Unknown => ("? ", Role::StatusUnknown),
    }
}

/// The status a component's meta summary (`[status=down region=eu]`, the status first) names.
fn status_in(detail: &str) -> Option<Status> {
    let rest = detail
        .strip_prefix('[')?
        .strip_prefix(STATUS_KEY)?
        .strip_prefix('=')?;
    let value = rest.split([' ', ']']).next().unwrap_or_default();
    Some(Status::of(Some(value)))
}

/// Names the objects of the open document (its model, and its scene once built).
#[derive(Debug, Clone, Copy, Default)]
pub struct Names<'a> {
    model: Option<&'a ObjectModel>,
    scene: Option<&'a Scene>,
    departed: Option<&'a Departed>,
}

impl<'a> Names<'a> {
    /// Names read from `model` and, where it has them, `scene`.
    pub fn new(model: Option<&'a ObjectModel>, scene: Option<&'a Scene>) -> Names<'a> {
        Names {
            model,
            scene,
            departed: None,
        }
    }

    /// These names, a line group's deleted ends named by the last names in `departed`.
    pub fn with_departed(self, departed: &'a Departed) -> Names<'a> {
        Names {
            departed: Some(departed),
            ..self
        }
    }

    /// The name of the object at `index` of the model (the model must have it).
    pub fn at(&self, model: &ObjectModel, index: usize) -> Name {
        self.make(
            model.id(index),
            model.kind(index),
            RowParts::of(model.row_text(index)),
        )
    }

    /// The name of object `id`: from the model when it has it, else its id alone.
    pub fn of(&self, id: &str) -> Name {
        match self.model.and_then(|m| Some((m, m.index_of(id)?))) {
            Some((model, index)) => self.at(model, index),
            None => Name {
                id: id.to_owned(),
                kind: "object".to_owned(),
                title: id.to_owned(),
                hint: Hint::None,
                detail: String::new(),
                status: None,
            },
        }
    }

    /// The title of object `id` ([`Name::text`]): how a message names it.
    pub fn text(&self, id: &str) -> String {
        self.of(id).title
    }

    /// The name of object `id` as `object` holds it (one the model no longer has, or has not yet:
    /// a deleted object, a selector's match read from the server).
    pub fn of_object(&self, id: &str, object: &DiagramObject) -> Name {
        let row = row_text(object);
        self.make(id, &object.kind, RowParts::of(&row))
    }

    /// The name of object `id` of type `kind` from its row parts, with what the scene adds.
    fn make(&self, id: &str, kind: &str, parts: RowParts) -> Name {
        let mut name = Name {
            id: id.to_owned(),
            kind: kind.to_owned(),
            title: parts.title.to_owned(),
            hint: match parts.hint {
                "" => Hint::None,
                hint => Hint::Text(hint.to_owned()),
            },
            detail: parts.detail.to_owned(),
            status: (kind == "component")
                .then(|| status_in(parts.detail))
                .flatten(),
        };
        let placed = self.scene.and_then(|s| Some((s, s.get(id)?)));
        match (kind, placed) {
            ("area", placed) => {
                let fill = placed.and_then(|(_, p)| match &p.shape {
                    Shape::Area(area) => area.fill,
                    _ => None,
                });
                if !parts.hint.is_empty() {
                    name.hint = Hint::Swatch {
                        hex: parts.hint.to_owned(),
                        rgb: fill,
                    };
                }
                if let Some((scene, _)) = placed {
                    self.enclosed(scene, &mut name);
                }
            }
            ("line-group", placed) => {
                let ends = match placed {
                    Some((scene, _)) => scene.ends(id),
                    // Not drawn: maybe an end was deleted; named by what the TUI last saw.
                    None if self.scene.is_some() => self.ends_without_scene(id),
                    None => None,
                };
                if let Some(ends) = ends {
                    // An end's name may run over several lines (a wrapped Mermaid label).
                    name.title = one_line(&ends);
                    name.detail.clear();
                }
            }
            ("component", Some((scene, _))) => match scene.connection_count(id) {
                0 => {}
                n => {
                    let count = words::count(n, "connection", "connections");
                    name.detail = match name.detail.is_empty() {
                        true => count,
                        false => format!("{} · {count}", name.detail),
                    };
                }
            },
            ("icon" | "image" | "widget", Some((scene, _))) => {
                if let Some(below) = scene.beneath(id) {
                    name.detail = format!("on {}", self.short(below));
                }
            }
            _ => {}
        }
        if name.title.is_empty() {
            name.title = std::mem::take(&mut name.detail);
        }
        if name.title.is_empty() {
            name.title = id.to_owned();
        }
        name
    }

    /// The ends of line group `id`, which the scene could not place (an end names an object
    /// the document no longer has): read by the scene from the line group and the components
    /// it names, each deleted one standing in as `(deleted) <its last name>` (`(missing) <id>`
    /// when the TUI never saw it).
    fn ends_without_scene(&self, id: &str) -> Option<String> {
        let model = self.model?;
        let group = model.get(id)?;
        let mut content = Content::new();
        let anchors = group.data.get("anchors").and_then(Value::as_array);
        for end in anchors
            .into_iter()
            .flatten()
            .filter_map(|a| a.get("id")?.as_str())
        {
            let object = match model.get(end) {
                Some(object) => object.clone(),
                None => {
                    let name = match self.departed.and_then(|d| d.title(end)) {
                        Some(title) => format!("(deleted) {title}"),
                        None => format!("(missing) {end}"),
                    };
                    stand_in(&name)
                }
            };
            content.insert(end.to_owned(), object);
        }
        content.insert(id.to_owned(), group.clone());
        Scene::build(&content, DEFAULT_STATUS_KEY).ends(id)
    }

    /// An area's title and detail from what it encloses: without a name of its own, the labels
    /// it encloses title it (`eu-west-1 · production VPC`), else what it encloses (`around
    /// web-01, web-02 +3`); with one, they are its detail.
    fn enclosed(&self, scene: &Scene, name: &mut Name) {
        let Some(enclosed) = scene.enclosed(&name.id) else {
            return;
        };
        let labels: Vec<String> = enclosed.labels.iter().map(|t| one_line(t)).collect();
        let labels = labels.join(" · ");
        let around = match enclosed.objects.len() {
            0 => String::new(),
            n => {
                let first: Vec<String> = enclosed
                    .objects
                    .iter()
                    .take(AROUND)
                    .map(|p| self.short(p))
                    .collect();
                let more = match n.saturating_sub(AROUND) {
                    0 => String::new(),
                    more => format!(" +{more}"),
                };
                format!("around {}{more}", first.join(", "))
            }
        };
        let said = match (labels.is_empty(), around.is_empty()) {
            (true, true) => return,
            (false, _) => labels,
            (true, false) => around.clone(),
        };
        if name.title.is_empty() {
            name.title = said;
            name.detail = if name.title == around {
                String::new()
            } else {
                around
            };
        } else {
            name.detail = said;
        }
    }

    /// A placed object's title, without what the scene adds (what an area encloses or an icon
    /// sits on: `on web-03`, `around web-01`).
    fn short(&self, p: &Primitive) -> String {
        let from_model = self
            .model
            .and_then(|m| m.index_of(&p.id).map(|i| m.row_text(i)))
            .map(|row| RowParts::of(row).title)
            .filter(|title| !title.is_empty());
        match (from_model, &p.shape) {
            (Some(title), _) => title.to_owned(),
            (None, Shape::Component(c)) => c.title.clone(),
            (None, Shape::Placeholder(b)) => b.caption.clone(),
            (None, _) => format!("{} {}", p.kind().as_str(), p.id),
        }
    }
}

/// A component named `name`, standing in for a deleted line end.
fn stand_in(name: &str) -> DiagramObject {
    DiagramObject {
        kind: "component".to_owned(),
        data: json!({"name": name, "position": {"x": 0, "y": 0}})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    }
}

/// `text` on one line: its lines joined by spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, half: f64) -> serde_json::Value {
        json!([
            {"x": x - half, "y": y - half}, {"x": x + half, "y": y - half},
            {"x": x + half, "y": y + half}, {"x": x - half, "y": y + half}
        ])
    }

    fn content() -> Content {
        serde_json::from_value(json!({
            "c1": {"type": "component", "data": {"componentId": "networking.aws-amazon-cloudfront",
                "name": "CDN", "position": {"x": 0, "y": 0}, "meta": {"status": "up"}}},
            "c2": {"type": "component", "data": {"componentId": "computation.aws-ec2",
                "position": {"x": 20, "y": 0}}},
            "c3": {"type": "component", "data": {"componentId": "generic.server", "name": "web-02",
                "position": {"x": 24, "y": 0}}},
            "c4": {"type": "component", "data": {"componentId": "generic.server", "name": "web-03",
                "position": {"x": 28, "y": 0}}},
            "l1": {"type": "line-group", "data": {
                "anchors": [{"type": 1, "id": "c1", "index": 1}, {"type": 1, "id": "c2", "index": 0}],
                "lines": [[0, 1]], "arrowAnchorIndices": {"1": true}}},
            "a1": {"type": "area", "data": {"anchors": square(0.0, 0.0, 5.0),
                "fillColor": "#E8F1FB", "meta": {"kind": "vpc", "region": "eu-west-1"}}},
            "a2": {"type": "area", "data": {"anchors": square(0.0, 0.0, 4.0), "fillColor": "#F3F3F3"}},
            "a3": {"type": "area", "data": {"anchors": square(24.0, 0.0, 6.0), "fillColor": "#F3F3F3"}},
            "t1": {"type": "label", "data": {"text": "production\nVPC", "position": {"x": 0, "y": -3}}},
            "i1": {"type": "icon", "data": {"icon": "bolt", "position": {"x": 20, "y": 0}}},
        }))
        .unwrap()
    }

    #[test]
    fn a_line_group_names_an_end_of_several_lines_on_one_line() {
        let content: Content = serde_json::from_value(json!({
            "c1": {"type": "component", "data": {"componentId": "generic.server",
                "name": "Terminate pending\nworkflows", "position": {"x": 0, "y": 0}}},
            "c2": {"type": "component", "data": {"componentId": "generic.server",
                "name": "Cancel", "position": {"x": 10, "y": 0}}},
            "l1": {"type": "line-group", "data": {
                "anchors": [{"type": 1, "id": "c1", "index": 1}, {"type": 1, "id": "c2", "index": 0}],
                "lines": [[0, 1]], "arrowAnchorIndices": {"1": true}}},
        }))
        .unwrap();
        let model = ObjectModel::new(content.clone());
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let names = Names::new(Some(&model), Some(&scene));
        assert_eq!(names.text("l1"), "Terminate pending workflows → Cancel");
    }

    #[test]
    fn each_type_is_named_by_what_it_says_and_what_lies_around_it() {
        let content = content();
        let model = ObjectModel::new(content.clone());
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let names = Names::new(Some(&model), Some(&scene));
        let cdn = names.of("c1");
        assert_eq!(cdn.title, "CDN");
        assert_eq!(
            cdn.hint,
            Hint::Text("networking.aws-amazon-cloudfront".into())
        );
        assert_eq!(cdn.detail, "[status=up] · 1 connection");
        assert_eq!(
            names.text("c2"),
            "aws ec2",
            "the componentId's last part, readable"
        );
        assert_eq!(
            names.text("l1"),
            "CDN → aws ec2",
            "the same name at a line's end"
        );
        let vpc = names.of("a1");
        assert_eq!(vpc.title, "vpc · eu-west-1", "an area's meta names it");
        assert_eq!(vpc.detail, "production VPC", "then the labels it encloses");
        assert_eq!(
            vpc.hint,
            Hint::Swatch {
                hex: "#E8F1FB".into(),
                rgb: Some(Rgb::new(0xE8, 0xF1, 0xFB))
            }
        );
        let inner = names.of("a2");
        assert_eq!(
            (inner.title.as_str(), inner.detail.as_str()),
            ("production VPC", "around CDN")
        );
        assert_eq!(names.text("a3"), "around aws ec2, web-02 +1");
        assert_eq!(names.text("t1"), "production VPC");
        let icon = names.of("i1");
        assert_eq!(
            (icon.title.as_str(), icon.detail.as_str()),
            ("bolt", "on aws ec2")
        );
        assert_eq!(icon.described(), "icon bolt");
        let unknown = names.of("gone");
        assert_eq!(
            (unknown.title.as_str(), unknown.kind.as_str()),
            ("gone", "object")
        );

        // Without a scene, what the data says.
        let bare = Names::new(Some(&model), None);
        assert_eq!(bare.text("l1"), "2 anchors, 1 line");
        assert_eq!(bare.text("a2"), "4 corners");
        assert_eq!(bare.of("c1").detail, "[status=up]");
    }

    #[test]
    fn a_line_group_whose_end_was_deleted_names_it_by_its_last_name() {
        let mut content = content();
        content.remove("c2");
        let model = ObjectModel::new(content.clone());
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        assert!(scene.get("l1").is_none(), "the scene cannot draw it");
        let mut departed = Departed::default();
        let names = Names::new(Some(&model), Some(&scene));
        assert_eq!(names.text("l1"), "CDN → (missing) c2", "never seen: its id");
        departed.note("c2", "aws ec2");
        let names = names.with_departed(&departed);
        assert_eq!(names.text("l1"), "CDN → (deleted) aws ec2");
        assert_eq!(
            names.of("l1").detail,
            "",
            "the anchors' count is not the name"
        );
        let bare = Names::new(Some(&model), None).with_departed(&departed);
        assert_eq!(
            bare.text("l1"),
            "2 anchors, 1 line",
            "no scene yet: the data"
        );
    }

    #[test]
    fn a_row_keeps_the_title_and_gives_up_the_rest_first() {
        let content = content();
        let model = ObjectModel::new(content);
        let names = Names::new(Some(&model), None);
        let theme = Theme::dark();
        let text = |width: usize| -> String {
            let line = names.of("c1").row(width, false, &theme);
            line.spans.iter().map(|s| s.content.as_ref()).collect()
        };
        assert_eq!(
            text(80),
            "  CDN [status=up] networking.aws-amazon-cloudfront c1"
        );
        assert_eq!(
            text(30),
            "  CDN [status=up] networking.…",
            "the status before the componentId"
        );
        assert_eq!(text(5), "  CDN");
        assert_eq!(text(4), "  C…");
        assert_eq!(text(2), "  …", "no room at all: no panic");
        let line = names.of("c1").row(80, true, &theme);
        assert_eq!(line.spans[0].content, "● ");
        assert_eq!(line.spans[1].content, "CDN");
        assert_eq!(
            line.spans[1].style,
            theme.of(Role::StatusGood),
            "the title in its status's style"
        );
        assert_eq!(
            line.spans[3].style,
            theme.of(Role::Dim),
            "the componentId dimmed"
        );
        let plain = names.of("c1").row(80, false, &Theme::plain());
        assert_eq!(plain.spans[1].content, "✓ CDN", "a glyph without colours");
        let bare = names.of("c2").row(80, false, &Theme::plain());
        assert_eq!(bare.spans[1].content, "aws ec2", "no status, no glyph");
        assert_eq!(
            names.of("c1").words(),
            "component   CDN  [status=up]  networking.aws-amazon-cloudfront  c1"
        );
    }

    #[test]
    fn a_status_is_read_first_from_the_meta_summary() {
        assert_eq!(status_in("[status=down region=eu]"), Some(Status::Error));
        assert_eq!(status_in("[status=degraded]"), Some(Status::Warning));
        assert_eq!(
            status_in("[status=unknown] · 2 connections"),
            Some(Status::Unknown)
        );
        assert_eq!(status_in("[region=eu]"), None);
        assert_eq!(status_in(""), None);
    }

    #[test]
    fn an_area_shows_its_colour_as_a_swatch_or_without_colours_its_hex() {
        let content = content();
        let model = ObjectModel::new(content.clone());
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let name = Names::new(Some(&model), Some(&scene)).of("a1");
        let swatch = &name.line(60, &Theme::dark()).spans[1];
        assert_eq!(swatch.content, " ■");
        assert_eq!(swatch.style.fg, Some(Color::Rgb(0xE8, 0xF1, 0xFB)));
        let plain = &name.line(60, &Theme::plain()).spans[1];
        assert_eq!((plain.content.as_ref(), plain.style.fg), (" #E8F1FB", None));
    }
}
