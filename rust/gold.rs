//! Golds that are worked solutions, reduced to the answer a framework's metric compares with.
//!
//! Frameworks hand their metrics golds of several shapes: an answer (`18`, `\frac{1}{2}`), GSM8K's
//! `solution\n#### 18`, MATH's whole `solution` with its answer in `\boxed{}` (lighteval's
//! `math_500` even prefixes it with `ANSWER: `), or a sentence that states the answer. Each
//! framework reduces its own shape (lm-eval's `last_boxed_only_string`, lighteval's gold
//! extraction, OpenCompass's post-processors, Qwen's `gt`); all of them agree with one general
//! rule, applied in this order:
//!
//! 1. a gold that is not a worked solution is its own answer (`as_written`);
//! 2. the last `\boxed{}` or `\fbox{}` of a solution (`boxed`);
//! 3. the rest of the line after the last `####`, when it starts like a number (`hashes`);
//! 4. its last "The answer is …" sentence (`answer_sentence`);
//! 5. otherwise the solution has no answer a grader could take: `unreduced`, which the checker
//!    reports as `gold_unparseable` and rescoring counts and shows, never as a wrong response.
//!
//! The response extractor is not used for golds: it reads the *first* anchor of a line
//! (`ANSWER: The answer is …`) and the last number of prose, both wrong for a reference solution.

use crate::scan::boxes::{find_boxes, joins};
use crate::scan::trim;

/// Which rule of the module's list reduced a gold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoldRule {
    AsWritten,
    Boxed,
    Hashes,
    AnswerSentence,
    Unreduced,
}

crate::names::str_enum!(GoldRule, "gold_rule" {
    AsWritten => "as_written",
    Boxed => "boxed",
    Hashes => "hashes",
    AnswerSentence => "answer_sentence",
    Unreduced => "unreduced",
});

/// A gold's answer and the rule that found it (`answer` is the whole gold when `as_written` or
/// `unreduced`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoldAnswer<'a> {
    pub answer: &'a str,
    pub rule: GoldRule,
}

/// The answer of a gold, by the module's rule.
pub fn reduce_gold(gold: &str) -> GoldAnswer<'_> {
    let g = trim(gold);
    if !is_solution_text(g) {
        return GoldAnswer {
            answer: glossed_answer(g).unwrap_or(gold),
            rule: GoldRule::AsWritten,
        };
    }
    let boxes = find_boxes(g);
    if let Some(last) = boxes.last() {
        // The last box, with the boxes right before it that the response extractor would join to
        // it (`\boxed{1} and \boxed{2}`, `\boxed{1}, \boxed{2}`: one answer of two parts); a run
        // split by prose is a revision, and only its last box counts.
        let mut first = boxes.len() - 1;
        while first > 0 && joins_in_gold(&g[boxes[first - 1].end..boxes[first].start]) {
            first -= 1;
        }
        let answer = if first + 1 == boxes.len() {
            last.content(g)
        } else {
            trim(&g[boxes[first].start..last.end])
        };
        if !answer.is_empty() {
            return GoldAnswer {
                answer,
                rule: GoldRule::Boxed,
            };
        }
    }
    if let Some(ans) = gsm8k_answer(g) {
        return GoldAnswer {
            answer: ans,
            rule: GoldRule::Hashes,
        };
    }
    if let Some(ans) = closing_answer_sentence(g) {
        return GoldAnswer {
            answer: ans,
            rule: GoldRule::AnswerSentence,
        };
    }
    GoldAnswer {
        answer: gold,
        rule: GoldRule::Unreduced,
    }
}

