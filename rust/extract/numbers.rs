//! The last number of a response: its span widened over the digit groups number comparison reads
//! as one value (`1 000`, `2,74`), and over the clock time it ends (`9:15 P.M.`).

use crate::number::scan_numbers;

/// The last number widened to the clock time it ends ("at 9:15 P.M." -> `9:15 P.M.`, "09:15:00"),
/// when the widened text is definitely a clock time (seconds, a.m./p.m., or a leading zero) and
/// ends the response; else the span unchanged. Looks at a few bytes before the number and at the
/// text after it.
pub(super) fn widen_clock(text: &str, (start, end): (usize, usize)) -> (usize, usize) {
    let b = text.as_bytes();
    let digits_before = |mut k: usize| {
        let stop = k.saturating_sub(2);
        while k > stop && b[k - 1].is_ascii_digit() {
            k -= 1;
        }
        k
    };
    // Up to two "DD:" groups before the number.
    let mut s = start;
    for _ in 0..2 {
        if s >= 2 && b[s - 1] == b':' && b[s - 2].is_ascii_digit() {
            s = digits_before(s - 1);
        }
    }
    if s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b':' || b[s - 1] == b'.') {
        return (start, end);
    }
    // An a.m./p.m. marker after it: " P.M.", "pm", " \\text{P.M.}".
    let after = &text[end..];
    let t = after.trim_start_matches(' ');
    let marker_end = [&b"\\text{"[..], b"\\mathrm{", b""]
        .iter()
        .find_map(|wrap| {
            let tb = t.as_bytes().strip_prefix(*wrap)?;
            let lead = tb.iter().take_while(|&&c| c == b' ').count();
            let m = ampm_len(&tb[lead..])?;
            let mut e = wrap.len() + lead + m;
            if !wrap.is_empty() {
                if t.as_bytes().get(e) != Some(&b'}') {
                    return None;
                }
                e += 1;
            }
            Some(text.len() - t.len() + e)
        });
    let e = marker_end.unwrap_or(end);
    // Only a time that ends the response ("... leaves at 9:15 P.M."): inside prose ("2:00 pm is
    // the latest") the last-number rule stays as it was.
    let ends_text = text[e..]
        .trim_matches(|c: char| c.is_whitespace() || ".!$".contains(c))
        .is_empty();
    match crate::scan::clock::clock_time(&text[s..e]) {
        Some(c) if c.definite && ends_text && (s < start || e > end) => (s, e),
        _ => (start, end),
    }
}

/// Length of an a.m./p.m. marker at the start of `t` (`am`, `P.M.`, `p.m`), not glued to a word.
fn ampm_len(t: &[u8]) -> Option<usize> {
    if !matches!(t.first(), Some(b'a' | b'A' | b'p' | b'P')) {
        return None;
    }
    let mut k = 1 + usize::from(t.get(1) == Some(&b'.'));
    if !matches!(t.get(k), Some(b'm' | b'M')) {
        return None;
    }
    k += 1;
    if t.get(k) == Some(&b'.') {
        k += 1;
    }
    (!t.get(k).is_some_and(u8::is_ascii_alphanumeric)).then_some(k)
}

/// Byte span of the last number in free text, widened over digit groups that number
/// comparison reads as one value: `1 000` (space thousands) and `2,74` / `1000,99` (a comma that
/// cannot be a thousands separator, left to the comparison to read as a decimal comma).
pub(super) fn last_number_span(text: &str) -> Option<(usize, usize)> {
    let f = scan_numbers(text).pop()?;
    let b = text.as_bytes();
    let (mut start, end) = (f.start, f.end);
    while start >= 2
        && (b[start - 1] == b' ' || b[start - 1] == b',')
        && b[start - 2].is_ascii_digit()
    {
        let sep = b[start - 1];
        let mut k = start - 1;
        while k > 0 && b[k - 1].is_ascii_digit() {
            k -= 1;
        }
        let prev_len = start - 1 - k;
        let three = text[start..end]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count()
            == 3;
        let join = match sep {
            // "1 000": a space between a short group and exactly three digits.
            b' ' => three && prev_len <= 3,
            // "2,74", "1000,99", "0,111": not a thousands separator (valid ones were already joined).
            _ => !three || prev_len > 3 || b[k] == b'0',
        };
        if !join
            || (k > 0 && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'.' || b[k - 1] == b','))
        {
            break;
        }
        start = k;
    }
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use crate::extract::ex;

    #[test]
    fn a_clock_time_that_ends_the_response_is_the_answer() {
        for (text, want) in [
            ("The train leaves at 9:15 P.M.", "9:15 P.M."),
            ("It ends at 09:15 \\text{pm}.", "09:15 \\text{pm}"),
            ("The show starts at 19:00:00.", "19:00:00"),
            ("Wake up at 7 am", "7 am"),
            // Not a definite clock time, or not at the end: the last number as before.
            ("The ratio is 3:5", "5"),
            ("by 5:00 pm, so 5-3 = 2:00 pm is the latest", "00"),
            ("at 12:30 am we have 12", "12"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
    }
}
