//! Styles: the CSS-like lists of `classDef`, `style` and `linkStyle`
//! (`fill:#f9f,stroke:#333,stroke-width:4px,stroke-dasharray: 5 5`), read into the few
//! properties objects can show, colours as `#RRGGBB`.

/// The properties of a style list that objects can show.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Style {
    /// `fill`: a node's or a subgraph's colour.
    pub fill: Option<String>,
    /// `stroke`: a subgraph's border or an edge's line colour.
    pub stroke: Option<String>,
    /// `color`: a subgraph's title colour.
    pub color: Option<String>,
    /// `stroke-width` in CSS pixels.
    pub stroke_width: Option<f64>,
    /// `stroke-dasharray` given (not `none` or `0`).
    pub dashed: Option<bool>,
}

impl Style {
    /// Reads a style list; colours that cannot be read (and `transparent`, `none`) are left
    /// out, the unknown ones named in `unknown`.
    pub fn parse(list: &str, unknown: &mut Vec<String>) -> Style {
        let mut style = Style::default();
        for item in items(list) {
            let Some((name, value)) = item.split_once(':') else {
                continue;
            };
            let name = name.trim().to_ascii_lowercase();
            let value = value.trim().trim_end_matches("!important").trim();
            let mut colour = |value: &str| match colour(value) {
                Colour::Hex(hex) => Some(hex),
                Colour::None => None,
                Colour::Unknown => {
                    unknown.push(value.to_owned());
                    None
                }
            };
            match name.as_str() {
                "fill" | "background" | "background-color" => style.fill = colour(value),
                "stroke" => style.stroke = colour(value),
                "color" => style.color = colour(value),
                "stroke-width" => {
                    style.stroke_width = value.trim_end_matches("px").trim().parse().ok();
                }
                "stroke-dasharray" => {
                    style.dashed = Some(!matches!(value, "" | "none" | "0"));
                }
                _ => {}
            }
        }
        style
    }

    /// This style with `over`'s properties on top (the later statement wins).
    pub fn and(&self, over: &Style) -> Style {
        Style {
            fill: over.fill.clone().or_else(|| self.fill.clone()),
            stroke: over.stroke.clone().or_else(|| self.stroke.clone()),
            color: over.color.clone().or_else(|| self.color.clone()),
            stroke_width: over.stroke_width.or(self.stroke_width),
            dashed: over.dashed.or(self.dashed),
        }
    }
}

/// The items of a style list: split at `,` and `;` outside parentheses (`rgb(1, 2, 3)`).
fn items(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut from) = (0usize, 0);
    for (at, c) in list.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' | ';' if depth == 0 => {
                items.push(&list[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    items.push(&list[from..]);
    items
}

/// A colour as read.
#[derive(Debug, PartialEq)]
enum Colour {
    /// `#RRGGBB`.
    Hex(String),
    /// No colour: `transparent`, `none`.
    None,
    /// Not a colour we can read.
    Unknown,
}

/// Reads a CSS colour: `#rgb`, `#rrggbb` (`#rrggbbaa` loses its alpha), `rgb(r, g, b)`, or a
/// name.
fn colour(value: &str) -> Colour {
    let value = value.trim();
    if let Some(hex) = value.strip_prefix('#') {
        if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Colour::Unknown;
        }
        let full: String = match hex.len() {
            3 | 4 => hex.chars().take(3).flat_map(|c| [c, c]).collect(),
            6 | 8 => hex[..6].to_owned(),
            _ => return Colour::Unknown,
        };
        return Colour::Hex(format!("#{}", full.to_ascii_uppercase()));
    }
    let lower = value.to_ascii_lowercase();
    if let Some(args) = lower
        .strip_prefix("rgba(")
        .or_else(|| lower.strip_prefix("rgb("))
        .and_then(|a| a.strip_suffix(')'))
    {
        let parts: Vec<u8> = args
            .split([',', ' ', '/'])
            .filter(|p| !p.is_empty())
            .take(3)
            .filter_map(|p| p.trim().parse().ok())
            .collect();
        return match parts[..] {
            [r, g, b] => Colour::Hex(format!("#{r:02X}{g:02X}{b:02X}")),
            _ => Colour::Unknown,
        };
    }
    if matches!(lower.as_str(), "transparent" | "none") {
        return Colour::None;
    }
    NAMES
        .iter()
        .find(|(name, _)| *name == lower)
        .map_or(Colour::Unknown, |(_, hex)| Colour::Hex(format!("#{hex}")))
}

