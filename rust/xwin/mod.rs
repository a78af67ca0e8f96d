//! The seed tool's algorithm (Xwin-Math `eval_functions/`), quirks included: `compat="xwin"`.
//!
//! Every function mirrors one of the seed's, with Python's string, regex and number semantics
//! (see [`pyparse`], [`pynum`] and [`pyeval`]). Where the seed would crash (an uncaught exception), the
//! result is [`XwinError`]; where it would call SymPy, the result carries the pairs to hand to
//! the SymPy pool, which runs the seed's own `symbolic_equal` (its dead tolerance branch too).

pub mod pyeval;
pub mod pynum;
pub mod pyparse;
mod simple;

pub use pyparse::{search_for_boxes, search_for_numbers};
pub use simple::{get_simple_numbers, simple_answer_check};

use crate::verdict::{EvalPolicy, ExtractPolicy};
use pynum::{isclose, py_float, py_isdigit};

/// The seed raised an exception here (its harness records no result; the saved verdict is False).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XwinError;

/// `extract_answer(text, split, extract_policy)`.
pub fn extract_answer(text: &str, split: &[String], policy: ExtractPolicy) -> Option<String> {
    // Rule 1: the text after the last occurrence of each pattern found; the shortest tail wins
    // (first pattern on ties). Python's len counts code points.
    let mut best: Option<(usize, &str)> = None;
    for pat in split {
        let Some(start) = last_split_piece(text, pat) else {
            continue;
        };
        let tail = &text[start..];
        let n = tail.chars().count();
        if best.is_none_or(|(m, _)| n < m) {
            best = Some((n, tail));
        }
    }
    if let Some((_, tail)) = best {
        return Some(tail.to_string());
    }
    if policy == ExtractPolicy::Flex {
        if let Some(b) = search_for_boxes(text).pop() {
            return Some(b);
        }
        if let Some(n) = search_for_numbers(text).pop() {
            return Some(n);
        }
    }
    None
}

/// Start of `text.split(pat)[-1]` when `pat` occurs (Python's split: non-overlapping matches,
/// left to right). For a pattern that cannot overlap itself this is just after the last match.
fn last_split_piece(text: &str, pat: &str) -> Option<usize> {
    if pat.is_empty() {
        return None;
    }
    let (t, p) = (text.as_bytes(), pat.as_bytes());
    let self_overlapping = (1..p.len()).any(|k| p[k..] == p[..p.len() - k]);
    if !self_overlapping {
        return memchr::memmem::rfind(t, p).map(|i| i + p.len());
    }
    let mut last = None;
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&t[from..], p) {
        last = Some(from + i + p.len());
        from += i + p.len();
    }
    last
}

/// `remove_prefix_and_suffix`: `strip(' \n').rstrip('.').strip(' \n').rstrip('.')`.
pub fn remove_prefix_and_suffix(s: &str) -> &str {
    let s = s.trim_matches([' ', '\n']).trim_end_matches('.');
    s.trim_matches([' ', '\n']).trim_end_matches('.')
}

/// `string_normalization`.
pub fn string_normalization(s: &str) -> String {
    s.replace("\\$", "")
        .replace('$', "")
        .replace("\\%", "")
        .replace('%', "")
        .replace("^\\circ", "")
        .replace("^{\\circ}", "")
        .replace('\u{3c0}', "\\pi")
        .replace("{,}", "")
        .replace('\u{b0}', "")
        .to_lowercase()
}

/// `remove_boxes_keep_content`: unwrap `\box`, `\boxed`, `\mbox`, `\text` (prefix matches, so
/// `\textbf` too), keeping the braced content. The opening brace may be anywhere after the macro.
pub fn remove_boxes_keep_content(input: &str) -> String {
    // Each unwrap copies the string, as the seed does; on pathological inputs (thousands of boxes
    // in a long answer) the work is capped, where the seed would run into its 5 s timeout.
    let mut budget: usize = 64 << 20;
    let mut s = input.to_string();
    for bx in ["\\box", "\\boxed", "\\mbox", "\\text"] {
        while let Some(start) = s.find(bx) {
            let Some(rel) = s[start..].find('{') else {
                break;
            };
            let brace_start = start + rel;
            let mut depth = 0i64;
            let mut end = None;
            for (i, c) in s[brace_start..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = Some(brace_start + i);
                    break;
                }
            }
            let Some(brace_end) = end else { break };
            budget = match budget.checked_sub(s.len()) {
                Some(b) => b,
                None => return s,
            };
            s = format!(
                "{}{}{}",
                &s[..start],
                &s[brace_start + 1..brace_end],
                &s[brace_end + 1..]
            );
        }
    }
    s
}