/// The answer of a gold that glosses it or states it in a sentence (issue 33), or `None`:
///
/// - an alternative that restates it: `2*C(10, 5), or equivalently 504` and `\frac{1}{2} (that is,
///   0.5)` are the plain value when it has no prose (both sides are one value), else the first part;
/// - a gloss in parentheses is not part of the answer: `900 (i.e., all values)`, `\frac{\sqrt3}{2}
///   (approximately 0.866)`, `12 (cm)`;
/// - a sentence of prose with one number states it: `The limit exists and is equal to 3`, `There
///   are 20 such numbers.`
///
/// "or" alone is no alternative: `$x=4$ or $x=-4$` lists two solutions, and stays as written.
fn glossed_answer(g: &str) -> Option<&str> {
    // A plain answer (a number, a formula) has no space before a letter: nothing to read.
    let b = g.as_bytes();
    if !b
        .windows(2)
        .any(|w| w[0] == b' ' && (w[1].is_ascii_alphabetic() || w[1] == b'('))
    {
        return None;
    }
    let lower = g.to_ascii_lowercase();
    const RESTATES: &[&str] = &[
        ", or equivalently ",
        " or equivalently ",
        ", equivalently ",
        " (equivalently ",
        " (i.e., ",
        " (i.e. ",
        ", i.e., ",
        " (that is, ",
        " (that is ",
        ", that is, ",
    ];
    const APPROXIMATES: &[&str] = &[" (approximately ", " (approx. ", " (about ", " (≈"];
    for (list, restates) in [(RESTATES, true), (APPROXIMATES, false)] {
        if let Some((at, len)) = list
            .iter()
            .find_map(|p| lower.find(p).map(|i| (i, p.len())))
        {
            let first = trim(&g[..at]);
            let paren = g[at..at + len].contains('(');
            let mut alt = trim(&g[at + len..]);
            if paren {
                alt = trim(alt.strip_suffix(')')?);
            }
            alt = alt.strip_suffix('.').unwrap_or(alt);
            if first.is_empty() {
                return None;
            }
            let plain = |s: &str| {
                s.bytes().any(|c| c.is_ascii_digit())
                    && !s
                        .split(|c: char| !c.is_ascii_alphabetic())
                        .any(|w| w.len() >= 3)
            };
            return Some(if restates && plain(alt) { alt } else { first });
        }
    }
    // `12 (cm)`, `3 (the only solution)`: up to five words in closing parentheses after a value.
    if let Some(open) = g.strip_suffix(')').and_then(|r| r.rfind(" (")) {
        let inner = &g[open + 2..g.len() - 1];
        let first = trim(&g[..open]);
        if !inner.is_empty()
            && inner.split(' ').count() <= 5
            && inner.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
            && first.bytes().any(|c| c.is_ascii_digit())
            && !first.contains(['(', ' '])
        {
            return Some(first);
        }
    }
    // A sentence that states one number: its value.
    if !g.contains(['\\', '$'])
        && g.split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() >= 2)
            .count()
            >= 3
        && crate::number::scan_numbers(g).len() == 1
    {
        // The reader's value is a slice of the gold when it is one number.
        return crate::extract::sentence::sentence_value(g)
            .filter(|v| crate::number::parse_number(v).is_some())
            .and_then(|v| g.find(v.as_str()).map(|i| &g[i..i + v.len()]));
    }
    None
}

/// Are two boxes of a gold one answer? As for a response (`scan::boxes`), but only across a few
/// words (`\boxed{1} papers and \boxed{2} bins`): a solution's prose between two boxes is a
/// revision even when it holds an "and".
fn joins_in_gold(between: &str) -> bool {
    let words = between
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.len() > 1 && !matches!(*w, "text" | "quad" | "qquad"))
        .count();
    words <= 3 && joins(between)
}

/// Does a gold look like a worked solution rather than an answer? GSM8K's "solution\n#### 18"
/// form at any length, a sentence that starts with an anchor ("answer is 0.75", lighteval's
/// "ANSWER: <solution>"), a box that is not the whole gold, long text with words, or prose with
/// an answer sentence.
pub fn is_solution_text(gold: &str) -> bool {
    // Each test below needs a '#', a backslash, a letter (an anchor starts with one) or more
    // than 200 bytes: a plain number gold has none of them.
    if gold.len() <= 200
        && !gold
            .bytes()
            .any(|c| c == b'#' || c == b'\\' || c.is_ascii_alphabetic())
    {
        return false;
    }
    let g = trim(gold);
    if gsm8k_answer(g).is_some() {
        return true;
    }
    if crate::extract::starts_with_anchor(g) {
        return true;
    }
    // The backslash test first: `str::contains(&str)` builds a searcher per call, and most golds
    // have no backslash at all.
    if g.contains('\\') && (g.contains("\\boxed") || g.contains("\\fbox")) {
        return crate::scan::boxes::whole_box(g).is_none();
    }
    // Prose that states its answer ("… The answer is 14.").
    if g.len() > 200 && g.split_whitespace().count() > 20 {
        return true;
    }
    g.split_whitespace().count() > 4 && closing_answer_sentence(g).is_some()
}

