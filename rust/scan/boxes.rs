//! `\boxed{..}` and `\fbox{..}`: where they are, and the answer a grader reads from them.
//!
//! One reading of a box, used by extraction, by the equivalence engine and by the gold check:
//! - the macro name, then optional whitespace (TeX skips it, newlines included), then the argument;
//! - a braced argument ends at its matching `}` (`\{`, `\}` do not count); an argument left open
//!   runs to the end of the text (a response cut off at the token limit: `\boxed{5` reads `5`);
//! - without braces, after whitespace, the argument is one token up to the next whitespace or `$`
//!   (`\boxed 5`);
//! - boxes are found left to right, outermost only (`\boxed{\boxed{3}}` is one box).

use super::braces::matching_brace;

/// One box: byte offsets into the text it was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxSpan {
    /// Start of the backslash.
    pub start: usize,
    /// End of the box (after the closing `}`, the token, or the end of the text).
    pub end: usize,
    /// The argument, untrimmed.
    pub content: (usize, usize),
}

impl BoxSpan {
    /// The argument, trimmed.
    pub fn content<'a>(&self, text: &'a str) -> &'a str {
        text[self.content.0..self.content.1].trim()
    }
}

/// The box whose backslash is at byte `i`, if one starts there.
pub fn box_at(s: &str, i: usize) -> Option<BoxSpan> {
    let r = s.get(i..)?;
    let mac_len = if r.starts_with("\\boxed") {
        6
    } else if r.starts_with("\\fbox") {
        5
    } else {
        return None;
    };
    let after = i + mac_len;
    let t = &s[after..];
    let ws = t.len() - t.trim_start().len();
    let open = after + ws;
    if s.as_bytes().get(open) == Some(&b'{') {
        let (close, end) = match matching_brace(s, open) {
            Some(c) => (c, c + 1),
            None => (s.len(), s.len()),
        };
        return Some(BoxSpan {
            start: i,
            end,
            content: (open + 1, close),
        });
    }
    if ws == 0 {
        return None; // `\boxedx`, `\boxed5`: another word, not a box
    }
    let tok_end = s[open..]
        .find(|c: char| c.is_whitespace() || c == '$')
        .map_or(s.len(), |k| open + k);
    (tok_end > open).then_some(BoxSpan {
        start: i,
        end: tok_end,
        content: (open, tok_end),
    })
}

/// Every outermost box, left to right.
pub fn find_boxes(text: &str) -> Vec<BoxSpan> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // Every box starts with `\boxed` or `\fbox`, so at one or two bytes before a "box": a search
    // for "box" skips the many other backslashes of a LaTeX-heavy response. A box starts at or
    // after `i` (the end of the last box), as a left-to-right scan of backslashes would find it.
    let mut i = 0;
    let mut from = 1;
    while from < b.len() {
        static BOX: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"box"));
        let Some(off) = BOX.find(&b[from..]) else {
            break;
        };
        let j = from + off;
        from = j + 1;
        let at = if b[j - 1] == b'\\' {
            j - 1
        } else if j >= 2 && b[j - 1] == b'f' && b[j - 2] == b'\\' {
            j - 2
        } else {
            continue;
        };
        if at < i {
            continue;
        }
        if let Some(bx) = box_at(text, at) {
            i = bx.end.max(at + 1);
            from = from.max(i + 1);
            out.push(bx);
        }
    }
    out
}

/// The trimmed argument when `s` is one box and nothing else.
pub fn whole_box(s: &str) -> Option<&str> {
    let bx = box_at(s, 0)?;
    (bx.end == s.len()).then(|| bx.content(s))
}

/// The part of an answer string a grader compares: the contents of the boxes if there are any,
/// else the whole text.
///
/// Several boxes are joined into one comma list when the text between them is empty, has no
/// letters (`\boxed{1}\boxed{2}`, `\boxed{a} ++ \boxed{b}`) or contains a connective ("and",
/// "or", `,`, `;`); otherwise only the last run of joined boxes counts (the model revised its
/// answer: `\boxed{1} no no \boxed{2}` is `2`).
pub fn answer_text(text: &str) -> String {
    boxed_answer(text).unwrap_or_else(|| text.to_string())
}

/// The joined contents of the last run of boxes (see [`answer_text`]), or `None` without a box.
pub fn boxed_answer(text: &str) -> Option<String> {
    let boxes = find_boxes(text);
    if boxes.is_empty() {
        return None;
    }
    // The last run of boxes that join: from the end, as far as they join (each `joins` builds
    // strings; a response that boxes every step has many boxes).
    let mut run_start = boxes.len() - 1;
    while run_start > 0 && joins(&text[boxes[run_start - 1].end..boxes[run_start].start]) {
        run_start -= 1;
    }
    let parts: Vec<&str> = boxes[run_start..].iter().map(|b| b.content(text)).collect();
    Some(parts.join(", "))
}

