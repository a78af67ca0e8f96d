//! A stand-in for the answer extractor, shared by the math-verify suite test and the bench:
//! boxes and "final answer is $X$" first (rightmost wins), then the rightmost math span
//! (`$..$`, `$$..$$`, `\\(..\\)`, `\\[..\\]`; inline spans do not cross a newline) or, in
//! "expr" mode, the rightmost number. The real extractor (`rust/extract.rs`) replaces it in
//! `check()`.

use regex::Regex;
use std::sync::OnceLock;

fn span_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?s)\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\(([^\n]+?)\\\)|\$([^\n$]+?)\$").unwrap()
    })
}

fn number_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:^|[^\w.])(-?\d+/\d+|-?(?:\d{1,3}(?:[ ,]\d{3})+|\d+)(?:[.,]\d+)?|-?\.\d+)")
            .unwrap()
    })
}

/// (end offset, candidate) for each math span; inline spans may not cross a newline.
fn math_spans(text: &str) -> Vec<(usize, String)> {
    span_re()
        .captures_iter(text)
        .map(|c| {
            let m = c.get(0).unwrap();
            let inner = (1..=4).find_map(|k| c.get(k)).unwrap().as_str().to_string();
            (m.end(), inner)
        })
        .collect()
}

fn last_number(text: &str) -> Option<(usize, String)> {
    number_re().captures_iter(text).last().map(|c| {
        let m = c.get(1).unwrap();
        (m.end(), m.as_str().to_string())
    })
}

/// Stand-in for the answer extractor (the lead's `extract.rs` replaces it in `check()`).
pub fn extract(text: &str, modes: &[String]) -> Option<String> {
    // An escaped dollar is currency, not a delimiter.
    let masked = text.replace("\\$", "\u{1}");
    extract_masked(&masked, modes).map(|s| s.replace('\u{1}', "\\$"))
}

fn extract_masked(text: &str, modes: &[String]) -> Option<String> {
    let latex = modes.iter().any(|m| m == "latex");
    let expr = modes.iter().any(|m| m == "expr");
    // "final answer is $X$" and boxes have the top priority; the rightmost of them wins.
    let anchored = text
        .to_ascii_lowercase()
        .rfind("final answer is")
        .and_then(|k| {
            let rest = &text[k..];
            let spans = math_spans(rest);
            let (mut end, first) = spans.first()?.clone();
            let mut parts = vec![first];
            // Spans after the anchor joined by connectives (`$12$ and $13$`) are one answer.
            for (e, s) in spans.iter().skip(1) {
                let start = rest[..*e].rfind(s.as_str()).unwrap_or(*e);
                let gap = &rest[end..start.saturating_sub(1).max(end)];
                let only_connectives = gap
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .filter(|w| !w.is_empty())
                    .all(|w| w == "and" || w == "or");
                if !only_connectives || gap.contains('.') {
                    break;
                }
                parts.push(s.clone());
                end = *e;
            }
            Some((k + end, parts.join(", ")))
        });
    let last_box = text.rfind("\\boxed").or_else(|| text.rfind("\\fbox"));
    if latex {
        match (anchored, last_box) {
            (Some((end, s)), Some(b)) if end > b => return Some(s),
            (_, Some(_)) => return Some(text.to_string()),
            (Some((_, s)), None) => return Some(s),
            (None, None) => {}
        }
    }
    let mut cands: Vec<(usize, String)> = Vec::new();
    if expr && !text.contains(char::is_whitespace) && !text.contains('$') {
        // A short bare expression (`W(x)=1orW(x)=-1`) is the answer as a whole.
        if _core::latex::parse(text, &Default::default()).is_ok() {
            return Some(text.to_string());
        }
    }
    if latex {
        let spans = math_spans(text);
        if !spans.is_empty() {
            // Spans joined only by connectives are one answer (`$21,16$ or $11$`).
            let rest = span_re().replace_all(text, " ");
            let words_only_connectives = rest
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| !w.is_empty())
                .all(|w| w == "and" || w == "or");
            if words_only_connectives && spans.len() > 1 {
                return Some(text.to_string());
            }
            cands.push(spans.last().unwrap().clone());
        }
    }
    if expr {
        if let Some(n) = last_number(text) {
            cands.push(n);
        }
    }
    cands.into_iter().max_by_key(|c| c.0).map(|c| c.1)
}
