//! Checking raw entries and resolving them into a [`Model`]: every refusal names the entry and
//! the field at fault, and the first one found refuses the whole input.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::error::{LayoutError, LayoutResult};
use crate::fields::Fields;
use crate::input::{MAX_ID_CHARS, RawEntry};
use crate::model::{Anchor, Component, Direction, End, Group, GroupLabel, Link, Model, Position};
use crate::tiers::default_tier;
use diagtui_model::props::is_colour;

/// The largest `minLength` of a connection: more layers than the grid could hold.
pub const MAX_MIN_LENGTH: usize = 20;

/// The entry types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Component,
    Group,
    Connection,
}

/// An entry with its type known and its fields being read.
struct Typed {
    kind: Kind,
    fields: Fields,
}

/// What a component or group entry links to, resolved after every id is known.
struct Declared {
    source: End,
    entry: String,
    connections: Vec<String>,
    arrows_to: ArrowsTo,
}

/// The targets that get an arrowhead.
enum ArrowsTo {
    All,
    These(Vec<String>),
}

/// A relative position, resolved after every id is known.
struct RelativeTo {
    component: usize,
    target: String,
    x: f64,
    y: f64,
    point: (f64, f64),
}

/// Checks raw entries and resolves them; the diagram's flow runs in `direction`.
pub fn check(raw: Vec<RawEntry>, direction: Direction) -> LayoutResult<Model> {
    let typed = classify(raw)?;
    let mut builder = Builder::default();
    builder.model.direction = direction;
    for entry in &typed {
        if entry.kind == Kind::Component {
            builder
                .component_ids
                .insert(entry.fields.entry().to_owned(), builder.component_ids.len());
        }
    }
    let mut connections = Vec::new();
    for Typed { kind, fields } in typed {
        match kind {
            Kind::Component => builder.component(fields)?,
            Kind::Group => builder.group_entry(fields)?,
            Kind::Connection => connections.push(fields),
        }
    }
    builder.check_group_cycles()?;
    builder.resolve_relative()?;
    builder.links(connections)?;
    let mut model = builder.model;
    let (loops, links) = std::mem::take(&mut model.links)
        .into_iter()
        .partition(|l| l.from == l.to);
    (model.loops, model.links) = (loops, links);
    Ok(model)
}

/// Types every entry, refusing empty, long and duplicate ids and unknown types.
fn classify(raw: Vec<RawEntry>) -> LayoutResult<Vec<Typed>> {
    let mut seen = HashSet::new();
    raw.into_iter()
        .map(|RawEntry { id, fields, textual }| {
            if id.trim().is_empty() {
                return Err(LayoutError::setting("id", "an entry's id must not be empty"));
            }
            if id.chars().count() > MAX_ID_CHARS {
                return Err(LayoutError::field(&id, "id", format!("is longer than {MAX_ID_CHARS} characters")));
            }
            if !seen.insert(id.clone()) {
                return Err(LayoutError::field(&id, "id", "is used by more than one entry"));
            }
            let mut fields = Fields::new(&id, fields, textual);
            let kind = match fields.text("type")?.as_deref().map(str::trim) {
                Some("component") => Kind::Component,
                Some("group") => Kind::Group,
                Some("connection") => Kind::Connection,
                Some(other @ ("image" | "frame")) => {
                    return Err(fields.error("type", format!("\"{other}\" entries are not supported by this server (component, group, connection)")));
                }
                Some(other) => {
                    return Err(fields.error("type", format!("unknown type \"{other}\" (expected component, group or connection)")));
                }
                None => return Err(fields.error("type", "is required (component, group or connection)")),
            };
            Ok(Typed { kind, fields })
        })
        .collect()
}

/// The model being built, and what is resolved once every entry is read.
#[derive(Default)]
struct Builder {
    model: Model,
    component_ids: HashMap<String, usize>,
    group_ids: HashMap<String, usize>,
    /// The entry that set each group's parent, for messages.
    parent_set_by: HashMap<usize, String>,
    declared: Vec<Declared>,
    relative: Vec<RelativeTo>,
}

