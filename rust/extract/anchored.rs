//! The answer in an anchored sentence: what follows an anchor up to the end of its sentence, a
//! box or display in it or on the next line, a number before a connective, and when the sentence is
//! prose that gives way to a box elsewhere (docs/policies.md, "Extraction").

use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::anchors::word_at;
use super::languages::{
    first_word, is_cjk_word_char, is_connective, CJK_ENDS, CURRENCY_AFTER, NOT_AN_ANSWER,
};
use super::spans::{last_math_span, math_span_at, math_span_or_dead_end, Span, Unclosed};
use crate::number::scan_numbers;
use crate::scan::boxes::{self, box_at, whole_box};
use crate::scan::trim;
use crate::work::count as count_work;

/// What follows an anchor.
pub(super) enum AfterAnchor {
    /// The answer.
    Answer(String),
    /// No answer: an earlier anchor or the fallbacks decide.
    Nothing,
    /// A sentence of prose that holds no answer while the response has a box: the box decides.
    Prose,
}

/// At most this many bytes after an anchored sentence are searched for a display or box on the
/// next line (an answer is short; the bound keeps a run of anchors linear).
const NEXT_LINE_WINDOW: usize = 4096;

/// `#### 3. Probability of heads`: a numbered Markdown heading (a number, `.`, `)` or `:`, a space and
/// a word), not GSM8K's answer line (issue 33). Reads a few bytes only.
fn numbered_heading(rest: &str) -> bool {
    let r = rest.trim_start_matches([' ', '\t']).as_bytes();
    let digits = r.iter().take(4).take_while(|c| c.is_ascii_digit()).count();
    (1..=3).contains(&digits)
        && r.get(digits)
            .is_some_and(|c| matches!(c, b'.' | b')' | b':'))
        && r.get(digits + 1) == Some(&b' ')
        && r.len() >= digits + 4
        && r[digits + 2..digits + 4]
            .iter()
            .all(u8::is_ascii_alphabetic)
}

