//! The seed's pyparsing grammars, re-expressed as hand-written scanners with pyparsing 3's
//! exact semantics: `searchString` skips the default whitespace (" \n\t\r") before each attempt,
//! advances one character after a failure and resumes after a match; `Combine` forbids
//! whitespace inside a token; `Word` with a maximum length is compiled to a bounded regex, so it
//! takes the first characters of a longer run instead of failing; `nestedExpr` skips quoted
//! strings as units.

const WS: &[u8] = b" \n\t\r";

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && WS.contains(&s[i]) {
        i += 1;
    }
    i
}

/// `Word('-' + nums, nums)`: `[-0-9][0-9]*`. Returns the end.
fn word_signed(s: &[u8], i: usize) -> Option<usize> {
    if i < s.len() && (s[i] == b'-' || s[i].is_ascii_digit()) {
        Some(digits_end(s, i + 1))
    } else {
        None
    }
}

fn digits_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// `Word(nums)` with at least one digit.
fn word_nums(s: &[u8], i: usize) -> Option<usize> {
    let e = digits_end(s, i);
    (e > i).then_some(e)
}

fn lit(s: &[u8], i: usize, c: u8) -> Option<usize> {
    (i < s.len() && s[i] == c).then_some(i + 1)
}

/// One token of `search_for_numbers` at `i` (whitespace already skipped): (end, token text).
fn number_token(text: &str, i: usize) -> Option<(usize, String)> {
    let s = text.as_bytes();
    // latex: Combine(Suppress('$') + SkipTo('$') + Suppress('$'))
    if s[i] == b'$' {
        if let Some(j) = text[i + 1..].find('$') {
            let j = i + 1 + j;
            return Some((j + 1, text[i + 1..j].to_string()));
        }
    }
    // scientific: Combine(Word('-'+nums, nums) + 'e' + Word('-'+nums, nums))
    if let Some(a) = word_signed(s, i) {
        if let Some(b) = lit(s, a, b'e') {
            if let Some(c) = word_signed(s, b) {
                return Some((c, text[i..c].to_string()));
            }
        }
    }
    // fraction: Combine(Word('-'+nums, nums) + '/' + Word(nums))
    if let Some(a) = word_signed(s, i) {
        if let Some(b) = lit(s, a, b'/') {
            if let Some(c) = word_nums(s, b) {
                return Some((c, text[i..c].to_string()));
            }
        }
    }
    // decimal: Combine(Optional(Word('-'+nums, nums)) + '.' + Word(nums)); Optional never backtracks.
    {
        let a = word_signed(s, i).unwrap_or(i);
        if let Some(b) = lit(s, a, b'.') {
            if let Some(c) = word_nums(s, b) {
                return Some((c, text[i..c].to_string()));
            }
        }
    }
    // number_with_comma: Combine(Optional(Word("+-", exact=1)) + Word(nums, max=3)
    //   + OneOrMore(Suppress(",") + Word(nums, min=3, max=3)) + Suppress(~Literal(",")))
    {
        let mut out = String::new();
        let mut k = i;
        if k < s.len() && (s[k] == b'+' || s[k] == b'-') {
            out.push(s[k] as char);
            k += 1;
        }
        let lead_end = bounded_digits(s, k, 1, 3);
        if let Some(e) = lead_end {
            out.push_str(&text[k..e]);
            k = e;
            let mut groups = 0;
            while k < s.len() && s[k] == b',' {
                match bounded_digits(s, k + 1, 3, 3) {
                    Some(e) => {
                        out.push_str(&text[k + 1..e]);
                        k = e;
                        groups += 1;
                    }
                    None => break,
                }
            }
            if groups > 0 && !(k < s.len() && s[k] == b',') {
                return Some((k, out));
            }
        }
    }
    // integer: Word('-'+nums, nums)
    word_signed(s, i).map(|e| (e, text[i..e].to_string()))
}

/// `[0-9]{min,max}` anchored at `i`, greedy, not required to end at a non-digit.
fn bounded_digits(s: &[u8], i: usize, min: usize, max: usize) -> Option<usize> {
    let mut e = i;
    while e < s.len() && e - i < max && s[e].is_ascii_digit() {
        e += 1;
    }
    (e - i >= min).then_some(e)
}

