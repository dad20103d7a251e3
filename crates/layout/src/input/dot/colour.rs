//! DOT colours as `#RRGGBB`: `#rrggbb` (and `#rrggbbaa`, `#rgb`), `H,S,V` and `H S V`, X11
//! names (X.org's `rgb.txt`, as Graphviz's default scheme; `/x11/name` too), the first colour
//! of a list (`red:blue`, `red;0.3:blue`). `transparent`, `none` and `invis` are no colour.

/// The X11 names and their colours, one "name #RRGGBB" a line (scripts/x11-colours.sh).
const X11: &str = include_str!("x11-colours.txt");

/// What a colour value reads as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Colour {
    /// A colour.
    Hex(String),
    /// No colour at all (`transparent`, `none`, `invis`, empty).
    Nothing,
    /// Not a colour this reader knows.
    Unknown,
}

/// Reads a DOT colour value.
pub fn colour(value: &str) -> Colour {
    let first = value.split(':').next().unwrap_or("");
    let first = first.split(';').next().unwrap_or("").trim();
    let lower = first.to_ascii_lowercase();
    let name = lower.strip_prefix("/x11/").unwrap_or(&lower);
    if matches!(name, "" | "transparent" | "none" | "invis") {
        return Colour::Nothing;
    }
    if let Some(hex) = name.strip_prefix('#') {
        return hex_colour(hex).map_or(Colour::Unknown, Colour::Hex);
    }
    if name.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return hsv(name).map_or(Colour::Unknown, Colour::Hex);
    }
    let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    X11.lines()
        .find_map(|line| {
            let (n, hex) = line.split_once(' ')?;
            (n == name).then(|| Colour::Hex(hex.to_owned()))
        })
        .unwrap_or(Colour::Unknown)
}

/// `rrggbb`, `rrggbbaa` (the alpha dropped) or `rgb`.
fn hex_colour(hex: &str) -> Option<String> {
    if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    match hex.len() {
        6 | 8 => Some(format!("#{}", hex[..6].to_ascii_uppercase())),
        3 => Some(
            hex.chars()
                .flat_map(|c| [c, c])
                .fold("#".to_owned(), |mut s, c| {
                    s.push(c.to_ascii_uppercase());
                    s
                }),
        ),
        _ => None,
    }
}

/// `H,S,V` or `H S V` (each 0 to 1) as RGB.
fn hsv(value: &str) -> Option<String> {
    let parts: Vec<f64> = value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, s, v] = parts[..] else { return None };
    let clamp = |x: f64| x.clamp(0.0, 1.0);
    let (h, s, v) = (clamp(h) * 6.0, clamp(s), clamp(v));
    let sector = (h.floor() as i64).rem_euclid(6);
    let f = h - h.floor();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match sector {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    let byte = |x: f64| (x * 255.0).round() as u8;
    Some(format!("#{:02X}{:02X}{:02X}", byte(r), byte(g), byte(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Colour {
        Colour::Hex(s.into())
    }

    #[test]
    fn every_form() {
        assert_eq!(colour("#ff8000"), hex("#FF8000"));
        assert_eq!(colour("#ff800080"), hex("#FF8000"));
        assert_eq!(colour("#abc"), hex("#AABBCC"));
        assert_eq!(colour("red"), hex("#FF0000"));
        assert_eq!(colour("LightGrey"), hex("#D3D3D3"));
        assert_eq!(colour("/x11/navyblue"), hex("#000080"));
        assert_eq!(colour("gray50"), hex("#7F7F7F"));
        assert_eq!(colour("blue:red"), hex("#0000FF"));
        assert_eq!(colour("green;0.3:red"), hex("#00FF00"));
        assert_eq!(colour("0.000 1.000 1.000"), hex("#FF0000"));
        assert_eq!(colour("0.5,1,1"), hex("#00FFFF"));
        assert_eq!(colour("transparent"), Colour::Nothing);
        assert_eq!(colour("nosuchcolour"), Colour::Unknown);
        assert_eq!(colour("#12"), Colour::Unknown);
        assert_eq!(colour("/blues9/3"), Colour::Unknown);
    }
}