/// The answer right after an anchor ending at `pos`.
///
/// The anchored text is the rest of the line, up to the end of its sentence. Within it:
/// a box or math span right after the anchor is the answer; else a box anywhere in the sentence
/// ("The answer is the smaller value, that is, $\boxed{-4}$"); else, when the sentence ends in
/// ":" or is prose without a number or math, a display or box that starts the next line ("The
/// answer is Month 6, which is:\n\[\boxed{\text{June}}\]"); else a math span that ends a sentence
/// with no number outside math ("which gives \[x = \frac72\]"). A sentence that is prose (no number
/// and no math, three or more words; or a hedge with two or more numbers among four or more words)
/// gives way to a box anywhere in the response.
pub(super) fn answer_after_anchor(
    text: &str,
    pos: usize,
    has_box: &mut Option<bool>,
) -> AfterAnchor {
    use AfterAnchor::{Answer, Nothing, Prose};
    let answer = |s: String| non_empty(s).map_or(Nothing, Answer);
    const SPACE_COLON: [char; 7] = [' ', '\t', ':', '*', '\u{a0}', '：', '\u{3000}'];
    let rest = text[pos..].trim_start_matches(SPACE_COLON);
    let mut rest = rest.trim_start_matches(['\n', ' ', '\t', ':', '*']);
    // "die Antwort" ends on the noun: its verb ("ist", "lautet") or ':' may follow; else the
    // answer must start right there ("ist die Antwort 8"), or the noun is only mentioned.
    if text[..pos].len() >= 7 && text.as_bytes()[pos - 7..pos].eq_ignore_ascii_case(b"antwort") {
        let b = rest.as_bytes();
        if let Some(v) = [&b"ist"[..], b"lautet"]
            .into_iter()
            .find(|v| word_at(b, 0, v))
        {
            rest = rest[v.len()..].trim_start_matches(SPACE_COLON);
        } else if !text[pos..].trim_start().starts_with(':')
            && !rest.starts_with(|c: char| c.is_ascii_digit() || "-+$\\(".contains(c))
        {
            return Nothing;
        }
    }
    if rest.is_empty() {
        return Nothing;
    }
    // Chinese or Japanese words after "答案是" / "答えは" ("答案是否正确", "答えは次の通り") are
    // about the answer, not the answer.
    if !rest.as_bytes()[0].is_ascii() && rest.starts_with(is_cjk_word_char) {
        return Nothing;
    }
    // A math span or box right after the anchor is the answer, whatever follows it.
    if let Some(b) = box_at(rest, 0) {
        return answer(b.content(rest).to_string());
    }
    if let Some((content, span_end)) = math_span_at(rest, 0) {
        // "$\angle 2$ measures 52 degrees": the span names what the sentence states (issue 33).
        if !names_a_value(&rest[span_end..]) {
            return answer(unboxed(content.trim()));
        }
    }
    // "#### Heading" is Markdown, not an answer: a GSM8K-style "####" answer starts like a number.
    // Decided on the first character, before the line is read, so that a run of anchors that all
    // fail ("########...") costs constant work each, not a scan of the rest of the line.
    if text[..pos].ends_with("####")
        && (!rest
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit() || "-+$\\.(".contains(c))
            || numbered_heading(rest))
    {
        return Nothing;
    }
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let first_word = &rest[..word_len];
    if !first_word.is_empty()
        && NOT_AN_ANSWER
            .iter()
            .any(|w| w.eq_ignore_ascii_case(first_word))
    {
        return Nothing;
    }
    // Up to the end of the line, then of the sentence ('.' not inside a number).
    let line = rest.split('\n').next().unwrap_or("");
    count_work(line.len());
    let b = line.as_bytes();
    // An ideographic full stop ends the sentence ("答案是 24，共 3 步。").
    // (All three are multi-byte: an ASCII line, nearly every one, cannot hold them.)
    let mut end = if line.is_ascii() {
        line.len()
    } else {
        line.find(['。', '！', '？']).unwrap_or(line.len())
    };
    for i in memchr::memchr_iter(b'.', &b[..end]) {
        let next_digit = i + 1 < b.len() && b[i + 1].is_ascii_digit();
        // An ellipsis ("2*7 + 3*6 + ... = 81") does not end the sentence.
        let ellipsis = i >= 2 && b[i - 1] == b'.' && b[i - 2] == b'.';
        // Nor does "i.e." or "e.g." ("approximately 3.46, i.e. $2\sqrt{3}$").
        let abbreviation = i >= 3 && matches!(&b[i - 3..i], b"i.e" | b"e.g");
        if !next_digit && !ellipsis && !abbreviation && (i + 1 == b.len() || b[i + 1] == b' ') {
            end = i;
            break;
        }
    }
    let sentence = &line[..end];
    // A box inside the anchored sentence is its answer.
    // (Only a sentence with a backslash can hold a box or `\[`; `$` spans are checked by the shape.)
    if sentence.contains('\\') {
        if let Some(bx) = boxes::boxed_answer(sentence) {
            return answer(bx);
        }
    }
    let shape = SentenceShape::of(sentence);
    let mut ans = trim(trim(sentence).trim_end_matches(['*', '.', ' ']));
    // The sentence announces an answer on the next line: "which is:\n\[ \boxed{8} \]".
    let reaches_line_end = line[end..].trim_matches(['.', ' ', '*', '。']).is_empty();
    let prose_only = !shape.digit && !shape.math && shape.words >= 3;
    if reaches_line_end && (ans.ends_with(':') || prose_only) {
        if let Some(a) = display_starting(&rest[line.len()..]) {
            return answer(a);
        }
    }
    // A math span that ends a sentence with no number outside math: "which gives $x = 2$".
    if shape.math && !shape.digit {
        if let Some((m, m_end)) = last_math_span(sentence) {
            if sentence[m_end..]
                .trim_matches(|c: char| c.is_whitespace() || ".,;:!*".contains(c))
                .is_empty()
            {
                return answer(m);
            }
        }
    }
    // Is the sentence prose (or a hedge with several numbers) in a response that has a box? The
    // box test comes before counting the numbers, which only a response with a box needs.
    let response_has_box = |has_box: &mut Option<bool>| {
        *has_box.get_or_insert_with(|| {
            count_work(text.len());
            // Finders built once: `memmem::find` builds one per call, which cost more than the
            // search on a response of a few hundred bytes.
            static BOXED: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\boxed"));
            static FBOX: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\fbox"));
            BOXED.find(text.as_bytes()).is_some() || FBOX.find(text.as_bytes()).is_some()
        })
    };
    let hedge = |shape: &SentenceShape| shape.words >= 4 && shape.numbers() >= 2;
    if (prose_only || (shape.digit && shape.words >= 4))
        && response_has_box(has_box)
        && (prose_only || hedge(&shape))
        && !boxes::find_boxes(text).is_empty()
    {
        return Prose;
    }
    if let Some(b) = whole_box(ans) {
        return answer(b.to_string());
    }
    // "The answer is no, since 2 is even": the word, not its reason (issue 33).
    if let Some(w) = yes_or_no_first(ans) {
        return answer(w.to_string());
    }
    // "The answer is 5!" ends a sentence with an exclamation, not a factorial (issue 33).
    if let Some(n) = ans.strip_suffix('!') {
        if !n.is_empty()
            && n.bytes()
                .all(|c| c.is_ascii_digit() || c == b',' || c == b'.')
        {
            return answer(n.to_string());
        }
    }
    if let Some(n) = number_before_connective(ans) {
        return answer(n.to_string());
    }
    ans = ans.trim_end_matches(',');
    // A sentence of prose with several numbers or a math span: the value it asserts ("the
    // answer is: $\angle 2$ measures 52 degrees" -> 52), when it can be read (issue 33).
    if (shape.words >= 2 && shape.numbers() >= 2) || (shape.words >= 1 && shape.math) {
        if let Some(v) = super::sentence::sentence_value(ans) {
            return answer(v);
        }
    }
    answer(ans.to_string())
}