/// The answer of a gold in GSM8K's form "solution\n#### 18": the rest of the line after the
/// last "####", trimmed, when it starts like a number (a Markdown "#### Heading" is not an
/// answer line, the same rule as the extractor's) or is a word that says there is no answer
/// (GSM-Plus's "#### None"); None for any other gold.
pub fn gsm8k_answer(g: &str) -> Option<&str> {
    let i = rfind_hashes(g.as_bytes())?;
    let rest = g[i + 4..].trim_start_matches([' ', '\t']);
    let line = trim(rest.split('\n').next().unwrap_or(""));
    if !rest.starts_with(|c: char| c.is_ascii_digit() || "-+$\\.(".contains(c))
        && !crate::declines::is_no_answer(line)
    {
        return None;
    }
    Some(line)
}

/// `g.rfind("####")` without building a substring searcher per gold (every gold comes here): the
/// last run of four or more '#' holds the last match, which starts four bytes before its end.
fn rfind_hashes(b: &[u8]) -> Option<usize> {
    let mut upto = b.len();
    while let Some(j) = memchr::memrchr(b'#', &b[..upto]) {
        let mut start = j;
        while start > 0 && j - start < 3 && b[start - 1] == b'#' {
            start -= 1;
        }
        if j - start == 3 {
            return Some(start);
        }
        upto = start;
    }
    None
}

/// The answer its last answer sentence states: "… The answer is 42." / "Final Answer: The final
/// answer is $28\%$. I hope it is correct." The answer runs to the end of that sentence (a full
/// stop, `!` or `?` followed by a space, or the end of the line).
fn closing_answer_sentence(g: &str) -> Option<&str> {
    let lower = g.to_ascii_lowercase();
    let (at, len) = ["answer is", "answer:", "answer =", "answer would be"]
        .iter()
        .filter_map(|p| lower.rfind(p).map(|i| (i, p.len())))
        .max_by_key(|&(i, _)| i)?;
    let rest = &g[at + len..];
    let line = rest.split('\n').next().unwrap_or("");
    let end = [". ", "! ", "? "]
        .iter()
        .filter_map(|p| line.find(p))
        .min()
        .unwrap_or(line.len());
    let mut ans = trim(&line[..end]);
    ans = ans.strip_prefix(':').map_or(ans, trim);
    let ans = ans
        .strip_suffix('.')
        .or_else(|| ans.strip_suffix('!'))
        .unwrap_or(ans);
    let ans = strip_math_delimiters(trim(ans));
    (!ans.is_empty()).then_some(ans)
}

/// `$x$`, `\(x\)`, `\[x\]` → `x` (one pair around the whole answer).
fn strip_math_delimiters(s: &str) -> &str {
    for (open, close) in [("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")] {
        if let Some(inner) = s.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            if !inner.is_empty() {
                return trim(inner);
            }
        }
    }
    s
}

/// What the fixed mode's checker reads from a gold before it looks at the response: the choice
/// letter, the reduced answer (after the rule above and `strip_debris`), whether it says there is
/// no answer, its normalized text, its value as one number, and the checker that compares with it.
/// A pure function of the gold and the requested kind, made once per distinct gold on a thread
/// ([`with_gold_plan`]): the samples of one problem share their gold, and a batch's items come to
/// a thread in runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoldPlan {
    /// The gold's choice letter (`B`, `(D) Alina`); only read when the kind is not `simple`.
    pub letter: Option<u8>,
    /// A worked solution without an answer (`unreduced`); the fields below are then empty.
    pub unreduced: bool,
    pub no_answer: bool,
    /// The answer, stray LaTeX at its ends removed (`185\`, `\left.9\right.`).
    pub answer: String,
    pub normalized: String,
    pub number: Option<crate::number::WrittenNumber>,
    /// `Kind::Auto` resolved: `Simple` for a plain number, `Latex` for anything else (a clock
    /// time too); an explicit kind as given.
    pub kind: crate::verdict::Kind,
    /// The answer as a number with a unit (`5 cm`, `2 hours`; [`crate::units`]).
    pub quantity: Option<crate::units::Quantity>,
    /// The subject and the predicate of a sentence gold (`The sequence is not periodic` ->
    /// `sequence`, `not periodic`, as words; [`sentence_predicate`]).
    pub predicate: Option<(String, String)>,
    /// A gold that is the word yes (`Some(true)`) or no (`Some(false)`; [`crate::polarity`]).
    pub yes_no: Option<bool>,
}