/// `remove_text_box_only`: delete `\text{..}` / `\mbox{..}` groups with an optional `^digit`,
/// using pyparsing's scan (whitespace allowed between the pieces).
pub fn remove_text_box_only(input: &str) -> String {
    let s = input.as_bytes();
    let ws = |mut i: usize| {
        while i < s.len() && b" \n\t\r".contains(&s[i]) {
            i += 1;
        }
        i
    };
    let groups = pyparse::GroupEnds::new(input);
    let mut out = String::new();
    let mut last = 0;
    let mut loc = 0;
    while loc < s.len() {
        let pre = ws(loc);
        if pre >= s.len() {
            break;
        }
        let mut matched = None;
        for lit in ["\\text", "\\mbox"] {
            if input[pre..].starts_with(lit) {
                let b = ws(pre + lit.len());
                if let Some(mut e) = groups.end(b) {
                    let c = ws(e);
                    if c < s.len() && s[c] == b'^' {
                        let d = ws(c + 1);
                        if d < s.len() && s[d].is_ascii_digit() {
                            e = d + 1;
                        }
                    }
                    matched = Some(e);
                }
                break;
            }
        }
        match matched {
            Some(e) => {
                out.push_str(&input[last..pre]);
                last = e;
                loc = e;
            }
            None => {
                let mut j = pre + 1;
                while j < input.len() && !input.is_char_boundary(j) {
                    j += 1;
                }
                loc = j;
            }
        }
    }
    out.push_str(&input[last..]);
    out
}

/// `has_numbers`: any character with Python `str.isdigit()`.
pub fn has_numbers(s: &str) -> bool {
    s.chars().any(py_isdigit)
}

/// `has_structure`: brackets, backslash, angle brackets, comma, or a lowercase x, y, z.
pub fn has_structure(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(
            c,
            '(' | ')' | '[' | ']' | '\\' | '<' | '>' | ',' | 'x' | 'y' | 'z'
        )
    })
}

/// `literal_check`: true or "undecided" (never false).
pub fn literal_check(model: &str, gt: &str) -> bool {
    let m: String = model.chars().filter(|&c| c != ',' && c != ' ').collect();
    let g: String = gt.chars().filter(|&c| c != ',' && c != ' ').collect();
    if m == g {
        return true;
    }
    if !has_numbers(model) && !has_numbers(gt) {
        let strip = |s: &str| s.trim_matches(['[', ']', '(', ')', ' ']).to_string();
        return strip(&m) == strip(&g);
    }
    false
}

/// `remove_equals`: keep the right side of a single `=`, or the left when the right is `0`
/// and the left has two or more characters.
pub fn remove_equals(s: &str) -> &str {
    let mut parts = s.split('=');
    let (Some(left), Some(right), None) = (parts.next(), parts.next(), parts.next()) else {
        return s;
    };
    if remove_prefix_and_suffix(right) == "0" && remove_prefix_and_suffix(left).chars().count() >= 2
    {
        left
    } else {
        right
    }
}

/// `convert_to_int`: `int(float(s))` when that is within 1e-9 (relative) of the float.
fn convert_to_int(s: &str) -> Option<f64> {
    let f = py_float(s)?;
    if !f.is_finite() {
        return None; // int(inf) / int(nan) raise
    }
    let t = f.trunc();
    isclose(t, f, 1e-9).then_some(t)
}

/// `numerical_equal`: `None` unless both sides are Python floats.
pub fn numerical_equal(a: &str, b: &str) -> Option<bool> {
    if let (Some(x), Some(y)) = (convert_to_int(a), convert_to_int(b)) {
        return Some(x == y);
    }
    let (x, y) = (py_float(a)?, py_float(b)?);
    Some(isclose(x, y, 1e-3))
}

/// Result of the seed's `number_check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberCheck {
    /// A comma on either side: undecided.
    Undecided,
    Decided(bool),
    /// `symbolic_equal(model, gt)` must run (in SymPy) on these strings.
    Symbolic(String, String),
}

/// `number_check(model, gt)` up to the SymPy call.
pub fn number_check(model: &str, gt: &str) -> NumberCheck {
    if model.contains(',') || gt.contains(',') {
        return NumberCheck::Undecided;
    }
    let m = remove_prefix_and_suffix(remove_equals(model));
    let g = remove_prefix_and_suffix(remove_equals(gt));
    match numerical_equal(m, g) {
        Some(r) => NumberCheck::Decided(r),
        None => NumberCheck::Symbolic(m.to_string(), g.to_string()),
    }
}

/// Outcome of `latex_answer_check` before SymPy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatexOutcome {
    /// The extracted answer (None when extraction found nothing: the verdict is False).
    pub extracted: Option<String>,
    /// Decided true without SymPy.
    pub decided_true: bool,
    /// Which stage decided, for reporting.
    pub literal: bool,
    /// (model, gt) pairs for the seed's `symbolic_equal`; the verdict is true iff any returns True.
    pub sympy_pairs: Vec<(String, String)>,
}