/// `yes` / `no` opening an anchored sentence and followed by punctuation: "no, since 2 is even".
fn yes_or_no_first(ans: &str) -> Option<&str> {
    let n = ans.bytes().take_while(u8::is_ascii_alphabetic).count();
    let w = &ans[..n];
    let yes_no = w.eq_ignore_ascii_case("yes") || w.eq_ignore_ascii_case("no");
    let next = ans[n..].chars().next();
    (yes_no && n < ans.len() && next.is_some_and(|c| ",;:!—".contains(c))).then_some(w)
}

/// Does the text after a math span that opens an anchored sentence go on to state its value
/// ("$\angle 2$ measures 52 degrees", "$x$ is 4")? A verb and then a digit on the same line.
fn names_a_value(after: &str) -> bool {
    let line = after.split('\n').next().unwrap_or("");
    ["measures ", "is ", "equals ", "are "]
        .iter()
        .any(|v| line.trim_start().starts_with(v))
        && line.bytes().any(|c| c.is_ascii_digit())
}

/// The number in an anchored sentence when a connective follows it ("12, not 15" -> "12"): the
/// sentence is about the number, and its other numbers are not the answer. The number starts the
/// sentence, or follows words only ("Janeth aura encore 220 $ à payer d'ici 12 mois" -> "220").
/// So does a unit word, a comma and a connective ("20 dollars, which is 2 more than ..." ->
/// "20"). A list ("3 and 5"), an expression ("2 + 3 = 5") or a unit word without the comma ("30
/// apples in 2 days") is left whole.
fn number_before_connective(ans: &str) -> Option<&str> {
    let b = ans.as_bytes();
    // Leading words: letters, spaces, apostrophes and commas up to the first digit or sign.
    let lead = ans
        .char_indices()
        .find(|&(_, c)| !(c.is_alphabetic() || c == ' ' || c == '\'' || c == '’' || c == ','))
        .map_or(ans.len(), |(k, _)| k);
    let lead = if lead > 0
        && b.get(lead)
            .is_some_and(|&c| c.is_ascii_digit() || c == b'$')
    {
        // Words before the number must end with a space ("x2" is not a word and a number).
        if b[lead - 1] != b' ' {
            return None;
        }
        lead
    } else if lead == 0 {
        0
    } else {
        return None;
    };
    let mut i = lead + usize::from(b.get(lead).is_some_and(|&c| c == b'-' || c == b'$'));
    let start_digits = i;
    while i < b.len()
        && (b[i].is_ascii_digit()
            || (b[i] == b',' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
            || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
    {
        i += 1;
    }
    if i == start_digits || !b[start_digits].is_ascii_digit() {
        return None;
    }
    let number = &ans[lead..i];
    let mut rest = ans[i..].trim_start();
    let spaced = rest.len() < ans.len() - i;
    if let Some(r) = rest.strip_prefix(CURRENCY_AFTER) {
        if !spaced && !r.starts_with(' ') {
            return None;
        }
        rest = r.trim_start();
    }
    if CJK_ENDS.iter().any(|e| rest.starts_with(e)) {
        return Some(number);
    }
    // One unit word, a comma, then a clause about the number: "20 dollars, which is 2 more than
    // 3 weeks ago" -> "20" (the clause's numbers are not the answer).
    let (unit, whole) = first_word(rest);
    if whole && !unit.is_empty() && unit.chars().all(char::is_alphabetic) {
        let after = rest[unit.len()..].trim_start();
        if let Some(clause) = after.strip_prefix(',') {
            if is_connective(clause.trim_start()) {
                return Some(number);
            }
        }
    }
    let rest2 = rest.trim_start_matches(',').trim_start();
    if rest2.len() == ans.len() - i {
        return None; // nothing separates the number from what follows ("12abc")
    }
    is_connective(rest2).then_some(number)
}

/// The content of a display, math span or box that starts `after` (the text after an anchored
/// line), skipping blank lines; a box inside the display is unwrapped.
fn display_starting(after: &str) -> Option<String> {
    let next = after.trim_start();
    let mut cut = next.len().min(NEXT_LINE_WINDOW);
    while !next.is_char_boundary(cut) {
        cut -= 1;
    }
    let next = &next[..cut];
    count_work(next.len());
    if let Some(bx) = box_at(next, 0) {
        return Some(bx.content(next).to_string());
    }
    math_span_at(next, 0).map(|(content, _)| unboxed(content.trim()))
}

/// `\boxed{x}` -> `x`; any other text unchanged.
fn unboxed(s: &str) -> String {
    whole_box(s).map_or(s, |b| b).to_string()
}

/// What an anchored sentence holds outside its math spans.
struct SentenceShape<'a> {
    /// The sentence with its math spans and command names blanked out.
    outside: std::borrow::Cow<'a, str>,
    /// An ASCII digit outside math.
    digit: bool,
    /// At least one math span.
    math: bool,
    /// Words of two or more letters outside math and not LaTeX commands.
    words: usize,
}

impl<'a> SentenceShape<'a> {
    /// Numbers outside math (counted on demand: only a hedge test needs them).
    fn numbers(&self) -> usize {
        scan_numbers(&self.outside).len()
    }

    fn of(s: &'a str) -> SentenceShape<'a> {
        let (outside, math) = if s.bytes().any(|c| c == b'$' || c == b'\\') {
            let (o, m) = Self::blank_math(s);
            (std::borrow::Cow::Owned(o), m)
        } else {
            (std::borrow::Cow::Borrowed(s), false)
        };
        let words = if outside.is_ascii() {
            // The same count by bytes: on ASCII, `char::is_alphabetic` is `is_ascii_alphabetic`.
            outside
                .as_bytes()
                .split(|c| !c.is_ascii_alphabetic())
                .filter(|w| w.len() >= 2)
                .count()
        } else {
            outside
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.chars().nth(1).is_some())
                .count()
        };
        SentenceShape {
            digit: outside.bytes().any(|c| c.is_ascii_digit()),
            math,
            words,
            outside,
        }
    }

    /// The sentence with math spans and command names replaced by a space, and whether it had a
    /// math span.
    fn blank_math(s: &str) -> (String, bool) {
        let mut outside = String::with_capacity(s.len());
        let mut math = false;
        let b = s.as_bytes();
        let mut i = 0;
        let mut unclosed = Unclosed::default();
        while i < b.len() {
            if b[i] == b'$'
                || (b[i] == b'\\' && i + 1 < b.len() && (b[i + 1] == b'[' || b[i + 1] == b'('))
            {
                if let Span::Found(_, e) = math_span_or_dead_end(s, i, &mut unclosed) {
                    math = true;
                    outside.push(' ');
                    i = e;
                    continue;
                }
            }
            if b[i] == b'\\' {
                // A command name is not a word.
                i += 1;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                outside.push(' ');
                continue;
            }
            let ch_len = s[i..].chars().next().map_or(1, char::len_utf8);
            outside.push_str(&s[i..i + ch_len]);
            i += ch_len;
        }
        (outside, math)
    }
}

fn non_empty(s: String) -> Option<String> {
    let t = trim(&s);
    if t.len() == s.len() {
        // Already trimmed (the usual case): no second copy.
        return (!s.is_empty()).then_some(s);
    }
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use crate::extract::{ex, extract, ExtractedBy};

    #[test]
    fn anchors_take_the_answer_not_the_tail() {
        assert_eq!(
            ex("so The answer is: 18. Then we check 5.").as_deref(),
            Some("18")
        );
        assert_eq!(
            ex("The answer is: 18.\nThe answer is correct because 3+15=18.").as_deref(),
            Some("18")
        );
        assert_eq!(
            ex("The final answer is $\\frac{1}{2}$. Done").as_deref(),
            Some("\\frac{1}{2}")
        );
        assert_eq!(ex("the answer is \\boxed{7} apples").as_deref(), Some("7"));
        assert_eq!(ex("#### 1,234").as_deref(), Some("1,234"));
        assert_eq!(
            ex("The answer is: 12\n#### Note\nmore").as_deref(),
            Some("12")
        );
        assert_eq!(ex("Answer: 3.5 km").as_deref(), Some("3.5 km"));
    }

    #[test]
    fn a_number_followed_by_a_connective_is_the_answer() {
        for (text, want) in [
            ("The answer is 12, not 15.", "12"),
            (
                "The answer is 20 dollars, which is 2 more than 3 weeks ago.",
                "20",
            ),
            ("So the answer is 30 in 2 days.", "30"),
            ("The answer is 8 after 3 steps.", "8"),
            ("The answer is $1,250 because the rest was spent.", "$1,250"),
            ("The answer is -3.5 since x < 0.", "-3.5"),
            ("Answer: 7 as computed above", "7"),
            // An ellipsis does not end the sentence (reported in antirez/ds4 PR 319).
            ("Answer: 2*7 + 3*6 + ... = 81", "2*7 + 3*6 + ... = 81"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
        // Lists, expressions and unit words keep the whole sentence.
        for (text, want) in [
            ("The answer is 3 and 5.", "3 and 5"),
            ("The answer is 2 + 3 = 5.", "2 + 3 = 5"),
            ("The answer is 30 apples in 2 days.", "30 apples in 2 days"),
            ("The answer is 12abc not 15.", "12abc not 15"),
            ("The answer is 18.", "18"),
        ] {
            assert_eq!(ex(text).as_deref(), Some(want), "{text}");
        }
    }

    /// An anchor followed by prose (issue 13): a box or display in the anchored sentence, or on the
    /// next line after a sentence that announces it, wins over the prose; a prose sentence gives
    /// way to a box elsewhere in the response.
    #[test]
    fn anchor_followed_by_prose() {
        let cases: &[(&str, &str)] = &[
            // A box or display later in the anchored sentence.
            ("The answer is Month 6, which is: \\[\\boxed{\\text{June}}\\]", "\\text{June}"),
            ("The answer is the smaller value, that is, $\\boxed{-4}$.", "-4"),
            ("The answer is indeed 3 apples, so $\\boxed{3}$, as claimed", "3"),
            ("Answer: the positive root gives \\[ x = \\frac{7}{2} \\]", "x = \\frac{7}{2}"),
            ("The final answer is the ratio $\\frac{3}{4}$.", "\\frac{3}{4}"),
            // The next line, after ":" or a sentence of prose.
            ("The answer is Month 6, which is:\n\\[ \\boxed{\\text{June}} \\]", "\\text{June}"),
            ("The final answer is the third power of two:\n\n\\[\\boxed{8}\\]", "8"),
            ("Answer: we keep the positive root, which gives\n\\[ x = \\frac{7}{2} \\]", "x = \\frac{7}{2}"),
            ("The answer is as follows:\n\\boxed{12}", "12"),
            ("The answer is as follows:\n$$ 5\\sqrt{2} $$\nDone.", "5\\sqrt{2}"),
            // A prose sentence gives way to a box anywhere in the response.
            ("So $\\boxed{35}$.\nRemark: some texts say the answer is written out in words.", "35"),
            (
                "Thus $\\boxed{220}$.\nIn the usual case the answer is considered as 220, in other cases as 0220.",
                "220",
            ),
            // A rejected anchor ("indeed"), then "Answer:" whose next line holds the box.
            ("Answer:\nThe answer is indeed $\\boxed{220}$, where each digit counts.", "220"),
            // Unchanged: answers that are not prose.
            ("The answer is: 18. Then we check 5.", "18"),
            ("The answer is: 18.\nThe answer is correct because 3+15=18.", "18"),
            ("The answer is 18 apples per day.", "18 apples per day"),
            ("The answer is June\n\\[ x = 5 \\]", "June"),
            ("First \\boxed{6}. The answer is 18 apples.", "18 apples"),
            // A number then a connective: the number ("12, not 6" is about 12).
            ("We try \\boxed{6}, no. The answer is 12, not 6.", "12"),
            ("The answer is 5, which is $\\frac{10}{2}$.", "5"),
            ("The answer is one more than $n$ in general", "one more than $n$ in general"),
            // Prose without a box anywhere stays the anchored text (nothing better to take).
            ("The answer is written out in words.", "written out in words"),
        ];
        for (text, want) in cases {
            assert_eq!(ex(text).as_deref(), Some(*want), "{text:?}");
        }
        // A prose anchor hands over to the box fallback.
        let e = extract("\\boxed{35}. The answer is written out in words.", &[]).unwrap();
        assert_eq!((e.answer.as_str(), e.by), ("35", ExtractedBy::Boxed));
    }
}
