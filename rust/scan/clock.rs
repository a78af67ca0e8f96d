//! Clock times (issue 13): `09:15` = `09:15:00` = `9:15 a.m.`, `21:15` = `9:15 P.M.` =
//! `09:15 \text{P.M.}`. A clock time is a time of day, never a ratio or a number.
//!
//! A text is a clock time when, after dropping spaces, `\text{}`/`\mathrm{}` wrappers, `\,`-style
//! spacing and dots, it is `H:MM`, `H:MM:SS` (hours 0–23, minutes and seconds two digits below 60),
//! optionally followed by `am`/`pm` (then hours 1–12), or `H am`/`H pm`. It is *definitely* a clock
//! time when it has seconds, an am/pm marker, or an hour written with a leading zero (`09:15`): a
//! bare `21:15` may also be a ratio, and is compared as a time only against a definite clock time.

/// A time of day: seconds since midnight, and whether the writing can only be a clock time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockTime {
    pub seconds: u32,
    pub definite: bool,
}

/// Longest text read as a clock time (`09:15:00 \text{ P.M.}` and its wrappers fit easily).
const MAX_CLOCK_TEXT: usize = 64;

/// Read `s` as a clock time (see the module documentation).
pub fn clock_time(s: &str) -> Option<ClockTime> {
    // The test below, before trimming (trimming removes none of these bytes).
    if !s.bytes().any(|c| c == b':' || c == b'm' || c == b'M') {
        return None;
    }
    let s = super::trim(s);
    if s.len() > MAX_CLOCK_TEXT || !s.bytes().any(|c| c == b':' || c == b'm' || c == b'M') {
        return None;
    }
    // Drop the wrappers and spacing; keep digits, ':' and letters.
    let mut t = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let name_len = rest[1..]
                .bytes()
                .take_while(u8::is_ascii_alphabetic)
                .count();
            let name = &rest[1..1 + name_len];
            if !matches!(
                name,
                "text" | "mathrm" | "textrm" | "rm" | "mbox" | "" | "quad"
            ) {
                return None;
            }
            // `\,`, `\;`, `\!`, `\ ` have no letters: skip the backslash and the mark.
            let skip = if name_len == 0 {
                1 + rest[1..].chars().next().map_or(0, char::len_utf8)
            } else {
                1 + name_len
            };
            rest = &rest[skip..];
            continue;
        }
        match c {
            '0'..='9' | ':' => t.push(c),
            'a'..='z' | 'A'..='Z' => t.push(c.to_ascii_lowercase()),
            ' ' | '.' | '{' | '}' | '~' | '$' => {}
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    let (body, half) = if let Some(b) = t.strip_suffix("am") {
        (b, Some(0))
    } else if let Some(b) = t.strip_suffix("pm") {
        (b, Some(12))
    } else {
        (t.as_str(), None)
    };
    let parts: Vec<&str> = body.split(':').collect();
    let all_digits = parts
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()));
    if !all_digits || parts.len() > 3 || (parts.len() == 1 && half.is_none()) {
        return None;
    }
    if parts[0].len() > 2 || parts[1..].iter().any(|p| p.len() != 2) {
        return None;
    }
    let num = |p: &str| p.parse::<u32>().ok();
    let (h, m, sec) = (
        num(parts[0])?,
        parts.get(1).map_or(Some(0), |p| num(p))?,
        parts.get(2).map_or(Some(0), |p| num(p))?,
    );
    if m >= 60 || sec >= 60 {
        return None;
    }
    let hour = match half {
        Some(offset) if (1..=12).contains(&h) => h % 12 + offset,
        Some(_) => return None,
        None if h <= 23 => h,
        None => return None,
    };
    Some(ClockTime {
        seconds: hour * 3600 + m * 60 + sec,
        definite: half.is_some()
            || parts.len() == 3
            || (parts[0].len() == 2 && parts[0].starts_with('0')),
    })
}

/// Two answers compared as clock times: `Some(equal)` when one is a definite clock time and the
/// other a clock time (same time of day?) or a number, ratio or expression without letters (never
/// equal); `None` otherwise.
pub fn compare_clock(gold: &str, pred: &str) -> Option<bool> {
    let (g, p) = (clock_time(gold), clock_time(pred));
    match (g, p) {
        (Some(a), Some(b)) if a.definite || b.definite => Some(a.seconds == b.seconds),
        (Some(a), None) if a.definite && !has_letter(pred) => Some(false),
        (None, Some(b)) if b.definite && !has_letter(gold) => Some(false),
        _ => None,
    }
}

/// Text with a letter outside LaTeX commands is not a number or ratio: a clock time against it is
/// left to the usual comparison (a damaged gold such as `4:30p..`).
fn has_letter(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 1;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            continue;
        }
        if b[i].is_ascii_alphabetic() {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times() {
        let equal = [
            ("09:15", "09:15:00"),
            ("21:15", "9:15 P.M."),
            ("21:15", "09:15 \\text{P.M.}"),
            ("21:15", "9:15\\,\\mathrm{pm}"),
            ("9:15 am", "09:15"),
            ("12:30 a.m.", "00:30"),
            ("12:30 p.m.", "12:30:00"),
            ("7 pm", "19:00"),
            ("23:59:59", "11:59:59 PM"),
        ];
        for (a, b) in equal {
            assert_eq!(compare_clock(a, b), Some(true), "{a} = {b}");
            assert_eq!(compare_clock(b, a), Some(true), "{b} = {a}");
        }
        let different = [
            ("09:15", "21:15"),
            ("09:15", "9:15 pm"),
            ("21:15", "09:15 a.m."),
            ("09:15", "09:15:30"),
            // A definite clock time is never a ratio or a number.
            ("09:15", "\\frac{3}{5}"),
            ("09:15", "9.25"),
            ("9:15 pm", "21.25"),
        ];
        for (a, b) in different {
            assert_eq!(compare_clock(a, b), Some(false), "{a} != {b}");
            assert_eq!(compare_clock(b, a), Some(false), "{b} != {a}");
        }
        // A bare H:MM may be a ratio: left to the usual comparison.
        for (a, b) in [
            ("9:15", "3:5"),
            ("21:15", "7:5"),
            ("1:20", "0.05"),
            ("3", "3"),
        ] {
            assert_eq!(compare_clock(a, b), None, "{a} vs {b}");
        }
        for s in [
            "9:75",
            "25:00",
            "13:00 pm",
            "1:2:3",
            "9:15:00:00",
            "ab:cd",
            "x",
            "12",
        ] {
            assert_eq!(clock_time(s), None, "{s}");
        }
    }
}