/// Calls `f` with the [`GoldPlan`] of `gold` for checks of `kind`: this thread's last one when
/// the gold is the same, else made in place of it (its strings' room reused: nothing is
/// allocated for the usual gold).
pub fn with_gold_plan<R>(
    gold: &str,
    kind: crate::verdict::Kind,
    f: impl FnOnce(&GoldPlan) -> R,
) -> R {
    use std::cell::RefCell;
    /// The gold, the kind, and the plan; the kind is `None` while the plan is being made (a panic
    /// then leaves no plan that a later gold could take for its own).
    type Last = (String, Option<crate::verdict::Kind>, GoldPlan);
    thread_local! {
        static LAST: RefCell<Last> = RefCell::new((String::new(), None, GoldPlan::default()));
    }
    LAST.with(|last| {
        // In use further up this thread's stack: a plan of its own.
        let Ok(mut slot) = last.try_borrow_mut() else {
            let mut plan = GoldPlan::default();
            fill_plan(&mut plan, gold, kind);
            return f(&plan);
        };
        let (g, k, plan) = &mut *slot;
        if *k != Some(kind) || g != gold {
            *k = None;
            g.clear();
            g.push_str(gold);
            fill_plan(plan, gold, kind);
            *k = Some(kind);
        }
        f(plan)
    })
}

/// Make `plan` the plan of `gold` for checks of `kind`, in place.
/// A plan made fresh, not from this thread's cache (for a gold derived from another inside a
/// check, such as a choice's option text).
pub fn fresh_plan(gold: &str, kind: crate::verdict::Kind) -> GoldPlan {
    let mut plan = GoldPlan::default();
    fill_plan(&mut plan, gold, kind);
    plan
}

fn fill_plan(plan: &mut GoldPlan, gold: &str, kind: crate::verdict::Kind) {
    use crate::number::{normalize_answer, parse_number};
    use crate::verdict::Kind;
    plan.answer.clear();
    plan.normalized.clear();
    let reduced = reduce_gold(gold);
    plan.unreduced = reduced.rule == GoldRule::Unreduced;
    if plan.unreduced {
        (plan.letter, plan.no_answer, plan.number, plan.kind) =
            (None, false, None, Kind::default());
        (plan.quantity, plan.predicate, plan.yes_no) = (None, None, None);
        return;
    }
    // The letter of the reduced gold: a worked solution's first "graphs $A$, $C$, and $E$" is
    // prose, its last box (`\boxed{A}`) the answer (issue 34).
    plan.letter = if kind == Kind::Simple {
        None
    } else {
        crate::choice::gold_letter(reduced.answer)
    };
    plan.no_answer = crate::declines::is_no_answer(reduced.answer);
    // The forms of issue 33 below need a letter, a backslash, a space or one of `< & % $` or a
    // non-ASCII byte: a plain number gold (`18`, `-2.5`, `3/4`) skips them in one pass.
    let forms = reduced.answer.bytes().any(|c| FORMS[usize::from(c)]);
    let (html, set);
    let mut answer = reduced.answer;
    if forms {
        // HTML markup and entities (`3<sup>x</sup>`, `x &le; 2`) as LaTeX (issue 33).
        html = crate::scan::html::html_markup(answer);
        answer = html.as_deref().unwrap_or(answer);
    }
    answer = crate::scan::debris::strip_debris(answer);
    if forms {
        // A set of reals in set-builder notation or minus points, read as an answer's is.
        set = crate::answer_words::gold_set(answer);
        answer = set.as_deref().unwrap_or(answer);
        plan.quantity = crate::units::quantity(answer);
        plan.predicate = sentence_predicate(answer);
        plan.yes_no = crate::polarity::gold_polarity(answer);
    } else {
        plan.yes_no = None;
        if plan.quantity.is_some() {
            plan.quantity = None;
        }
        if plan.predicate.is_some() {
            plan.predicate = None;
        }
    }
    plan.answer.push_str(answer);
    plan.normalized.push_str(&normalize_answer(answer));
    plan.number = if plan.normalized.contains('\\') {
        None
    } else {
        parse_number(&plan.normalized)
    };
    plan.kind = match kind {
        // A clock time ("7 pm", "09:15") is not a number: the engine compares times of day.
        Kind::Auto if crate::scan::clock::clock_time(answer).is_some_and(|c| c.definite) => {
            Kind::Latex
        }
        Kind::Auto if plan.number.is_some() => Kind::Simple,
        Kind::Auto => Kind::Latex,
        k => k,
    };
}