impl Builder {
    /// The index of group `id`, registering it when first named.
    fn group_index(&mut self, fields: &Fields, field: &str, id: &str) -> LayoutResult<usize> {
        if self.component_ids.contains_key(id) {
            return Err(fields.error(
                field,
                format!("names \"{id}\", which is a component, not a group"),
            ));
        }
        if let Some(index) = self.group_ids.get(id) {
            return Ok(*index);
        }
        let index = self.model.groups.len();
        self.group_ids.insert(id.to_owned(), index);
        self.model.groups.push(Group {
            id: id.to_owned(),
            parent: None,
            direction: None,
            label: None,
            props: Map::new(),
        });
        Ok(index)
    }

    /// Reads a component entry.
    fn component(&mut self, mut f: Fields) -> LayoutResult<()> {
        let index = self.model.components.len();
        let component_id = f
            .text("componentType")?
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                f.error(
                    "componentType",
                    "is required (a component id such as \"generic.server\")",
                )
            })?;
        let groups = f.list("groups")?;
        let mut group = None;
        for id in &groups {
            let g = self.group_index(&f, "groups", id)?;
            if let Some(outer) = group {
                if g == outer {
                    return Err(f.error("groups", format!("names \"{id}\" twice")));
                }
                self.set_parent(&f, g, outer)?;
            }
            group = Some(g);
        }
        let given_tier = f.number("tier")?;
        let tier = given_tier.unwrap_or_else(|| default_tier(&component_id));
        let label = f.text("label")?;
        let position = self.position(&mut f, index)?;
        self.declare(&mut f, End::Component(index))?;
        f.list("frames")?;
        let mut meta = f.object("meta")?;
        meta.extend(f.prefixed("meta-"));
        let id = f.entry().to_owned();
        let mut props = f.rest();
        props.insert("componentId".into(), Value::String(component_id.clone()));
        if !meta.is_empty() {
            props.insert("meta".into(), Value::Object(meta));
        }
        check_props(&id, &props)?;
        self.model.components.push(Component {
            id,
            component_id,
            group,
            tier,
            tier_given: given_tier.is_some(),
            label,
            position,
            props,
        });
        Ok(())
    }

    /// Makes `outer` the parent of group `inner`, refusing a second, different parent.
    fn set_parent(&mut self, f: &Fields, inner: usize, outer: usize) -> LayoutResult<()> {
        match self.model.groups[inner].parent {
            Some(p) if p != outer => Err(f.error(
                "groups",
                format!(
                    "puts group \"{}\" inside \"{}\", but entry \"{}\" puts it inside \"{}\"",
                    self.model.groups[inner].id,
                    self.model.groups[outer].id,
                    self.parent_set_by[&inner],
                    self.model.groups[p].id
                ),
            )),
            Some(_) => Ok(()),
            None => {
                self.model.groups[inner].parent = Some(outer);
                self.parent_set_by.insert(inner, f.entry().to_owned());
                Ok(())
            }
        }
    }

    /// Reads a component's position fields.
    fn position(&mut self, f: &mut Fields, index: usize) -> LayoutResult<Position> {
        let kind = f
            .choice("positionType", &["auto", "relative", "absolute"])?
            .unwrap_or("auto");
        let to = f.text("positionRelativeTo")?;
        let point_x = f.choice("positionPointX", &["left", "middle", "right"])?;
        let point_y = f.choice("positionPointY", &["top", "middle", "bottom"])?;
        if kind == "auto" {
            // Offsets without a position type mean nothing; they are not passed through either.
            f.number("positionX")?;
            f.number("positionY")?;
            return Ok(Position::Auto);
        }
        let mut offset = |field: &str| -> LayoutResult<f64> {
            f.number(field)?
                .ok_or_else(|| f.error(field, format!("is required when positionType is {kind}")))
        };
        let (x, y) = (offset("positionX")?, offset("positionY")?);
        if kind == "absolute" {
            return Ok(Position::Absolute { x, y });
        }
        let target = to.ok_or_else(|| {
            f.error(
                "positionRelativeTo",
                "is required when positionType is relative",
            )
        })?;
        let fraction = |p: Option<&str>| match p {
            Some("left" | "top") => 0.0,
            Some("right" | "bottom") => 1.0,
            _ => 0.5,
        };
        self.relative.push(RelativeTo {
            component: index,
            target,
            x,
            y,
            point: (fraction(point_x), fraction(point_y)),
        });
        // Resolved once every id is known.
        Ok(Position::Absolute { x, y })
    }

    /// Reads what a component or group links to.
    fn declare(&mut self, f: &mut Fields, source: End) -> LayoutResult<()> {
        let connections = f.list("connections")?;
        let arrows_to = match f.list("arrowsTo")?.as_slice() {
            [all] if all.eq_ignore_ascii_case("all") => ArrowsTo::All,
            ids => ArrowsTo::These(ids.to_vec()),
        };
        self.declared.push(Declared {
            source,
            entry: f.entry().to_owned(),
            connections,
            arrows_to,
        });
        Ok(())
    }

    /// Reads a group entry.
    fn group_entry(&mut self, mut f: Fields) -> LayoutResult<()> {
        let id = f.entry().to_owned();
        let index = self.group_index(&f, "id", &id)?;
        let text = f.text("label")?;
        let block = f
            .choice("labelStyle", &["block", "inline"])?
            .unwrap_or("block")
            == "block";
        let align = f
            .choice("labelAlign", &["left", "center", "right"])?
            .unwrap_or("right");
        let top = f
            .choice("labelPosition", &["top", "bottom"])?
            .unwrap_or("bottom")
            == "top";
        let placement = f
            .choice("labelPlacementOnLine", &["above", "on", "below"])?
            .unwrap_or("on");
        let font_size = positive(&mut f, "labelFontSize")?.unwrap_or(if block { 0.5 } else { 0.2 });
        let mut label_props = Map::new();
        let given_colour = colour(&mut f, "labelFontColor")?;
        let colour_given = given_colour.is_some();
        let font_colour =
            given_colour.unwrap_or_else(|| if block { "#FFFFFF" } else { "#333333" }.into());
        label_props.insert("color".into(), Value::String(font_colour));
        let bold = f.boolean("labelBold")?.unwrap_or(true);
        let italic = f.boolean("labelItalic")?.unwrap_or(false);
        label_props.insert("fontStyle".into(), json!({"bold": bold, "italic": italic}));
        if let Some(font) = f.text("labelFont")? {
            label_props.insert("fontFamily".into(), Value::String(font));
        }
        let outline = colour(&mut f, "labelOutlineColor")?.unwrap_or_else(|| "#FFFFFF".into());
        label_props.insert("outlineColor".into(), Value::String(outline));
        let outline_width = f.number("labelOutlineWidth")?.unwrap_or(0.075);
        label_props.insert("outlineWidth".into(), json!(outline_width));
        let names = Direction::NAMES.map(|(name, _)| name);
        let direction = f
            .choice("direction", &names)?
            .and_then(Direction::from_name);
        self.declare(&mut f, End::Group(index))?;
        let mut props = Map::new();
        props.insert("fillColor".into(), json!("#FFFFFF"));
        props.insert("lineWidth".into(), json!(0.05));
        props.insert("areaType".into(), json!(0));
        props.insert("wallHeight".into(), json!(2));
        props.insert("wallColor".into(), json!("#CCCCCC"));
        if let Some(dash) = dash(&mut f)? {
            props.insert("lineDash".into(), json!(dash));
        }
        props.extend(f.rest());
        check_props(&id, &props)?;
        let group = &mut self.model.groups[index];
        group.props = props;
        group.direction = direction;
        group.label = text.map(|text| GroupLabel {
            text,
            block,
            align,
            top,
            placement,
            font_size,
            props: label_props,
            colour_given,
        });
        Ok(())
    }

    /// Refuses groups that end up inside themselves.
    fn check_group_cycles(&self) -> LayoutResult<()> {
        for start in 0..self.model.groups.len() {
            let mut at = start;
            for _ in 0..=self.model.groups.len() {
                match self.model.groups[at].parent {
                    Some(p) if p == start => {
                        return Err(LayoutError::field(
                            &self.parent_set_by[&at],
                            "groups",
                            format!(
                                "makes group \"{}\" lie inside itself (a cycle of groups)",
                                self.model.groups[start].id
                            ),
                        ));
                    }
                    Some(p) => at = p,
                    None => break,
                }
            }
        }
        Ok(())
    }

    /// Resolves relative positions, refusing unknown references and cycles.
    fn resolve_relative(&mut self) -> LayoutResult<()> {
        for r in &self.relative {
            let entry = &self.model.components[r.component].id;
            let to = if let Some(c) = self.component_ids.get(&r.target) {
                if *c == r.component {
                    return Err(LayoutError::field(
                        entry,
                        "positionRelativeTo",
                        "names the component itself",
                    ));
                }
                Anchor::Component(*c)
            } else if let Some(g) = self.group_ids.get(&r.target) {
                Anchor::Group(*g, r.point.0, r.point.1)
            } else {
                return Err(LayoutError::field(
                    entry,
                    "positionRelativeTo",
                    format!("names \"{}\", which is no component or group", r.target),
                ));
            };
            self.model.components[r.component].position = Position::Relative { to, x: r.x, y: r.y };
        }
        for start in 0..self.model.components.len() {
            let mut at = start;
            for _ in 0..=self.model.components.len() {
                match self.model.components[at].position {
                    Position::Relative {
                        to: Anchor::Component(next),
                        ..
                    } if next == start => {
                        return Err(LayoutError::field(
                            &self.model.components[start].id,
                            "positionRelativeTo",
                            "makes a cycle of relative positions",
                        ));
                    }
                    Position::Relative {
                        to: Anchor::Component(next),
                        ..
                    } => at = next,
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// The end an id names, refusing one that names nothing.
    fn end(&self, entry: &str, field: &str, id: &str) -> LayoutResult<End> {
        if let Some(c) = self.component_ids.get(id) {
            Ok(End::Component(*c))
        } else if let Some(g) = self.group_ids.get(id) {
            Ok(End::Group(*g))
        } else {
            Err(LayoutError::field(
                entry,
                field,
                format!("names \"{id}\", which is no component or group"),
            ))
        }
    }

    /// The links of the entries' `connections` lists, with the arrow tips their `arrowsTo`
    /// asks for.
    fn listed_links(&mut self, by_pair: &mut BTreeMap<(End, End), usize>) -> LayoutResult<()> {
        for d in std::mem::take(&mut self.declared) {
            let targets: Vec<End> = d
                .connections
                .iter()
                .map(|id| self.end(&d.entry, "connections", id))
                .collect::<LayoutResult<_>>()?;
            if let ArrowsTo::These(ids) = &d.arrows_to {
                for id in ids {
                    if !d.connections.contains(id) {
                        self.end(&d.entry, "arrowsTo", id)?;
                        return Err(LayoutError::field(
                            &d.entry,
                            "arrowsTo",
                            format!("names \"{id}\", which is not among its connections"),
                        ));
                    }
                }
            }
            for (target, id) in targets.into_iter().zip(&d.connections) {
                if target == d.source {
                    return Err(LayoutError::field(
                        &d.entry,
                        "connections",
                        "names the entry itself",
                    ));
                }
                let arrow = match &d.arrows_to {
                    ArrowsTo::All => true,
                    ArrowsTo::These(ids) => ids.contains(id),
                };
                let link = self.link(by_pair, d.source, target);
                if self.model.links[link].from == d.source {
                    self.model.links[link].arrow_end |= arrow;
                } else {
                    self.model.links[link].arrow_start |= arrow;
                }
            }
        }
        Ok(())
    }

    /// Builds the links: from `connections` lists, then from connection entries.
    fn links(&mut self, connections: Vec<Fields>) -> LayoutResult<()> {
        let mut by_pair: BTreeMap<(End, End), usize> = BTreeMap::new();
        self.listed_links(&mut by_pair)?;
        let mut described: HashSet<usize> = HashSet::new();
        for mut f in connections {
            let entry = f.entry().to_owned();
            let from = f
                .text("from")?
                .ok_or_else(|| f.error("from", "is required"))?;
            let to = f.text("to")?.ok_or_else(|| f.error("to", "is required"))?;
            let from = self.end(&entry, "from", from.trim())?;
            let to = self.end(&entry, "to", to.trim())?;
            if from == to && matches!(from, End::Group(_)) {
                return Err(f.error("to", "names the same group as from"));
            }
            // The first entry for a pair describes the pair's link (which a `connections` list
            // may have made); each further entry is a line of its own.
            let mut link = self.link(&mut by_pair, from, to);
            if !described.insert(link) {
                link = self.new_link(from, to);
                described.insert(link);
            }
            let start = f.boolean("arrowStart")?.unwrap_or(false);
            let end = f.boolean("arrowEnd")?.unwrap_or(false);
            let invisible = f.boolean("invisible")?.unwrap_or(false);
            let l = &mut self.model.links[link];
            let forward = l.from == from;
            if forward {
                l.arrow_start |= start;
                l.arrow_end |= end;
            } else {
                l.arrow_start |= end;
                l.arrow_end |= start;
            }
            let mut props = Map::new();
            if let Some(c) = colour(&mut f, "lineColor")? {
                props.insert("strokeStyle".into(), Value::String(c));
            }
            if let Some(w) = positive(&mut f, "lineWidth")? {
                props.insert("lineWidth".into(), json!(w));
            }
            if let Some(d) = dash(&mut f)? {
                props.insert("lineDash".into(), json!(d));
            }
            let middle = f
                .text("component")?
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty());
            let label = f.text("label")?;
            let min_length = match f.number("minLength")? {
                None => 1,
                Some(n) if n >= 1.0 && n <= MAX_MIN_LENGTH as f64 && n.fract() == 0.0 => n as usize,
                Some(n) => {
                    return Err(f.error(
                        "minLength",
                        format!("{n} is not a whole number from 1 to {MAX_MIN_LENGTH}"),
                    ));
                }
            };
            props.extend(f.rest());
            check_props(&entry, &props)?;
            let l = &mut self.model.links[link];
            l.id = entry;
            l.props.extend(props);
            l.middle = middle;
            l.label = label;
            l.invisible = invisible;
            l.min_length = min_length;
        }
        Ok(())
    }

    /// The link between `a` and `b`, made (from `a` to `b`) when first declared.
    fn link(&mut self, by_pair: &mut BTreeMap<(End, End), usize>, a: End, b: End) -> usize {
        let key = if a <= b { (a, b) } else { (b, a) };
        if let Some(link) = by_pair.get(&key) {
            return *link;
        }
        let link = self.new_link(a, b);
        by_pair.insert(key, link);
        link
    }

    /// A new link from `a` to `b`, with the default style and the id `a->b`.
    fn new_link(&mut self, a: End, b: End) -> usize {
        let name = |e: End| match e {
            End::Component(i) => self.model.components[i].id.clone(),
            End::Group(i) => self.model.groups[i].id.clone(),
        };
        let id = format!("{}->{}", name(a), name(b));
        self.model.links.push(Link {
            id,
            from: a,
            to: b,
            arrow_start: false,
            arrow_end: false,
            props: Map::from_iter([
                ("strokeStyle".to_owned(), json!("#E61898")),
                ("lineWidth".to_owned(), json!(0.05)),
                ("lineDash".to_owned(), json!(1)),
            ]),
            middle: None,
            label: None,
            invisible: false,
            min_length: 1,
        });
        self.model.links.len() - 1
    }
}

/// A positive number field.
fn positive(f: &mut Fields, field: &str) -> LayoutResult<Option<f64>> {
    match f.number(field)? {
        Some(n) if n <= 0.0 => Err(f.error(field, "must be a positive number")),
        other => Ok(other),
    }
}

/// A colour field (`#RRGGBB`).
fn colour(f: &mut Fields, field: &str) -> LayoutResult<Option<String>> {
    match f.text(field)? {
        Some(c) if !is_colour(c.trim()) => {
            Err(f.error(field, format!("\"{c}\" is not a colour: expected #RRGGBB")))
        }
        other => Ok(other.map(|c| c.trim().to_owned())),
    }
}

/// `lineDash`: `solid`, `dashed` or `dotted` (or 1, 2, 3) as the number the objects store.
fn dash(f: &mut Fields) -> LayoutResult<Option<u8>> {
    Ok(match f.text("lineDash")?.as_deref().map(str::trim) {
        None => None,
        Some("solid" | "1") => Some(1),
        Some("dashed" | "2") => Some(2),
        Some("dotted" | "3") => Some(3),
        Some(other) => {
            return Err(f.error(
                "lineDash",
                format!("\"{other}\" is not one of solid, dashed, dotted"),
            ));
        }
    })
}

/// Refuses properties that break the object rules, naming the entry and the field.
fn check_props(entry: &str, props: &Map<String, Value>) -> LayoutResult<()> {
    for (name, value) in props {
        if let Some(problem) = diagtui_model::props::check_property(name, value) {
            return Err(LayoutError::field(
                entry,
                &problem.property,
                problem.message,
            ));
        }
    }
    Ok(())
}
