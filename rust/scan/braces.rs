//! Brace matching on byte offsets. A backslash escapes the next byte, so `\{` and `\}` never
//! count as braces.

/// Index of the `}` matching the `{` at byte `open`, if the braces balance before the end.
pub fn matching_brace(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    if b.get(open) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1, // skip the escaped byte (`\{`, `\}`)
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// If `s` is exactly `\mac{...}` (whitespace allowed before the brace), the braced content.
pub fn whole_macro_arg<'a>(s: &'a str, mac: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(mac)?.trim_start();
    let end = matching_brace(rest, 0)?;
    (end + 1 == rest.len()).then(|| &rest[1..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_braces_do_not_count() {
        assert_eq!(matching_brace("{a{b}c}", 0), Some(6));
        assert_eq!(matching_brace("{\\}}", 0), Some(3));
        assert_eq!(matching_brace("{\\{}", 0), Some(3));
        assert_eq!(matching_brace("{a", 0), None);
        assert_eq!(matching_brace("a{}", 0), None);
    }

    #[test]
    fn whole_macro_argument() {
        assert_eq!(whole_macro_arg("\\text{cm}", "\\text"), Some("cm"));
        assert_eq!(whole_macro_arg("\\text {cm}", "\\text"), Some("cm"));
        assert_eq!(whole_macro_arg("\\text{cm}^2", "\\text"), None);
        assert_eq!(whole_macro_arg("\\text{cm", "\\text"), None);
    }
}