/// The bytes that may start a form of [`fill_plan`]'s issue-33 rules (letters, non-ASCII,
/// `\ < & % $` and the space).
static FORMS: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphabetic()
            || b >= 0x80
            || matches!(b, b'\\' | b' ' | b'<' | b'&' | b'%' | b'$');
        c += 1;
    }
    t
};

/// The predicate of a gold that is a sentence of words without numbers, "<subject> is/are
/// <predicate>" (`The sequence is not periodic`, `The triangle is a right triangle`): the
/// subject's and the predicate's words, lower case, articles left out (`sequence`, `not
/// periodic`; `triangle`, `right triangle`); `None` for any other gold.
pub fn sentence_predicate(g: &str) -> Option<(String, String)> {
    // Words only: no digits, no LaTeX, at least three words.
    if g.len() > 200
        || !g.contains(' ')
        || g.bytes()
            .any(|c| c.is_ascii_digit() || matches!(c, b'\\' | b'$' | b'=' | b'(' | b'^'))
    {
        return None;
    }
    let words = sentence_words(g)?;
    let at = words.iter().position(|w| w == "is" || w == "are")?;
    let (subject, predicate) = (&words[..at], &words[at + 1..]);
    // The subject is a description (`the sequence`, `such a function`, `it`), not a name that
    // could itself be the answer (`Alice is the winner`).
    if !subject.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "the" | "this" | "that" | "such" | "it" | "every" | "each" | "all" | "its" | "their"
        )
    }) {
        return None;
    }
    let content = |ws: &[String]| ws.iter().filter(|w| !is_article(w)).count();
    if content(subject) == 0 || subject.len() > 6 || content(predicate) == 0 || predicate.len() > 8
    {
        return None;
    }
    Some((join_content(subject), join_content(predicate)))
}

/// Does an answer assert a sentence gold's predicate? It is the predicate itself (`\text{not
/// periodic}`, `a right triangle`), or a sentence with the gold's subject (or `it`, `this`,
/// `they`; after a connective such as `hence`) and that predicate (`Hence the sequence is not
/// periodic.`), word for word; articles, `\text{}` and a closing full stop are ignored.
pub fn asserts_predicate(answer: &str, (subject, predicate): (&str, &str)) -> bool {
    let plain = crate::number::normalize_answer(answer);
    let plain = unwrap_text_macros(&plain);
    let Some(words) = sentence_words(&plain) else {
        return false;
    };
    if join_content(&words) == predicate {
        return true;
    }
    let Some(at) = words.iter().position(|w| w == "is" || w == "are") else {
        return false;
    };
    let mut s = &words[..at];
    while let Some((first, rest)) = s.split_first() {
        if !matches!(
            first.as_str(),
            "hence" | "so" | "thus" | "therefore" | "then" | "consequently" | "finally" | "and"
        ) {
            break;
        }
        s = rest;
    }
    let s = join_content(s);
    (s == subject || matches!(s.as_str(), "it" | "this" | "they"))
        && join_content(&words[at + 1..]) == predicate
}

