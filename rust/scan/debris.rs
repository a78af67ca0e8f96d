//! Stray LaTeX around a whole answer that carries no mathematics: a trailing line break `\\` or
//! lone `\`, trailing spacing macros (`\!`, `\,`, `\:`, `\;`), an unmatched trailing `\right.`, and
//! an invisible `\left. … \right.` pair around the whole answer. Only the ends of the whole answer
//! are touched (a `\\` inside separates matrix rows); an answer that would become empty is kept.

/// Trailing tokens removed, longest first (so `\\` goes before a lone `\`).
const TRAILING: [&str; 7] = ["\\right.", "\\\\", "\\!", "\\,", "\\:", "\\;", "\\"];

/// The answer without stray LaTeX at its ends (a slice of `s`).
pub fn strip_debris(s: &str) -> &str {
    let mut t = s.trim();
    loop {
        crate::work::count(1);
        let before = t.len();
        if let Some(inner) = t
            .strip_prefix("\\left.")
            .and_then(|r| r.strip_suffix("\\right."))
        {
            t = inner.trim();
        }
        if let Some(r) = TRAILING.iter().find_map(|tok| t.strip_suffix(tok)) {
            // A lone trailing `\` is debris only when it does not end an escape (`\\` is handled
            // as a token first).
            t = r.trim_end();
        }
        if t.len() == before {
            break;
        }
    }
    if t.is_empty() {
        s.trim()
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::strip_debris;

    #[test]
    fn ends_are_cleaned_and_the_inside_kept() {
        for (raw, clean) in [
            ("185\\", "185"),
            ("3.5\\ ", "3.5"),
            ("\\frac{1}{4}\\", "\\frac{1}{4}"),
            ("\\left.9\\right.", "9"),
            ("x+1\\\\", "x+1"),
            ("2\\sqrt{3}\\,", "2\\sqrt{3}"),
            ("9\\;\\!", "9"),
            ("(1,2)\\right.", "(1,2)"),
            (
                "\\begin{pmatrix}1\\\\2\\end{pmatrix}",
                "\\begin{pmatrix}1\\\\2\\end{pmatrix}",
            ),
            ("\\left.x\\right|_0^1", "\\left.x\\right|_0^1"),
            ("\\\\", "\\\\"),
            ("\\", "\\"),
            ("  7  ", "7"),
        ] {
            assert_eq!(strip_debris(raw), clean, "{raw:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn idempotent_and_a_substring(t in "(\\\\|\\\\\\\\|\\\\,|\\\\right\\.|\\\\left\\.|[0-9x+ ]){0,12}") {
            let once = strip_debris(&t);
            proptest::prop_assert_eq!(strip_debris(once), once);
            proptest::prop_assert!(t.contains(once));
        }
    }
}
