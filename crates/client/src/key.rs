//! The API key, kept out of every printout.

use std::fmt;

/// An API key. `Debug` and `Display` never show it: at most its last four characters
/// (`ApiKey(****abcd)`), and nothing of a key shorter than twelve characters.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    /// The key itself, for the `Authorization` header. Never print it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The masked form: `****` and, for a key long enough not to give itself away, its last four
    /// characters.
    fn masked(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        if chars.len() < 12 {
            "****".to_owned()
        } else {
            let tail: String = chars[chars.len() - 4..].iter().collect();
            format!("****{tail}")
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.masked())
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_shows_the_key() {
        let key = ApiKey::new("dk_0123456789abcdefWXYZ");
        assert_eq!(format!("{key:?}"), "ApiKey(****WXYZ)");
        assert_eq!(key.to_string(), "****WXYZ");
        assert_eq!(format!("{:?}", ApiKey::new("short")), "ApiKey(****)");
        assert_eq!(key.expose(), "dk_0123456789abcdefWXYZ");
    }
}