/// CSS colour names as flowcharts use them, with their values.
const NAMES: [(&str, &str); 60] = [
    ("black", "000000"),
    ("white", "FFFFFF"),
    ("red", "FF0000"),
    ("green", "008000"),
    ("blue", "0000FF"),
    ("yellow", "FFFF00"),
    ("orange", "FFA500"),
    ("purple", "800080"),
    ("pink", "FFC0CB"),
    ("brown", "A52A2A"),
    ("gray", "808080"),
    ("grey", "808080"),
    ("silver", "C0C0C0"),
    ("maroon", "800000"),
    ("olive", "808000"),
    ("lime", "00FF00"),
    ("aqua", "00FFFF"),
    ("cyan", "00FFFF"),
    ("teal", "008080"),
    ("navy", "000080"),
    ("fuchsia", "FF00FF"),
    ("magenta", "FF00FF"),
    ("gold", "FFD700"),
    ("coral", "FF7F50"),
    ("salmon", "FA8072"),
    ("tomato", "FF6347"),
    ("crimson", "DC143C"),
    ("indigo", "4B0082"),
    ("violet", "EE82EE"),
    ("orchid", "DA70D6"),
    ("plum", "DDA0DD"),
    ("lavender", "E6E6FA"),
    ("beige", "F5F5DC"),
    ("ivory", "FFFFF0"),
    ("khaki", "F0E68C"),
    ("tan", "D2B48C"),
    ("chocolate", "D2691E"),
    ("sienna", "A0522D"),
    ("peru", "CD853F"),
    ("turquoise", "40E0D0"),
    ("skyblue", "87CEEB"),
    ("lightblue", "ADD8E6"),
    ("steelblue", "4682B4"),
    ("royalblue", "4169E1"),
    ("darkblue", "00008B"),
    ("lightgreen", "90EE90"),
    ("darkgreen", "006400"),
    ("seagreen", "2E8B57"),
    ("lightgray", "D3D3D3"),
    ("lightgrey", "D3D3D3"),
    ("darkgray", "A9A9A9"),
    ("darkgrey", "A9A9A9"),
    ("dimgray", "696969"),
    ("gainsboro", "DCDCDC"),
    ("whitesmoke", "F5F5F5"),
    ("darkred", "8B0000"),
    ("darkorange", "FF8C00"),
    ("lightyellow", "FFFFE0"),
    ("lightpink", "FFB6C1"),
    ("slategray", "708090"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_become_hex() {
        assert_eq!(colour("#f9f"), Colour::Hex("#FF99FF".into()));
        assert_eq!(colour("#2962FF"), Colour::Hex("#2962FF".into()));
        assert_eq!(colour("#11223344"), Colour::Hex("#112233".into()));
        assert_eq!(colour("blue"), Colour::Hex("#0000FF".into()));
        assert_eq!(colour("DarkGray"), Colour::Hex("#A9A9A9".into()));
        assert_eq!(colour("rgb(255, 0, 10)"), Colour::Hex("#FF000A".into()));
        assert_eq!(colour("transparent"), Colour::None);
        assert_eq!(colour("#zz"), Colour::Unknown);
        assert_eq!(colour("blurple"), Colour::Unknown);
    }

    #[test]
    fn a_style_list_reads_what_objects_show() {
        let mut unknown = Vec::new();
        let s = Style::parse(
            "fill:#bbf,stroke:#f66,stroke-width:2px,color:#fff,stroke-dasharray: 5 5",
            &mut unknown,
        );
        assert_eq!(s.fill.as_deref(), Some("#BBBBFF"));
        assert_eq!(s.stroke.as_deref(), Some("#FF6666"));
        assert_eq!(s.color.as_deref(), Some("#FFFFFF"));
        assert_eq!(s.stroke_width, Some(2.0));
        assert_eq!(s.dashed, Some(true));
        let r = Style::parse("fill:rgb(255, 0, 10);stroke:#000", &mut unknown);
        assert_eq!(r.fill.as_deref(), Some("#FF000A"));
        assert_eq!(r.stroke.as_deref(), Some("#000000"));
        let t = Style::parse("fill:transparent,stroke:blurple", &mut unknown);
        assert_eq!((t.fill, t.stroke), (None, None));
        assert_eq!(unknown, vec!["blurple".to_owned()]);
        let over = Style::parse("stroke:red", &mut unknown);
        assert_eq!(s.and(&over).stroke.as_deref(), Some("#FF0000"));
        assert_eq!(s.and(&over).fill.as_deref(), Some("#BBBBFF"));
    }
}
