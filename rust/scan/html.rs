//! HTML markup and entities in golds and answers (golds scraped from web pages:
//! `3<sup>x</sup>≥x<sup>2</sup>`, `x &le; 2`, `&minus;5`), read as the LaTeX they stand for:
//! `<sup>…</sup>` → `^{…}`, `<sub>…</sub>` → `_{…}`, `<br>` → `, `, the entities of relations,
//! arithmetic and spaces → their signs. The Unicode signs themselves (`≥ ≤ ≠ × ÷ − √ π ∞ ∪ ∩ ∈
//! ·`) are read by the LaTeX lexer. Any other tag or `&` is left as written.

/// The text with its HTML read as LaTeX, or `None` when it has none (a byte test first: a text
/// without `<` or `&` pays nothing more).
pub fn html_markup(s: &str) -> Option<String> {
    let b = s.as_bytes();
    memchr::memchr2(b'<', b'&', b)?;
    let mut out = String::with_capacity(s.len() + 8);
    let mut changed = false;
    let mut rest = s;
    while let Some(i) = rest.find(['<', '&']) {
        out.push_str(&rest[..i]);
        let at = &rest[i..];
        if let Some((len, with)) = tag(at).or_else(|| entity(at)) {
            out.push_str(with);
            rest = &at[len..];
            changed = true;
        } else {
            out.push_str(&at[..1]);
            rest = &at[1..];
        }
    }
    out.push_str(rest);
    if !changed {
        return None;
    }
    // A `<br>` at either end separates nothing.
    let t = out.trim_matches([',', ' ']);
    Some(t.to_string())
}

/// A tag at the start of `s`: its length and its LaTeX.
fn tag(s: &str) -> Option<(usize, &'static str)> {
    const TAGS: &[(&str, &str)] = &[
        ("<sup>", "^{"),
        ("</sup>", "}"),
        ("<sub>", "_{"),
        ("</sub>", "}"),
        ("<br>", ", "),
        ("<br/>", ", "),
        ("<br />", ", "),
        ("<i>", ""),
        ("</i>", ""),
        ("<em>", ""),
        ("</em>", ""),
        ("<b>", ""),
        ("</b>", ""),
    ];
    let head = s.get(..s.len().min(6))?;
    TAGS.iter()
        .find(|(t, _)| head.len() >= t.len() && head[..t.len()].eq_ignore_ascii_case(t))
        .map(|&(t, w)| (t.len(), w))
}

/// An entity at the start of `s`: its length and its text.
fn entity(s: &str) -> Option<(usize, &'static str)> {
    const ENTITIES: &[(&str, &str)] = &[
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&le;", "\\le "),
        ("&ge;", "\\ge "),
        ("&ne;", "\\ne "),
        ("&amp;", "&"),
        ("&minus;", "-"),
        ("&nbsp;", " "),
        ("&times;", "\\times "),
        ("&divide;", "\\div "),
        ("&middot;", "\\cdot "),
        ("&plusmn;", "\\pm "),
        ("&radic;", "\\sqrt"),
        ("&pi;", "\\pi "),
        ("&infin;", "\\infty "),
        ("&deg;", "^\\circ "),
        ("&#8722;", "-"),
        ("&#x2212;", "-"),
        ("&#60;", "<"),
        ("&#62;", ">"),
        ("&#8804;", "\\le "),
        ("&#8805;", "\\ge "),
    ];
    ENTITIES
        .iter()
        .find(|(e, _)| s.starts_with(e))
        .map(|&(e, w)| (e.len(), w))
}

#[cfg(test)]
mod tests {
    use super::html_markup;

    #[test]
    fn html_as_latex() {
        for (h, want) in [
            ("3<sup>x</sup>≥x<sup>2</sup>", "3^{x}≥x^{2}"),
            ("x<sub>1</sub>=2", "x_{1}=2"),
            ("x &le; 2", "x \\le  2"),
            ("x &lt; 2", "x < 2"),
            ("&minus;5", "-5"),
            ("a<br>b", "a, b"),
            ("5<br/>", "5"),
            ("x&nbsp;=&nbsp;3", "x = 3"),
            ("2 &times; 3", "2 \\times  3"),
            ("<i>x</i> = 1", "x = 1"),
        ] {
            assert_eq!(html_markup(h).as_deref(), Some(want), "{h}");
        }
        for s in ["x < 2", "a & b", "1 & 2 \\\\ 3 & 4", "18", "x<y", "AT&T"] {
            assert_eq!(html_markup(s), None, "{s}");
        }
    }
}
