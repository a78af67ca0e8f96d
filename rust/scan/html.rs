//! HTML markup and entities in golds and answers (golds scraped from web pages:
//! `3<sup>x</sup>≥x<sup>2</sup>`, `x &le; 2`, `&minus;5`), read as the LaTeX they stand for:
//! `<sup>…</sup>` → `^{…}`, `<sub>…</sub>` → `_{…}`, `<br>` → `, `, the entities of relations,
//! arithmetic and spaces → their signs. Any other tag or `&` is left as written.
//!
//! Most Unicode signs (`≥ ≤ ≠ × ÷ − √ π ∞ ∪ ∩ ∈ ·`) are read by the LaTeX lexer; the few it does
//! not read are written here as LaTeX: `≦ ≧`, `ℝ`, a vulgar fraction not after a digit (`½`, `⅓`;
//! `2½` is left as written), `√(…)` → `\sqrt{…}`, `∛`, `∜`, `∠`, a superscript minus (`x⁻¹`).

/// The text with its HTML read as LaTeX, or `None` when it has none (a byte test first: a text
/// without `<` or `&` pays nothing more).
pub fn html_markup(s: &str) -> Option<String> {
    // `<`, `&`, and the first bytes of the Unicode signs below (U+00BC-U+00BE; U+2xxx): a plain
    // loop, as answers are short (two `memchr` calls cost more on a few bytes).
    if !s.bytes().any(|c| matches!(c, b'<' | b'&' | 0xc2 | 0xe2)) {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut changed = false;
    let mut rest = s;
    while let Some(i) = rest.find([
        '<', '&', '≦', '≧', 'ℝ', '√', '∛', '∜', '∠', '⁻', '½', '⅓', '⅔', '¼', '¾',
    ]) {
        out.push_str(&rest[..i]);
        let at = &rest[i..];
        let after_digit = out.ends_with(|c: char| c.is_ascii_digit());
        if let Some((len, with)) = tag(at)
            .or_else(|| entity(at))
            .map(|(l, w)| (l, w.to_string()))
            .or_else(|| unicode(at, after_digit))
        {
            out.push_str(&with);
            rest = &at[len..];
            changed = true;
        } else {
            let ch = at.chars().next()?;
            out.push(ch);
            rest = &at[ch.len_utf8()..];
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

/// A Unicode sign the lexer does not read, at the start of `s`: its length (with what it takes,
/// `√(x+1)` whole) and its LaTeX.
fn unicode(s: &str, after_digit: bool) -> Option<(usize, String)> {
    let c = s.chars().next()?;
    let n = c.len_utf8();
    let fixed = match c {
        '≦' => "\\le ",
        '≧' => "\\ge ",
        'ℝ' => "\\mathbb{R}",
        '∛' => "\\sqrt[3]",
        '∜' => "\\sqrt[4]",
        '∠' => "\\angle ",
        '½' | '⅓' | '⅔' | '¼' | '¾' if !after_digit => match c {
            '½' => "\\frac{1}{2}",
            '⅓' => "\\frac{1}{3}",
            '⅔' => "\\frac{2}{3}",
            '¼' => "\\frac{1}{4}",
            _ => "\\frac{3}{4}",
        },
        '√' => {
            // `√(x+1)`: the parenthesised argument as a braced one.
            let rest = s[n..].strip_prefix('(')?;
            let mut depth = 1usize;
            let close = rest.char_indices().find_map(|(i, ch)| {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(i)
            })?;
            return Some((n + 1 + close + 1, format!("\\sqrt{{{}}}", &rest[..close])));
        }
        '⁻' => {
            // `x⁻¹`, `10⁻³²`: a superscript minus and its superscript digits.
            let digits: String = s[n..]
                .chars()
                .map_while(|d| {
                    "⁰¹²³⁴⁵⁶⁷⁸⁹"
                        .chars()
                        .position(|x| x == d)
                        .map(|k| char::from(b'0' + k as u8))
                })
                .collect();
            if digits.is_empty() {
                return None;
            }
            let len: usize = s[n..].chars().take(digits.len()).map(char::len_utf8).sum();
            return Some((n + len, format!("^{{-{digits}}}")));
        }
        _ => return None,
    };
    Some((n, fixed.to_string()))
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
    if !s.starts_with('<') {
        return None;
    }
    TAGS.iter()
        .find(|(t, _)| s.get(..t.len()).is_some_and(|h| h.eq_ignore_ascii_case(t)))
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
    use proptest::prelude::*;

    proptest! {
        /// Never panics (byte offsets inside multi-byte signs), and a text without markup is
        /// left alone.
        #[test]
        fn no_panic_and_plain_text_untouched(
            s in r"(<sup>|</sup>|<sub>|<br>|&le;|&lt|&|<|≦|ℝ|√|\(|\)|⁻|¹|²|½|∠|é|x|2| )*",
            plain in r"[a-z0-9 +\-*/^(){}\\]*",
        ) {
            let _ = html_markup(&s);
            prop_assert_eq!(html_markup(&plain), None);
        }
    }

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
        for (u, want) in [
            ("x≦2", "x\\le 2"),
            ("ℝ", "\\mathbb{R}"),
            ("½", "\\frac{1}{2}"),
            ("√(x+1)", "\\sqrt{x+1}"),
            ("√((x+1)(x-1))", "\\sqrt{(x+1)(x-1)}"),
            ("x⁻¹", "x^{-1}"),
            ("10⁻¹²", "10^{-12}"),
            ("∛2", "\\sqrt[3]2"),
            ("∠A=30°", "\\angle A=30°"),
        ] {
            assert_eq!(html_markup(u).as_deref(), Some(want), "{u}");
        }
        for s in [
            "x < 2",
            "a & b",
            "1 & 2 \\\\ 3 & 4",
            "18",
            "x<y",
            "AT&T",
            "2½",
            "√2",
            "x ≤ 2",
            "√(x",
        ] {
            assert_eq!(html_markup(s), None, "{s}");
        }
    }
}
