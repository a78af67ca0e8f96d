//! Sentence splitting and query windows of UMWP's `eval.py` and SelfAware's `eval_model.py`,
//! with Python's string semantics (`str.isspace`, `str.strip`, `str.split()`, `len` in code
//! points) so the pieces and windows are the scripts' own.

/// Python's `str.isspace` for one character: Unicode `White_Space` plus the four information
/// separators U+001C..U+001F, which Python also treats as whitespace (Rust does not).
pub fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` (no argument).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_isspace)
}

/// Python's `str.split()` (no argument): runs of whitespace separate, empty words never appear.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    // For ASCII text Python's whitespace is "\t\n\x0b\x0c\r", "\x1c".."\x1f" and " ": a byte test.
    let ascii = s.is_ascii();
    s.split(move |c: char| {
        if ascii {
            matches!(c as u32, 9..=13 | 28..=32)
        } else {
            py_isspace(c)
        }
    })
    .filter(|w| !w.is_empty())
}

fn is_delimiter(c: char, newline: bool) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？') || (newline && c == '\n')
}

/// `re.split(r"(\.|\!|\?|。|！|？|\.{6}[|\n])", text)`: text and delimiter pieces alternate,
/// the delimiters kept as one-character pieces, empty text pieces kept (the six-dot
/// alternative never wins: the single dot is tried first). `newline` adds `\n` (UMWP).
pub fn split_raw(text: &str, newline: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    // A byte scan: the ASCII delimiters are single bytes, the full-width ones the 3-byte UTF-8
    // sequences of U+3002 (E3 80 82), U+FF01 (EF BC 81) and U+FF1F (EF BC 9F); a byte of those
    // values never starts a character inside another one.
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let len = match b[i] {
            b'.' | b'!' | b'?' => 1,
            b'\n' if newline => 1,
            0xE3 if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x82) => 3,
            0xEF if b.get(i + 1) == Some(&0xBC) && matches!(b.get(i + 2), Some(0x81 | 0x9F)) => 3,
            _ => 0,
        };
        if len == 0 {
            i += 1;
            continue;
        }
        out.push(&text[start..i]);
        out.push(&text[i..i + len]);
        i += len;
        start = i;
    }
    out.push(&text[start..]);
    out
}

/// The last `n` items of [`split_stripped`]`(text, newline)`, last first, found by scanning
/// from the end (no pass over the rest of the text).
pub fn last_stripped(text: &str, newline: bool, n: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(n);
    let mut end = text.len();
    for (i, c) in text.char_indices().rev() {
        if out.len() >= n {
            return out;
        }
        if is_delimiter(c, newline) {
            let after = py_strip(&text[i + c.len_utf8()..end]);
            if !after.is_empty() {
                out.push(after);
                if out.len() >= n {
                    return out;
                }
            }
            out.push(&text[i..i + c.len_utf8()]);
            end = i;
        }
    }
    let first = py_strip(&text[..end]);
    if out.len() < n && !first.is_empty() {
        out.push(first);
    }
    out
}

/// UMWP's `cut_sentence`: [`split_raw`], every piece stripped, empty pieces dropped.
pub fn split_stripped(text: &str, newline: bool) -> Vec<&str> {
    split_raw(text, newline)
        .into_iter()
        .map(py_strip)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Number of code points (Python's `len`).
pub fn py_len(s: &str) -> usize {
    s.chars().count()
}

/// `py_len(s) >= 2` without counting the whole string.
pub fn at_least_two_chars(s: &str) -> bool {
    s.chars().nth(1).is_some()
}

/// Query windows written into one buffer: `buf[spans[i].0..spans[i].1]` is window `i`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Windows {
    pub buf: String,
    pub spans: Vec<(usize, usize)>,
}

impl Windows {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Window `i`.
    pub fn get(&self, i: usize) -> &str {
        let (a, b) = self.spans[i];
        &self.buf[a..b]
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.spans.iter().map(|&(a, b)| &self.buf[a..b])
    }

    /// Append one window.
    pub fn push(&mut self, s: &str) {
        self.push_with(|b| b.push_str(s));
    }

    /// Remove every window (keeps the buffers).
    pub fn clear(&mut self) {
        self.buf.clear();
        self.spans.clear();
    }

    fn push_with(&mut self, f: impl FnOnce(&mut String)) {
        let start = self.buf.len();
        f(&mut self.buf);
        self.spans.push((start, self.buf.len()));
    }
}

/// `cut_sub_string(piece, window_size)` of both scripts: strip and lower-case; a piece shorter
/// than 2 characters gives one empty query; one trailing `.,?!` removed; a piece of at most
/// `window` whitespace words is one query kept as written (inner runs of spaces kept); a longer
/// one gives every run of `window` consecutive words (stride 1) joined with single spaces.
pub fn windows_into(piece: &str, window: usize, out: &mut Windows) {
    thread_local! {
        // Scratch buffers reused across pieces: the lower-cased piece and its word spans.
        static SCRATCH: std::cell::RefCell<(String, Vec<(usize, usize)>)> =
            const { std::cell::RefCell::new((String::new(), Vec::new())) };
    }
    SCRATCH.with(|scratch| {
        let (lowered, words) = &mut *scratch.borrow_mut();
        let stripped = py_strip(piece);
        let mut s: &str = if !stripped.is_ascii() {
            *lowered = stripped.to_lowercase();
            lowered
        } else if stripped.bytes().any(|b| b.is_ascii_uppercase()) {
            lowered.clear();
            lowered.push_str(stripped);
            lowered.make_ascii_lowercase();
            lowered
        } else {
            stripped
        };
        if !at_least_two_chars(s) {
            out.push_with(|_| {});
            return;
        }
        if s.ends_with(['.', ',', '?', '!']) {
            s = &s[..s.len() - 1];
        }
        words.clear();
        let base = s.as_ptr() as usize;
        words.extend(py_split(s).map(|w| {
            let a = w.as_ptr() as usize - base;
            (a, a + w.len())
        }));
        if words.len() <= window {
            out.push_with(|b| b.push_str(s));
            return;
        }
        for run in words.windows(window.max(1)) {
            out.push_with(|b| {
                for (k, &(a, e)) in run.iter().enumerate() {
                    if k > 0 {
                        b.push(' ');
                    }
                    b.push_str(&s[a..e]);
                }
            });
        }
    });
}

/// [`windows_into`] as owned strings.
pub fn windows(piece: &str, window: usize, out: &mut Vec<String>) {
    let mut w = Windows::default();
    windows_into(piece, window, &mut w);
    out.extend(w.iter().map(str::to_string));
}

/// The last `n` items of a split list, last first (the order both scripts visit them in).
pub fn last_items<'a, 'b>(
    pieces: &'b [&'a str],
    n: usize,
) -> impl Iterator<Item = (usize, &'a str)> + 'b
where
    'a: 'b,
{
    pieces.iter().rev().take(n).copied().enumerate()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(piece: &str, n: usize) -> Vec<String> {
        let mut out = Vec::new();
        windows(piece, n, &mut out);
        out
    }

    #[test]
    fn umwp_split_keeps_delimiters_and_splits_decimals_and_newlines() {
        assert_eq!(
            split_stripped("The answer is 5.", true),
            ["The answer is 5", "."]
        );
        assert_eq!(
            split_stripped("It costs 3.5 dollars", true),
            ["It costs 3", ".", "5 dollars"]
        );
        assert_eq!(split_stripped("a\n\nb?  c", true), ["a", "b", "?", "c"]);
        assert_eq!(split_stripped("a\nb", false), ["a\nb"]);
        assert_eq!(
            split_stripped("Wait...... ok", true),
            ["Wait", ".", ".", ".", ".", ".", ".", "ok"]
        );
        assert!(split_stripped("  \n ", true).is_empty());
        assert_eq!(split_stripped("好。对！", true), ["好", "。", "对", "！"]);
    }

    #[test]
    fn last_stripped_equals_the_tail_of_split_stripped() {
        for t in [
            "",
            "a",
            "a.",
            "The answer is 3.5.",
            " x \n\n y ! z ? ",
            "...",
            "a.b.c.d",
            "好。对！ ",
        ] {
            for nl in [true, false] {
                for n in 0..5 {
                    let all = split_stripped(t, nl);
                    let want: Vec<&str> = all.iter().rev().take(n).copied().collect();
                    assert_eq!(last_stripped(t, nl, n), want, "{t:?} {nl} {n}");
                }
            }
        }
    }

    #[test]
    fn selfaware_split_keeps_raw_pieces() {
        assert_eq!(split_raw("a. b", false), ["a", ".", " b"]);
        assert_eq!(split_raw("", false), [""]);
        assert_eq!(split_raw("x.", false), ["x", ".", ""]);
    }

    #[test]
    fn windows_follow_cut_sub_string() {
        assert_eq!(w("The answer is unknown.", 6), ["the answer is unknown"]);
        assert_eq!(w("a  b   c!", 6), ["a  b   c"]);
        assert_eq!(w("x", 6), [""]);
        assert_eq!(w(" x ", 5), [""]);
        assert_eq!(
            w("one two three four five six seven", 6),
            [
                "one two three four five six",
                "two three four five six seven"
            ]
        );
        assert_eq!(w("1 2 3 4 5 6", 5), ["1 2 3 4 5", "2 3 4 5 6"]);
        // Only one trailing character is removed, and only one of . , ? !
        assert_eq!(w("so,,", 6), ["so,"]);
        assert_eq!(w("so;", 6), ["so;"]);
        assert_eq!(w("İs", 6), ["i\u{307}s"]);
    }

    #[test]
    fn python_whitespace() {
        assert!(py_isspace('\u{1f}') && py_isspace('\u{3000}') && !py_isspace('\u{200b}'));
        assert_eq!(py_strip("\u{1c} a \u{85}"), "a");
    }
}