/// `latex_answer_check(model_ans, gt, split, extract_policy, eval_policy)`. `split=None` means
/// no extraction, as in the seed.
pub fn latex_answer_check(
    model_ans: &str,
    gt: &str,
    split: Option<&[String]>,
    extract_policy: ExtractPolicy,
    eval_policy: EvalPolicy,
) -> Result<LatexOutcome, XwinError> {
    let model_ans = match split {
        Some(sp) => match extract_answer(model_ans, sp, extract_policy) {
            Some(a) => a,
            None => {
                return Ok(LatexOutcome {
                    extracted: None,
                    decided_true: false,
                    literal: false,
                    sympy_pairs: vec![],
                })
            }
        },
        None => model_ans.to_string(),
    };
    let done = |t: bool, literal: bool, pairs: Vec<(String, String)>, ex: &str| LatexOutcome {
        extracted: Some(ex.to_string()),
        decided_true: t,
        literal,
        sympy_pairs: pairs,
    };
    let model_norm = string_normalization(&model_ans);
    let model_norm_wo_boxes = remove_boxes_keep_content(&model_norm);
    let gt_norm = string_normalization(gt);
    let gt_norm_wo_boxes = remove_boxes_keep_content(&gt_norm);
    if literal_check(
        remove_prefix_and_suffix(&model_norm_wo_boxes),
        remove_prefix_and_suffix(&gt_norm_wo_boxes),
    ) {
        return Ok(done(true, true, vec![], &model_ans));
    }
    let mut pairs = Vec::new();
    if eval_policy == EvalPolicy::Aggressive {
        let model_toks = search_for_numbers(&model_ans);
        if gt.is_empty() {
            return Err(XwinError); // gt[0] raises IndexError
        }
        let gt_toks = if !gt.starts_with('$') || !gt.ends_with('$') {
            search_for_numbers(&format!("${gt}$"))
        } else {
            search_for_numbers(gt)
        };
        if model_toks.len() == 1
            && gt_toks.len() == 1
            && !has_structure(&model_ans.replace(model_toks[0].as_str(), ""))
            && !has_structure(&gt.replace(gt_toks[0].as_str(), ""))
        {
            let clean = |t: &str| {
                remove_prefix_and_suffix(&remove_boxes_keep_content(&remove_text_box_only(t)))
                    .to_string()
            };
            let (mn, gn) = (clean(&model_toks[0]), clean(&gt_toks[0]));
            match number_check(&mn, &gn) {
                NumberCheck::Decided(true) => return Ok(done(true, false, vec![], &model_ans)),
                NumberCheck::Symbolic(a, b) => pairs.push((a, b)),
                _ => {}
            }
        }
    }
    match number_check(
        remove_prefix_and_suffix(&model_norm),
        remove_prefix_and_suffix(&gt_norm),
    ) {
        NumberCheck::Decided(true) => Ok(done(true, false, vec![], &model_ans)),
        NumberCheck::Symbolic(a, b) => {
            pairs.push((a, b));
            Ok(done(false, false, pairs, &model_ans))
        }
        _ => Ok(done(false, false, pairs, &model_ans)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_split() -> Vec<String> {
        vec![
            "####".into(),
            "The answer is: ".into(),
            "The answer is".into(),
        ]
    }

    #[test]
    fn extraction_rules() {
        let sp = seed_split();
        assert_eq!(
            extract_answer("so The answer is: 12.", &sp, ExtractPolicy::Flex).as_deref(),
            Some("12.")
        );
        // shortest tail: a later markdown heading wins
        assert_eq!(
            extract_answer("The answer is: 12\n#### Note", &sp, ExtractPolicy::Flex).as_deref(),
            Some(" Note")
        );
        assert_eq!(
            extract_answer("x \\boxed{5} and 7", &sp, ExtractPolicy::Flex).as_deref(),
            Some("5")
        );
        assert_eq!(
            extract_answer("the zoo-keeper", &sp, ExtractPolicy::Flex).as_deref(),
            Some("-")
        );
        assert_eq!(extract_answer("nothing", &sp, ExtractPolicy::Strict), None);
    }

    #[test]
    fn normalization_lowercases_everything() {
        assert_eq!(string_normalization("$\\Delta$ 50\\%"), "\\delta 50");
        assert_eq!(
            remove_boxes_keep_content("\\boxed{\\frac{1}{2}}"),
            "\\frac{1}{2}"
        );
        assert_eq!(remove_boxes_keep_content("\\textbf{A}"), "A");
        assert_eq!(remove_text_box_only("400 \\text{meters}^2 x"), "400  x");
    }

    #[test]
    fn latex_paths() {
        let sp = seed_split();
        let chk = |m: &str, g: &str| {
            latex_answer_check(m, g, Some(&sp), ExtractPolicy::Flex, EvalPolicy::Aggressive)
                .unwrap()
        };
        assert!(chk("The answer is: 0.99999", "1").decided_true);
        assert!(chk("The answer is: 1000.4", "1000").decided_true);
        assert!(chk("The answer is: $400 \\text{meters}$", "400").decided_true);
        let o = chk("The answer is: 0.428571", "\\frac{3}{7}");
        assert!(!o.decided_true);
        assert_eq!(
            o.sympy_pairs.last().unwrap(),
            &("0.428571".to_string(), "\\frac{3}{7}".to_string())
        );
        assert!(chk("The answer is: 10,000", "10000").decided_true);
        assert!(chk("The answer is: B", "\\text{(B)}").decided_true);
        assert!(!chk("The answer is: 3, 5", "5, 3").decided_true);
    }
}