/// Does the text between two boxes join them into one answer?
pub(crate) fn joins(between: &str) -> bool {
    if between.chars().count() > 80 {
        return false;
    }
    // Drop LaTeX wrappers so only words and punctuation remain.
    let mut cleaned = String::new();
    let mut chars = between.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            // Skip a command name (`\text`, `\quad`) but keep braced words.
            while chars.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                chars.next();
            }
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let lower = cleaned.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    // "and"/"or" join even with other words ("for part (a) and"); a bare comma joins only
    // without words, so "\boxed{5}, no wait, \boxed{6}" keeps the revision.
    words.is_empty() || words.iter().any(|w| *w == "and" || *w == "or")
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// The last run of joined boxes, found from the end, is the one a pass from the start finds.
        #[test]
        fn the_last_run_from_the_end_is_the_last_run(t in "(\\\\boxed\\{[0-9x]\\}| and | or |, |;|\\\\text\\{ wait \\}| so | x = | ){0,12}") {
            let boxes = find_boxes(&t);
            let mut run_start = 0;
            for k in 1..boxes.len() {
                if !joins(&t[boxes[k - 1].end..boxes[k].start]) {
                    run_start = k;
                }
            }
            let expected = (!boxes.is_empty()).then(|| {
                let parts: Vec<&str> = boxes[run_start..].iter().map(|b| b.content(&t)).collect();
                parts.join(", ")
            });
            proptest::prop_assert_eq!(boxed_answer(&t), expected);
        }
    }

    use super::*;
    use proptest::prelude::*;

    /// The scan `find_boxes` replaced: every backslash, left to right.
    fn find_boxes_by_backslash(text: &str) -> Vec<BoxSpan> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(off) = memchr::memchr(b'\\', &b[i..]) {
            let at = i + off;
            match box_at(text, at) {
                Some(bx) => {
                    i = bx.end.max(at + 1);
                    out.push(bx);
                }
                None => i = at + 1,
            }
            if i >= b.len() {
                break;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn the_box_search_finds_what_the_backslash_scan_found(
            t in r"(\\boxed|\\fbox|\\|box|boxed|fbox|f|\{|\}|\\\{| |x|1|\$|é)*"
        ) {
            prop_assert_eq!(find_boxes(&t), find_boxes_by_backslash(&t));
        }
    }

    fn contents(t: &str) -> Vec<&str> {
        find_boxes(t).iter().map(|b| b.content(t)).collect()
    }

    #[test]
    fn the_one_reading_of_a_box() {
        assert_eq!(contents("a \\boxed{5} b \\fbox{6}"), ["5", "6"]);
        assert_eq!(contents("\\boxed {5}"), ["5"]);
        assert_eq!(contents("\\boxed\n{6}"), ["6"]);
        assert_eq!(contents("\\boxed{\\boxed{3}}"), ["\\boxed{3}"]);
        assert_eq!(contents("\\boxed{\\{1\\}}"), ["\\{1\\}"]);
        // Cut off at the token limit: the open argument runs to the end.
        assert_eq!(contents("so \\boxed{5 apples"), ["5 apples"]);
        assert_eq!(contents("\\boxed{"), [""]);
        // One token without braces.
        assert_eq!(contents("\\boxed 5"), ["5"]);
        assert_eq!(contents("$\\boxed 12$."), ["12"]);
        // Other words.
        assert!(find_boxes("\\boxedx{5} \\boxed5 \\box{5} \\fboxsep").is_empty());
        assert!(find_boxes("\\boxed ").is_empty());
    }

    #[test]
    fn whole_boxes() {
        assert_eq!(whole_box("\\boxed{ 7 }"), Some("7"));
        assert_eq!(whole_box("\\boxed{7} m"), None);
        assert_eq!(whole_box("\\boxed{7"), Some("7"));
        assert_eq!(whole_box("\\boxed 7"), Some("7"));
        assert_eq!(whole_box("x \\boxed{7}"), None);
    }

    #[test]
    fn boxes_are_joined_only_across_connectives() {
        assert_eq!(answer_text("\\boxed{1} papers and \\boxed{2} bins"), "1, 2");
        assert_eq!(answer_text("\\boxed{1} no no no \\boxed{2}"), "2");
        assert_eq!(answer_text("\\boxed{1}\\boxed{2}"), "1, 2");
        assert_eq!(answer_text("\\boxed{1}, \\boxed 2"), "1, 2");
        assert_eq!(
            answer_text("so $x = \\boxed{\\frac{1}{2}}$."),
            "\\frac{1}{2}"
        );
        assert_eq!(answer_text("no box"), "no box");
        assert_eq!(boxed_answer("no box"), None);
    }

    proptest::proptest! {
        #[test]
        fn spans_are_char_boundaries_and_never_panic(t in "(\\\\boxed|\\\\fbox|\\{|\\}|\\\\|[ \\n$]|é|5|x){0,24}") {
            for b in find_boxes(&t) {
                proptest::prop_assert!(t.is_char_boundary(b.start) && t.is_char_boundary(b.end));
                proptest::prop_assert!(t.is_char_boundary(b.content.0) && t.is_char_boundary(b.content.1));
                proptest::prop_assert!(b.content.0 <= b.content.1 && b.content.1 <= b.end);
            }
            let _ = answer_text(&t);
        }
    }
}
