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
                    crate::work::count(i + 1 - open);
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    crate::work::count(b.len() - open);
    None
}

/// Every `{`'s matching `}` found in one pass, with the escapes of [`matching_brace`]: for a
/// scanner that asks about many openers in one text (`\frac{1}{\frac{1}{...` would otherwise
/// rescan to the end from each, quadratic work).
pub struct BraceIndex<'a> {
    text: &'a str,
    opens: Vec<usize>,
    closes: Vec<Option<usize>>,
}

impl<'a> BraceIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        crate::work::count(text.len());
        let b = text.as_bytes();
        let (mut opens, mut closes) = (Vec::new(), Vec::new());
        let mut stack = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 1,
                b'{' => {
                    stack.push(opens.len());
                    opens.push(i);
                    closes.push(None);
                }
                b'}' => {
                    if let Some(k) = stack.pop() {
                        closes[k] = Some(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        BraceIndex {
            text,
            opens,
            closes,
        }
    }

    /// Same as `matching_brace(text, open)`. An opener the one pass stepped over as escaped
    /// (reachable only by a caller starting inside an escape) is scanned on its own.
    pub fn matching(&self, open: usize) -> Option<usize> {
        match self.opens.binary_search(&open) {
            Ok(k) => self.closes[k],
            Err(_) => matching_brace(self.text, open),
        }
    }
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
    fn the_index_equals_the_scan_at_every_offset() {
        for t in [
            "{a{b}c}", "{\\}}{", "\\{{}}", "{{{", "}}{}{", "\\\\{x}", "{\\\\}{}", "",
        ] {
            let idx = BraceIndex::new(t);
            for i in 0..=t.len() {
                assert_eq!(idx.matching(i), matching_brace(t, i), "{t:?} at {i}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn the_index_equals_the_scan(t in "[{}\\\\a]{0,30}") {
            let idx = BraceIndex::new(&t);
            for i in 0..=t.len() {
                proptest::prop_assert_eq!(idx.matching(i), matching_brace(&t, i));
            }
        }
    }

    #[test]
    fn whole_macro_argument() {
        assert_eq!(whole_macro_arg("\\text{cm}", "\\text"), Some("cm"));
        assert_eq!(whole_macro_arg("\\text {cm}", "\\text"), Some("cm"));
        assert_eq!(whole_macro_arg("\\text{cm}^2", "\\text"), None);
        assert_eq!(whole_macro_arg("\\text{cm", "\\text"), None);
    }
}
