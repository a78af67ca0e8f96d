//! Math spans: `$..$` (Pandoc's rule, so that currency is not math), `$$..$$`, `\(..\)`, `\[..\]`;
//! the one at a position and the last one of a response, each found in linear time.

use crate::scan::boxes::whole_box;
// Bytes the span and anchor scans looked at, for the tests that count work (a quadratic path
// shows as work growing faster than the input).
use crate::work::count as count_work;

/// A math span starting at byte `i`: (content, end). `$..$` follows Pandoc's rule so that
/// currency ("$5 and $3") is not math: the opener is followed by a non-space, the closer is
/// preceded by a non-space and not followed by a digit.
pub(super) fn math_span_at(s: &str, i: usize) -> Option<(String, usize)> {
    match math_span_or_dead_end(s, i, &mut Unclosed::default()) {
        Span::Found(c, end) => Some((c, end)),
        Span::None => None,
    }
}

pub(super) enum Span {
    Found(String, usize),
    None,
}

/// Which openers were found with no closer anywhere after them: a later opener of the same kind
/// cannot close either, so it is not searched again (`\[\[\[...` is linear, not quadratic).
#[derive(Default)]
pub(super) struct Unclosed {
    display: [bool; 3],
    dollar: bool,
}

pub(super) fn math_span_or_dead_end(s: &str, i: usize, unclosed: &mut Unclosed) -> Span {
    let r = &s[i..];
    count_work(1);
    for (k, (open, close)) in [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)")]
        .into_iter()
        .enumerate()
    {
        if let Some(body) = r.strip_prefix(open) {
            if unclosed.display[k] {
                return Span::None;
            }
            let found = body.find(close);
            count_work(found.map_or(body.len(), |j| j + close.len()));
            let Some(j) = found else {
                unclosed.display[k] = true;
                return Span::None;
            };
            return Span::Found(body[..j].to_string(), i + open.len() + j + close.len());
        }
    }
    let Some(body) = r.strip_prefix('$') else {
        return Span::None;
    };
    if body.is_empty() || unclosed.dollar {
        return Span::None;
    }
    // The scan below steps over escapes two bytes at a time; a later `$` it reached was either a
    // closer candidate (the scan stops there) or escaped (`\$`), and a scan starting there runs
    // in step with this one from the next byte on. So once a scan meets no candidate before the
    // end, no later `$` can open a span.
    let bb = body.as_bytes();
    let mut k = 0;
    let mut latexy = false;
    while k < bb.len() {
        if bb[k] == b'\\' {
            latexy = true;
            k += 2;
            continue;
        }
        if matches!(bb[k], b'^' | b'_' | b'{') {
            latexy = true;
        }
        if bb[k] == b'$' {
            // Spaces inside the delimiters are fine for LaTeX ("$ \sqrt3 $"), not for currency.
            let tight =
                !body.starts_with(char::is_whitespace) && k > 0 && !bb[k - 1].is_ascii_whitespace();
            let next_digit = k + 1 < bb.len() && bb[k + 1].is_ascii_digit();
            count_work(k);
            if (tight || latexy) && !next_digit {
                return Span::Found(body[..k].to_string(), i + 1 + k + 1);
            }
            return Span::None;
        }
        k += 1;
    }
    count_work(bb.len());
    unclosed.dollar = true;
    Span::None
}

pub(super) fn last_math_span(text: &str) -> Option<(String, usize)> {
    last_math_span_from(text).map(|(c, _, end)| (c, end))
}

/// The last math span's content (a whole box unwrapped), where it opens and where it ends.
pub(super) fn last_math_span_from(text: &str) -> Option<(String, usize, usize)> {
    let mut last: Option<(String, usize, usize)> = None;
    let mut unclosed = Unclosed::default();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$'
            || (b[i] == b'\\' && i + 1 < b.len() && (b[i + 1] == b'[' || b[i + 1] == b'('))
        {
            if let Span::Found(c, end) = math_span_or_dead_end(text, i, &mut unclosed) {
                if !c.trim().is_empty() {
                    last = Some((c.trim().to_string(), i, end));
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    last.map(|(c, start, end)| (whole_box(&c).map_or(c.clone(), str::to_string), start, end))
}