/// `\text{…}`, `\textbf{…}`, `\mathrm{…}`, `\textrm{…}`, `\mbox{…}` replaced by their content.
fn unwrap_text_macros(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let cmd = &rest[i..];
        let Some(p) = ["\\text{", "\\textbf{", "\\mathrm{", "\\textrm{", "\\mbox{"]
            .iter()
            .find(|p| cmd.starts_with(**p))
        else {
            out.push_str(cmd);
            return out;
        };
        let inner = &cmd[p.len()..];
        let Some(close) = inner.find('}') else {
            out.push_str(cmd);
            return out;
        };
        out.push_str(&inner[..close]);
        rest = &inner[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The words of a sentence, lower case (letters, `-` and `'` inside words; a comma or a closing
/// `.`, `!` ends nothing); `None` when anything else is in it.
fn sentence_words(s: &str) -> Option<Vec<String>> {
    let s = s.trim().trim_end_matches(['.', '!']).trim();
    let mut out = Vec::new();
    for w in s.split_whitespace() {
        let w = w.trim_end_matches(',');
        if w.is_empty()
            || !w.starts_with(|c: char| c.is_alphabetic())
            || !w
                .chars()
                .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        {
            return None;
        }
        out.push(w.to_lowercase());
    }
    (!out.is_empty()).then_some(out)
}

fn is_article(w: &str) -> bool {
    matches!(w, "a" | "an" | "the")
}

fn join_content(words: &[String]) -> String {
    words
        .iter()
        .filter(|w| !is_article(w))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(g: &str) -> (&str, &'static str) {
        let r = reduce_gold(g);
        (r.answer, r.rule.as_str())
    }

    #[test]
    fn answers_stay_as_written() {
        for g in [
            "18",
            "-0.5",
            "\\frac{1}{2}",
            "\\boxed{5}",
            "(1, 2]",
            "x^2 + 1",
            "Monday",
        ] {
            assert_eq!(reduce(g), (g, "as_written"), "{g}");
        }
    }

    #[test]
    fn worked_solutions_reduce_to_their_last_box() {
        let math = "ANSWER: We have $2x = 6$, so $x = \\boxed{3}$. Checking: \\fbox{$x=3$} holds, \
                    and in the end $\\boxed{\\frac{7}{2}}$.";
        assert_eq!(reduce(math), ("\\frac{7}{2}", "boxed"));
        assert_eq!(reduce("The answer is $\\boxed{18}$."), ("18", "boxed"));
        // Boxes only symbols apart are one answer (kept as boxes: the checker joins them).
        let two = "So $x = \\boxed{1}, \\boxed{2}$.";
        assert_eq!(reduce(two), ("\\boxed{1}, \\boxed{2}", "boxed"));
    }

    #[test]
    fn gsm8k_solutions_reduce_to_the_hashes_line() {
        let g = "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n#### 72";
        assert_eq!(reduce(g), ("72", "hashes"));
        assert_eq!(reduce("3 + 4 = 7\n#### 1,000\n"), ("1,000", "hashes"));
    }

    #[test]
    fn rfind_hashes_is_rfind() {
        for g in [
            "",
            "#",
            "###",
            "####",
            "#####",
            "a####b###",
            "## ####x#",
            "########",
            "#### 1 ### 2",
        ] {
            assert_eq!(rfind_hashes(g.as_bytes()), g.rfind("####"), "{g:?}");
        }
    }

    #[test]
    fn a_closing_sentence_states_the_answer() {
        let g = "First we add the two prices, 3 + 4, which gives 7 dollars in all for the two of \
                 them together, and then we double it because there are two days in the week.\n\
                 The answer is 14.";
        assert_eq!(reduce(g), ("14", "answer_sentence"));
        assert_eq!(reduce("answer is 0.75"), ("0.75", "answer_sentence"));
        assert_eq!(reduce("Answer: $x = 3$"), ("x = 3", "answer_sentence"));
        let short = "We add 3 and 4 to get 7 in all. The answer is 7.";
        assert_eq!(reduce(short), ("7", "answer_sentence"));
        let then_more = "We add 3 and 4. The answer is 7. Then we check it twice, and it is so.";
        assert_eq!(reduce(then_more), ("7", "answer_sentence"));
        let noted =
            "So $90 - 18 = 72$. Final Answer: The final answer is $28 \\%$. I hope it is correct. \
                     Note: The solution provided is incorrect. The correct approach is as follows:";
        assert_eq!(reduce(noted), ("28 \\%", "answer_sentence"));
    }

    #[test]
    fn a_solution_without_an_answer_is_unreduced() {
        let g = "We start by noting that the quantity in question is bounded above by the sum of \
                 its parts, and then we show that each part is at most one half, which completes \
                 the argument for every value of n that we need to consider here.";
        assert_eq!(reduce(g).1, "unreduced");
    }
    /// The plan as made fresh, and through this thread's cache (a copy).
    fn fresh(gold: &str, kind: crate::verdict::Kind) -> GoldPlan {
        let mut plan = GoldPlan::default();
        fill_plan(&mut plan, gold, kind);
        plan
    }

    fn gold_plan(gold: &str, kind: crate::verdict::Kind) -> GoldPlan {
        with_gold_plan(gold, kind, GoldPlan::clone)
    }

    #[test]
    fn a_gold_plan_is_the_same_made_fresh_or_reused() {
        use crate::verdict::Kind;
        let golds = [
            "18",
            "18",
            "\\frac{1}{2}",
            "B",
            "None",
            "7 pm",
            "Solution: no answer here.",
            "18",
        ];
        for kind in [Kind::Auto, Kind::Simple, Kind::Latex] {
            for g in golds {
                assert_eq!(gold_plan(g, kind), fresh(g, kind), "{g:?} {kind:?}");
            }
        }
        // Used further up the stack, the cache gives a plan of its own.
        with_gold_plan("18", Kind::Auto, |outer| {
            assert_eq!(*outer, fresh("18", Kind::Auto));
            assert_eq!(gold_plan("B", Kind::Auto), fresh("B", Kind::Auto));
            assert_eq!(*outer, fresh("18", Kind::Auto));
        });
        assert_eq!(gold_plan("B", Kind::Auto).letter, Some(b'B'));
        assert_eq!(gold_plan("B", Kind::Simple).letter, None);
        assert_eq!(gold_plan("7 pm", Kind::Auto).kind, Kind::Latex);
        assert!(gold_plan("None", Kind::Auto).no_answer);
    }

    /// Issue 34: lighteval's `math_500` gold is `ANSWER: <solution>`; the letter is the box's.
    #[test]
    fn a_choice_letter_comes_from_the_reduced_gold() {
        use crate::verdict::Kind;
        let g = "ANSWER: Only graphs $A$, $C$, and $E$ pass the vertical line test, and of \
                 those only graph $\\boxed{A}$ is one-to-one.";
        assert_eq!(gold_plan(g, Kind::Auto).letter, Some(b'A'));
        assert_eq!(
            gold_plan("Solution: no answer here at all, just words.", Kind::Auto).letter,
            None
        );
    }

    /// Issue 33: a gloss, a restating alternative or a sentence around the gold's answer.
    #[test]
    fn glosses_alternatives_and_sentences() {
        for (g, want) in [
            ("2*C(10, 5), or equivalently 504", "504"),
            ("900 (i.e., all values)", "900"),
            ("\\frac{1}{2} (that is, 0.5)", "0.5"),
            (
                "$\\frac{\\sqrt{3}}{2}$ (approximately 0.866)",
                "$\\frac{\\sqrt{3}}{2}$",
            ),
            ("12 (cm)", "12"),
            ("3 (the only solution)", "3"),
            ("The limit exists and is equal to 3", "3"),
            ("There are 20 such numbers.", "20"),
        ] {
            assert_eq!(reduce(g), (want, "as_written"), "{g}");
        }
        // Left as written: solutions listed with "or", a tuple, a formula, prose without a value.
        for g in [
            "$x=4$ or $x=-4$",
            "(2, 3)",
            "f(x) = x^2",
            "The sequence is not periodic",
            "all odd n greater than 1",
            "x (cm) and 3",
        ] {
            assert_eq!(reduce(g), (g, "as_written"), "{g}");
        }
    }

    /// Issue 33: a sentence gold asserts its predicate, compared word for word.
    #[test]
    fn a_sentence_gold_asserts_its_predicate() {
        let p = sentence_predicate("The sequence is not periodic").unwrap();
        assert_eq!(p, ("sequence".to_string(), "not periodic".to_string()));
        let p = (p.0.as_str(), p.1.as_str());
        for a in [
            "\\text{not periodic}",
            "not periodic.",
            "Hence the sequence is not periodic.",
            "So it is not periodic",
        ] {
            assert!(asserts_predicate(a, p), "{a}");
        }
        for a in [
            "\\text{periodic}",
            "Hence the sequence is periodic.",
            "the function is not periodic",
            "not periodic with period 2",
        ] {
            assert!(!asserts_predicate(a, p), "{a}");
        }
        let t = sentence_predicate("The triangle is a right triangle").unwrap();
        assert!(asserts_predicate("\\text{a right triangle}", (&t.0, &t.1)));
        assert!(!asserts_predicate("\\text{right}", (&t.0, &t.1)));
        // Not sentence golds: a name as subject, numbers, LaTeX, no "is".
        for g in [
            "Alice is the winner",
            "The answer is 5",
            "The limit is $\\frac12$",
            "The sequence converges",
            "periodic",
        ] {
            assert_eq!(sentence_predicate(g), None, "{g}");
        }
    }

    /// Issue 33: GSM-Plus writes "#### None" when a question has no answer.
    #[test]
    fn a_hashes_line_that_says_there_is_no_answer_is_the_answer() {
        assert_eq!(reduce("Alice has 3 apples.\n#### None"), ("None", "hashes"));
        assert!(gold_plan("We cannot know.\n#### None", crate::verdict::Kind::Auto).no_answer);
        assert_ne!(reduce("#### Heading\ntext").1, "hashes");
    }
}
