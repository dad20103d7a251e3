//! The seven layout settings, read from query parameters whose names are case-insensitive.

use super::error::{LayoutError, LayoutResult};

/// The layout settings, in grid cells (the first one is a count).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The most items side by side in one row of a tier (default 10).
    pub max_components_per_tier: usize,
    /// Distance between successive tiers (default 3).
    pub tier_gap: f64,
    /// Distance between neighbouring components (default 2).
    pub comp_gap: f64,
    /// Distance between groups, and between a group and a component beside it (default 1).
    pub group_margin: f64,
    /// Distance from a group's border to its contents (default 0.75).
    pub group_padding: f64,
    /// Height of a group's block label band (default 0.75).
    pub label_height: f64,
    /// Space left and right of the text in a block label band (default 0.25).
    pub label_padding: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_components_per_tier: 10,
            tier_gap: 3.0,
            comp_gap: 2.0,
            group_margin: 1.0,
            group_padding: 0.75,
            label_height: 0.75,
            label_padding: 0.25,
        }
    }
}

/// The settings' names, as the documentation spells them.
pub const NAMES: [&str; 7] = [
    "MAX_COMPONENTS_PER_TIER",
    "TIER_GAP",
    "COMP_GAP",
    "GROUP_MARGIN",
    "GROUP_PADDING",
    "LABEL_HEIGHT",
    "LABEL_PADDING",
];

/// The largest distance a setting may have: the grid is 100 cells across.
const MAX_DISTANCE: f64 = 100.0;

impl Settings {
    /// The defaults overridden by `(name, value)` pairs. Names are case-insensitive; an unknown
    /// name, or a value that is not a positive number (a positive whole number for
    /// `MAX_COMPONENTS_PER_TIER`, at most 100 for the distances), is refused naming it.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> LayoutResult<Settings> {
        let mut settings = Settings::default();
        for (name, value) in pairs {
            settings.set(name, value)?;
        }
        Ok(settings)
    }

    /// Sets one setting by its (case-insensitive) name.
    pub fn set(&mut self, name: &str, value: &str) -> LayoutResult<()> {
        let upper = name.to_ascii_uppercase();
        let Some(known) = NAMES.iter().find(|n| **n == upper) else {
            return Err(LayoutError::setting(
                name,
                format!("unknown setting (expected one of {})", NAMES.join(", ")),
            ));
        };
        if *known == "MAX_COMPONENTS_PER_TIER" {
            self.max_components_per_tier = value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    LayoutError::setting(
                        known,
                        format!("\"{value}\" is not a whole number from 1 to 1000"),
                    )
                })?;
            return Ok(());
        }
        let number = value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n > 0.0 && *n <= MAX_DISTANCE)
            .ok_or_else(|| {
                LayoutError::setting(
                    known,
                    format!(
                        "\"{value}\" is not a positive number of at most 100 (decimals with a dot)"
                    ),
                )
            })?;
        let slot = match *known {
            "TIER_GAP" => &mut self.tier_gap,
            "COMP_GAP" => &mut self.comp_gap,
            "GROUP_MARGIN" => &mut self.group_margin,
            "GROUP_PADDING" => &mut self.group_padding,
            "LABEL_HEIGHT" => &mut self.label_height,
            _ => &mut self.label_padding,
        };
        *slot = number;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_positive() {
        let s = Settings::from_pairs([("comp_gap", "3"), ("Group_Padding", "1.25")]).unwrap();
        assert_eq!((s.comp_gap, s.group_padding), (3.0, 1.25));
        assert_eq!(s.tier_gap, 3.0);
        for (name, value) in [
            ("TIER_GAP", "0"),
            ("TIER_GAP", "-1"),
            ("TIER_GAP", "1,5"),
            ("TIER_GAP", "NaN"),
            ("TIER_GAP", "inf"),
            ("MAX_COMPONENTS_PER_TIER", "2.5"),
            ("MAX_COMPONENTS_PER_TIER", "0"),
        ] {
            let e = Settings::from_pairs([(name, value)]).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(name), "{name}={value}");
        }
        let e = Settings::from_pairs([("ROW_GAP", "1")]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("ROW_GAP"));
    }
}
