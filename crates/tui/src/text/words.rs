//! Counted nouns for messages: `1 object`, `3 objects`.

/// `n` with the noun in the right number: `count(1, "object", "objects")` is `1 object`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` objects: `1 object`, `3 objects`.
pub fn objects(n: usize) -> String {
    count(n, "object", "objects")
}

/// `1 object matches`, `3 objects match`.
pub fn objects_match(n: usize) -> String {
    format!("{} match{}", objects(n), if n == 1 { "es" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(objects(1), "1 object");
        assert_eq!(objects(0), "0 objects");
        assert_eq!(count(2, "property", "properties"), "2 properties");
        assert_eq!(objects_match(1), "1 object matches");
        assert_eq!(objects_match(2), "2 objects match");
    }
}