/// Python's `str.expandtabs()` (tab stops every 8 columns, the column restarting after `\n`
/// and `\r`), which pyparsing's `searchString` applies before scanning.
pub fn expand_tabs(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut col = 0usize;
    for c in text.chars() {
        match c {
            '\t' => {
                let n = 8 - col % 8;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\n' | '\r' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `search_for_numbers`: every token, in order.
pub fn search_for_numbers(text: &str) -> Vec<String> {
    search_string(&expand_tabs(text), number_token)
}

/// pyparsing's `searchString` loop: at each position (after skipping whitespace) try `token`;
/// on a match record it and resume at its end, else advance one character.
fn search_string(
    text: &str,
    token: impl Fn(&str, usize) -> Option<(usize, String)>,
) -> Vec<String> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut loc = 0;
    while loc < s.len() {
        let pre = skip_ws(s, loc);
        if pre >= s.len() {
            break;
        }
        crate::work::count(1);
        match token(text, pre) {
            Some((end, tok)) => {
                out.push(tok);
                loc = end;
            }
            None => loc = next_char(text, pre),
        }
    }
    out
}

/// Byte index of the character after the one starting at `i`.
fn next_char(text: &str, i: usize) -> usize {
    let mut j = i + 1;
    while j < text.len() && !text.is_char_boundary(j) {
        j += 1;
    }
    j
}

/// pyparsing's `quoted_string` at `i`: `"(?:[^"\n\r\\]|""|\\(?:[^x]|x[0-9a-fA-F]+))*` followed by
/// `"` (or the same with `'`). The body is matched greedily first and never backtracked, as
/// pyparsing's `Regex + '"'` does.
fn quoted_string_end(text: &str, i: usize) -> Option<usize> {
    let s = text.as_bytes();
    let q = s[i];
    if q != b'"' && q != b'\'' {
        return None;
    }
    let mut k = i + 1;
    loop {
        if k >= s.len() {
            break;
        }
        let c = s[k];
        if c == q {
            if k + 1 < s.len() && s[k + 1] == q {
                k += 2; // doubled quote
                continue;
            }
            break;
        }
        if c == b'\n' || c == b'\r' {
            break;
        }
        if c == b'\\' {
            // `\\(?:[^x]|x[0-9a-fA-F]+)`
            if k + 1 >= s.len() {
                break;
            }
            if s[k + 1] == b'x' {
                let mut h = k + 2;
                while h < s.len() && s[h].is_ascii_hexdigit() {
                    h += 1;
                }
                if h == k + 2 {
                    break;
                }
                k = h;
            } else {
                k = next_char(text, k + 1);
            }
            continue;
        }
        k = next_char(text, k);
    }
    (k < s.len() && s[k] == q).then_some(k + 1)
}

/// `nestedExpr('{', '}')` at `i` (after whitespace skipping): end of the balanced group. Depth
/// is bounded so adversarial input cannot exhaust the stack; pyparsing would raise
/// RecursionError there, which the seed's callers would not survive either.
#[cfg(test)]
pub(crate) fn nested_braces_end(text: &str, i: usize) -> Option<usize> {
    nested_braces_end_counted(text, i).0
}

/// [`nested_braces_end`] and the number of tokens it stepped over.
fn nested_braces_end_counted(text: &str, i: usize) -> (Option<usize>, usize) {
    let s = text.as_bytes();
    if i >= s.len() || s[i] != b'{' {
        return (None, 0);
    }
    let mut depth = 1usize;
    let mut k = i + 1;
    let mut steps = 0usize;
    loop {
        steps += 1;
        crate::work::count(1);
        k = skip_ws(s, k);
        if k >= s.len() {
            return (None, steps);
        }
        match s[k] {
            b'{' => {
                depth += 1;
                if depth > MAX_GROUP_DEPTH {
                    return (None, steps);
                }
                k += 1;
            }
            b'}' => {
                depth -= 1;
                k += 1;
                if depth == 0 {
                    return (Some(k), steps);
                }
            }
            b'"' | b'\'' => match quoted_string_end(text, k) {
                Some(e) => k = e,
                None => k = next_char(text, k),
            },
            _ => k = next_char(text, k),
        }
    }
}

/// `nestedExpr('{', '}')` answered for many starts in one text, in linear total work.
///
/// pyparsing's scanners try a group at every candidate start and rescan up to the end (or to the
/// depth limit) from each: quadratic on `\boxed{\boxed{...` (the seed's own behaviour). The
/// answer for every start is the same as [`nested_braces_end`]'s:
/// - without quote characters the scan visits every byte from its start, so one bracket-matching
///   pass with a stack gives every group's end, and a group fails when the stack grows more than
///   the depth limit above it while it is open;
/// - with quotes, scans from different starts can step through different quoted units, so each
///   start is scanned on its own, within a total budget of steps ([`GROUP_SCAN_BUDGET`]); past
///   it, later starts find no group (where the seed would hit its 5 s timeout).
pub(crate) struct GroupEnds<'a> {
    text: &'a str,
    /// Sorted `{` offsets and the end of the group each opens (no-quote texts only).
    index: Option<(Vec<usize>, Vec<Option<usize>>)>,
    budget: std::cell::Cell<usize>,
}

/// Total scan steps for texts with quote characters (see [`GroupEnds`]).
pub(crate) const GROUP_SCAN_BUDGET: usize = 8 << 20;

/// pyparsing's recursion stands in for this depth limit (see [`nested_braces_end`]).
const MAX_GROUP_DEPTH: usize = 10_000;

impl<'a> GroupEnds<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        crate::work::count(text.len());
        let index = (!text.bytes().any(|b| b == b'"' || b == b'\'')).then(|| {
            let (mut opens, mut ends) = (Vec::new(), Vec::new());
            let mut stack: Vec<usize> = Vec::new();
            // Stack entries below this index are known to exceed the depth limit.
            let mut marked = 0usize;
            let mut failed: Vec<bool> = Vec::new();
            for (pos, b) in text.bytes().enumerate() {
                match b {
                    b'{' => {
                        stack.push(opens.len());
                        opens.push(pos);
                        ends.push(None);
                        failed.push(false);
                        while marked + MAX_GROUP_DEPTH < stack.len() {
                            failed[stack[marked]] = true;
                            marked += 1;
                        }
                    }
                    b'}' => {
                        if let Some(k) = stack.pop() {
                            if !failed[k] {
                                ends[k] = Some(pos + 1);
                            }
                            marked = marked.min(stack.len());
                        }
                    }
                    _ => {}
                }
            }
            (opens, ends)
        });
        GroupEnds {
            text,
            index,
            budget: std::cell::Cell::new(GROUP_SCAN_BUDGET),
        }
    }

    /// Same as `nested_braces_end(text, i)`.
    pub(crate) fn end(&self, i: usize) -> Option<usize> {
        match &self.index {
            Some((opens, ends)) => ends[opens.binary_search(&i).ok()?],
            None => {
                let left = self.budget.get();
                if left == 0 {
                    return None;
                }
                let (end, steps) = nested_braces_end_counted(self.text, i);
                self.budget.set(left.saturating_sub(steps));
                end
            }
        }
    }
}

