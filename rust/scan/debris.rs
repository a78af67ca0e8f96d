//! Stray LaTeX around a whole answer that carries no mathematics: a trailing line break `\\` or
//! lone `\`, trailing spacing macros (`\!`, `\,`, `\:`, `\;`), an unmatched trailing `\right.`, and
//! an invisible `\left. … \right.` pair around the whole answer. Only the ends of the whole answer
//! are touched (a `\\` inside separates matrix rows); an answer that would become empty is kept.

use std::borrow::Cow;

/// LaTeX escaped twice, as a JSON or Python string literal shows it (`\\frac{1}{4}`,
/// `\\begin{matrix} y \\\\ 3 \\end{matrix}`), read as the LaTeX it stands for: when every run of
/// backslashes has even length and some pair starts a command name, each run is halved. Any other
/// text is returned unchanged: an odd run (`\frac`, `\\` after a single-backslash `\begin`) shows
/// that the text is not escaped, and `\\` not followed by a letter is a line break.
pub fn unescape_doubled(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut escaped_command = false;
    while let Some(off) = memchr::memchr(b'\\', &b[i..]) {
        let start = i + off;
        let mut end = start;
        while end < b.len() && b[end] == b'\\' {
            end += 1;
        }
        if (end - start) % 2 == 1 {
            return Cow::Borrowed(s);
        }
        escaped_command |= end - start == 2 && b.get(end).is_some_and(u8::is_ascii_alphabetic);
        i = end;
    }
    if !escaped_command {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut run = 0usize;
    for c in s.chars() {
        if c == '\\' {
            run += 1;
            if run % 2 == 0 {
                out.push('\\');
            }
        } else {
            run = 0;
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Trailing tokens removed, longest first (so `\\` goes before a lone `\`).
const TRAILING: [&str; 7] = ["\\right.", "\\\\", "\\!", "\\,", "\\:", "\\;", "\\"];

/// The answer without stray LaTeX at its ends (a slice of `s`).
pub fn strip_debris(s: &str) -> &str {
    // Every debris token and `\left.` holds a backslash: without one, only the trim applies.
    if !s.as_bytes().contains(&b'\\') {
        return super::trim(s);
    }
    let mut t = super::trim(s);
    loop {
        crate::work::count(1);
        let before = t.len();
        if let Some(inner) = t
            .strip_prefix("\\left.")
            .and_then(|r| r.strip_suffix("\\right."))
        {
            t = super::trim(inner);
        }
        if let Some(r) = TRAILING.iter().find_map(|tok| t.strip_suffix(tok)) {
            // A lone trailing `\` is debris only when it does not end an escape (`\\` is handled
            // as a token first).
            t = super::trim_end(r);
        }
        if t.len() == before {
            break;
        }
    }
    if t.is_empty() {
        super::trim(s)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::{strip_debris, unescape_doubled};

    #[test]
    fn doubly_escaped_latex_is_unescaped() {
        for (escaped, plain) in [
            ("\\\\frac{1}{4}", "\\frac{1}{4}"),
            (
                "\\\\begin{matrix} y \\\\\\\\ 3 \\\\end{matrix}",
                "\\begin{matrix} y \\\\ 3 \\end{matrix}",
            ),
            (
                "\\\\boxed{W(n) = 1 \\\\text{ and } W(n) = -1",
                "\\boxed{W(n) = 1 \\text{ and } W(n) = -1",
            ),
        ] {
            assert_eq!(unescape_doubled(escaped), plain, "{escaped}");
        }
        // Not escaped: single-backslash commands (with `\\` row breaks), line breaks alone, no
        // backslash at all.
        for s in [
            "\\begin{matrix} y \\\\ 3 \\end{matrix}",
            "\\frac{1}{4}",
            "x+1\\\\",
            "1 \\\\ 2",
            "42",
            "\\\\\\frac12",
        ] {
            assert!(
                matches!(unescape_doubled(s), std::borrow::Cow::Borrowed(_)),
                "{s}"
            );
        }
    }

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