/// `search_for_boxes`: contents of every `\boxed{...}` / `\mbox{...}` found by scanning.
pub fn search_for_boxes(text: &str) -> Vec<String> {
    let text = expand_tabs(text);
    let groups = GroupEnds::new(&text);
    search_string(&text, |text, pre| {
        let lit = ["\\boxed", "\\mbox"]
            .into_iter()
            .find(|l| text[pre..].starts_with(l))?;
        let b = skip_ws(text.as_bytes(), pre + lit.len());
        let e = groups.end(b)?;
        Some((e, text[b + 1..e - 1].to_string()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_pyparsing() {
        assert_eq!(search_for_numbers("3.5e-3"), ["3.5", "-3"]);
        assert_eq!(search_for_numbers("1.2e1"), ["1.2", "1"]);
        assert_eq!(search_for_numbers("zoo-keeper"), ["-"]);
        assert_eq!(search_for_numbers("$$x=1$$"), ["", "1", ""]);
        assert_eq!(
            search_for_numbers("1,234,567 and 1234,567"),
            ["1234567", "1234", "567"]
        );
        assert_eq!(search_for_numbers("a 2/3 b -.5"), ["2/3", "-.5"]);
        assert_eq!(search_for_numbers("$5$ boxes"), ["5"]);
        assert_eq!(search_for_numbers("\\[ x = \\frac{1}{2} \\]"), ["1", "2"]);
    }

    #[test]
    fn tabs_are_expanded_like_pyparsing() {
        assert_eq!(expand_tabs("a\tb\n\tc"), "a       b\n        c");
        assert_eq!(search_for_boxes("\\boxed{\ta}"), [" a"]);
        assert_eq!(search_for_numbers("$x\ty$"), ["x      y"]);
    }

    /// Every start of every small text: the one-pass index equals the per-start scan.
    fn assert_group_ends_match(text: &str) {
        let groups = GroupEnds::new(text);
        for i in 0..=text.len() {
            if text.is_char_boundary(i) {
                assert_eq!(groups.end(i), nested_braces_end(text, i), "{text:?} at {i}");
            }
        }
    }

    #[test]
    fn group_index_keeps_the_depth_limit() {
        for depth in [
            MAX_GROUP_DEPTH - 1,
            MAX_GROUP_DEPTH,
            MAX_GROUP_DEPTH + 1,
            MAX_GROUP_DEPTH + 7,
        ] {
            let text = format!("{}x{}", "{".repeat(depth), "}".repeat(depth));
            let groups = GroupEnds::new(&text);
            for i in [0, 1, 5, 7, 8, depth / 2, depth - 1] {
                assert_eq!(
                    groups.end(i),
                    nested_braces_end(&text, i),
                    "depth {depth} at {i}"
                );
            }
        }
        // A deep group closed later, and a shallow one opened after the deep part closed.
        let text = format!(
            "{}{}{{a}}",
            "{".repeat(MAX_GROUP_DEPTH + 2),
            "}".repeat(MAX_GROUP_DEPTH + 2)
        );
        let groups = GroupEnds::new(&text);
        let last = text.len() - 3;
        assert_eq!(groups.end(last), Some(text.len()));
        assert_eq!(groups.end(0), None);
        assert_eq!(groups.end(3), Some(text.len() - 6));
    }

    #[test]
    fn nested_unclosed_boxes_take_linear_work() {
        // The seed rescans from every `\boxed{`; the index answers each start at once, so a
        // 20k-deep pile is decided by one pass (the per-start scan would take 10^8 steps).
        let n = 20_000;
        let text = "\\boxed{".repeat(n);
        assert!(search_for_boxes(&text).is_empty());
        let closed = format!("{}5{}", "\\boxed{".repeat(n), "}".repeat(n));
        let found = search_for_boxes(&closed);
        // Starts deeper than the limit fail; the first within it takes the rest.
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].len(),
            closed.len() - 7 * (n - MAX_GROUP_DEPTH) - 8 - (n - MAX_GROUP_DEPTH)
        );
    }

    #[test]
    fn quoted_texts_scan_within_a_budget() {
        let text = format!("\"{}", "\\mbox{".repeat(4_000));
        let groups = GroupEnds::new(&text);
        assert!(groups.index.is_none());
        let mut calls = 0;
        for i in 0..text.len() {
            calls += usize::from(groups.end(i).is_some());
        }
        assert_eq!(calls, 0);
        assert!(groups.budget.get() < GROUP_SCAN_BUDGET);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn group_index_equals_the_scan(t in "[{} a\\\\\n\té]{0,40}") {
            assert_group_ends_match(&t);
        }
    }

    #[test]
    fn boxes_nest_and_skip_quotes() {
        assert_eq!(
            search_for_boxes("\\boxed{1} then \\boxed{\\frac{1}{2}}"),
            ["1", "\\frac{1}{2}"]
        );
        assert_eq!(search_for_boxes("\\boxed {\\boxed{5}}"), ["\\boxed{5}"]);
        assert_eq!(search_for_boxes("\\mbox{a}\\fbox{b}"), ["a"]);
        assert_eq!(search_for_boxes("\\boxed{\"}\"}"), ["\"}\""]);
        assert_eq!(search_for_boxes("\\boxed{5"), Vec::<String>::new());
    }
}
