//! The single-item checker of protocol A that the batch driver and the Python API both call: it
//! picks the checker (`Kind`) and the mode (`Compat`) and turns what the extractors, the seed
//! emulation and the equivalence engine found into a [`Verdict`] (vocabulary in [`crate::verdict`]).

use crate::choice;
use crate::config::Config;
use crate::equiv::{self, EquivOptions, Equivalence};
use crate::extract::{self, ExtractedBy};
use crate::number::{self, normalize_answer, numbers_equal, scan_numbers};
use crate::scan::debris;
use crate::scan::trim;
use crate::verdict::{
    Compat, DecidedBy, EvalPolicy, ExtractPolicy, FiniteDecimals, Kind, Reason, SympyTask, Verdict,
};
use crate::xwin;

/// Everything that selects the behaviour of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    pub compat: Compat,
    pub kind: Kind,
    pub extract_policy: ExtractPolicy,
    /// `None`: the policy of the config (per type) or the checker's default.
    pub eval_policy: Option<EvalPolicy>,
    /// Anchor phrases (the seed's `extract_pattern`).
    pub split: Vec<String>,
    /// Fixed mode: is a value with a finite decimal form exact against a coarser decimal? (The
    /// xwin mode compares as the seed does and ignores it.)
    pub finite_decimals: FiniteDecimals,
}

impl CheckOptions {
    /// The equivalence engine's options for the fixed mode's checks.
    fn equiv_options(&self) -> EquivOptions {
        EquivOptions {
            finite_decimals: self.finite_decimals,
            ..EquivOptions::default()
        }
    }
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            compat: Compat::Fixed,
            kind: Kind::Auto,
            extract_policy: ExtractPolicy::Flex,
            eval_policy: None,
            split: Config::seed().extract_pattern.clone(),
            finite_decimals: FiniteDecimals::default(),
        }
    }
}

/// Longest input we look at; longer text is judged on its last `MAX_INPUT_BYTES` bytes, where a
/// final answer lives. Keeps every check linear and bounded.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// One input cell: text, a missing value (None / null), or bytes that are not UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Text(String),
    Missing,
    BadUtf8,
}

impl From<&str> for Input {
    fn from(s: &str) -> Self {
        Input::Text(s.to_string())
    }
}

/// An input cell borrowed from wherever it lives (an [`Input`], or an Arrow buffer that the batch
/// driver reads in place): the checker never needs to own its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell<'a> {
    Text(&'a str),
    Missing,
    BadUtf8,
}

impl Input {
    pub fn cell(&self) -> Cell<'_> {
        match self {
            Input::Text(t) => Cell::Text(t),
            Input::Missing => Cell::Missing,
            Input::BadUtf8 => Cell::BadUtf8,
        }
    }
}

/// GSM8K's "solution\n#### 18" answer (see [`crate::gold::gsm8k_answer`]).
pub use crate::gold::gsm8k_answer;

/// Check one response against one gold answer. Never panics: a bug in a checker becomes the
/// verdict `error` for that item (and a test case for us), not an exception for the batch.
pub fn check(response: &Input, gold: &Input, opts: &CheckOptions) -> Verdict {
    check_cells(response.cell(), gold.cell(), opts)
}

/// [`check`] on borrowed cells.
pub fn check_cells(response: Cell<'_>, gold: Cell<'_>, opts: &CheckOptions) -> Verdict {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_unguarded(response, gold, opts)
    }))
    .unwrap_or_else(|_| Verdict::with_reason(Reason::Error, DecidedBy::None, None))
}

fn check_unguarded(response: Cell<'_>, gold: Cell<'_>, opts: &CheckOptions) -> Verdict {
    let gold = match gold {
        Cell::Text(g) if g.len() > MAX_INPUT_BYTES => {
            return Verdict::with_reason(Reason::OverBudget, DecidedBy::None, None);
        }
        // The seed compares an empty gold like any other string (and can say True); we do not.
        Cell::Text(g) if trim(g).is_empty() && opts.compat == Compat::Fixed => {
            return Verdict::with_reason(Reason::GoldUnparseable, DecidedBy::None, None);
        }
        Cell::Text(g) => g,
        Cell::Missing => {
            return Verdict::with_reason(Reason::GoldUnparseable, DecidedBy::None, None)
        }
        Cell::BadUtf8 => return Verdict::with_reason(Reason::Error, DecidedBy::None, None),
    };
    let response = match response {
        Cell::Text(r) if r.len() > MAX_INPUT_BYTES => {
            return Verdict::with_reason(Reason::OverBudget, DecidedBy::None, None);
        }
        Cell::Text(r) => r,
        Cell::Missing => return Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None),
        Cell::BadUtf8 => return Verdict::with_reason(Reason::Error, DecidedBy::None, None),
    };
    if opts.compat == Compat::Xwin {
        // The seed's checkers take the gold as written.
        let gold_norm = normalize_answer(gold);
        let kind = match opts.kind {
            Kind::Auto
                if !gold_norm.contains('\\') && number::parse_number(&gold_norm).is_some() =>
            {
                Kind::Simple
            }
            Kind::Auto => Kind::Latex,
            k => k,
        };
        return match kind {
            Kind::Latex => xwin_latex(response, gold, Some(&opts.split), opts),
            _ => xwin_simple(response, gold, opts),
        };
    }
    // What the gold alone decides, made once per distinct gold on this thread (`crate::gold`).
    crate::gold::with_gold_plan(gold, opts.kind, |plan| check_fixed(response, plan, opts))
}

/// The fixed mode's check of a response against a gold's plan.
fn check_fixed(response: &str, plan: &crate::gold::GoldPlan, opts: &CheckOptions) -> Verdict {
    // A multiple-choice gold (`B`, `(D) Alina`): the response's choice letter decides, when it
    // names one (rust/choice.rs); otherwise the usual checkers run.
    if let Some(g) = plan.letter {
        let anchors_only = opts.extract_policy == ExtractPolicy::Strict;
        if let Some(p) = choice::response_letter(response, g, anchors_only, &opts.split) {
            let letter = char::from(p).to_string();
            return Verdict::decided(p == g, DecidedBy::Literal, Some(letter));
        }
        // No letter: the response's answer against the option's text (`\boxed{12}` against
        // `(B) 12`; issue 33).
        if let Some(text) = choice::gold_option_text(&plan.answer) {
            let option = crate::gold::fresh_plan(text, opts.kind);
            if option.letter.is_none() && !option.unreduced {
                return check_fixed(response, &option, opts);
            }
        }
    }
    // A gold given as a worked solution (MATH's `solution` field, GSM8K's `#### 18`) is reduced
    // by the gold rule every framework's metric agrees with (`crate::gold`): the last
    // box, the `####` line, a closing "The answer is" sentence; a solution with none of them has
    // no answer to compare with.
    if plan.unreduced {
        return Verdict::with_reason(Reason::GoldUnparseable, DecidedBy::None, None);
    }
    // A gold that says the question has no answer (GSM-Plus's `None`): a response is right when
    // it says so too (`crate::declines`).
    if plan.no_answer {
        return no_answer_gold(response, opts);
    }
    // A gold `Yes` / `No` against a response that says so in words ("It is impossible to label
    // the cube this way."; `crate::polarity`).
    if let Some(yes) = plan.yes_no {
        if let Some(v) = yes_or_no_in_words(response, yes, opts) {
            return v;
        }
    }
    // A gold with a unit (`5 cm`) or a sentence gold (`The sequence is not periodic`): the
    // quantities or the predicates are compared first (issue 33); only such golds pay.
    if plan.quantity.is_some() || plan.predicate.is_some() {
        return quantity_or_sentence_gold(response, plan, opts);
    }
    // `Kind::Auto`: a gold that reads as one plain number without LaTeX (`18`, `2,125`, `-0.5`,
    // `3/4`, `20%`) goes to the number checker; anything else (`\frac{3}{7}`, sets,
    // expressions, clock times) to the LaTeX checker.
    match plan.kind {
        Kind::Latex => fixed_latex(response, &plan.answer, opts),
        // A gold in degrees (`120^\circ`, read as the number 120) against an answer in radians
        // (`\frac{2\pi}{3}`): compared as angles (issue 33). Only golds with a degree mark pay.
        _ if plan.answer.contains("circ") || plan.answer.contains('°') => {
            let Some(extracted) = fixed_extract(response, opts) else {
                return Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None);
            };
            match crate::answer_words::degrees_as_radians(&plan.answer) {
                Some(rad) if extracted.contains("\\pi") => verdict_from_equiv(
                    &rad,
                    &extracted,
                    &opts.equiv_options(),
                    Some(extracted.clone()),
                ),
                _ => numbers_against(extracted, &plan.normalized, plan.number.clone(), opts),
            }
        }
        _ => fixed_simple_parsed(response, &plan.normalized, plan.number.clone(), opts),
    }
}

/// A response against a gold `Yes` / `No` when its answer is stated in words: the closing
/// sentence (or the anchored sentence) denies or affirms. `None` when the response commits to a
/// value of its own (a box, an anchored value, a yes or no word) or its words decide nothing.
fn yes_or_no_in_words(response: &str, gold_yes: bool, opts: &CheckOptions) -> Option<Verdict> {
    let e = extract::extract(response, &opts.split);
    let text = match &e {
        Some(e) if crate::polarity::gold_polarity(&e.answer).is_some() => return None,
        Some(e) if e.by == ExtractedBy::Boxed => return None,
        Some(e) if e.by == ExtractedBy::Anchor => {
            let words = e
                .answer
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.chars().nth(1).is_some())
                .count();
            if words < 2 {
                return None;
            }
            e.answer.as_str()
        }
        _ if opts.extract_policy == ExtractPolicy::Strict => return None,
        _ => response,
    };
    let says_yes = crate::polarity::says(text)?;
    let word = if says_yes { "yes" } else { "no" };
    Some(Verdict::decided(
        says_yes == gold_yes,
        DecidedBy::Literal,
        Some(word.to_string()),
    ))
}

/// A response against a gold with a unit or a sentence gold: a predicate the answer asserts is
/// correct, a quantity in another unit is converted or wrong ([`units_verdict`]); anything else
/// is decided as for any gold of its kind.
fn quantity_or_sentence_gold(
    response: &str,
    plan: &crate::gold::GoldPlan,
    opts: &CheckOptions,
) -> Verdict {
    let Some(extracted) = fixed_extract(response, opts) else {
        // No answer read: a sentence gold's predicate may be what the closing sentence asserts.
        if let Some((subject, predicate)) = &plan.predicate {
            let last = last_sentence(response);
            if crate::gold::asserts_predicate(last, (subject, predicate)) {
                return Verdict::decided(true, DecidedBy::Literal, Some(last.to_string()));
            }
        }
        return Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None);
    };
    if let Some((subject, predicate)) = &plan.predicate {
        if crate::gold::asserts_predicate(&extracted, (subject, predicate)) {
            return Verdict::decided(true, DecidedBy::Literal, Some(extracted));
        }
    }
    // `\boxed{5} m`: a unit written right after the last box belongs to the boxed number.
    let with_unit = plan
        .quantity
        .as_ref()
        .filter(|_| crate::units::quantity(&extracted).is_none())
        .and_then(|_| unit_after_box(response, &extracted));
    let units = plan.quantity.as_ref().and_then(|gold| {
        let mut v = units_verdict(
            gold,
            with_unit.as_deref().unwrap_or(&extracted),
            opts.finite_decimals,
        )?;
        v.extracted = Some(extracted.clone());
        Some(v)
    });
    // Equal values in the same unit: the verdict without units when it agrees (its path kept),
    // else this one (`12\,\mathrm{cm}^2` against `12 cm²`, which the engine misreads).
    if let Some(v) = units.as_ref().filter(|v| !v.correct) {
        return v.clone();
    }
    let plain = match plan.kind {
        Kind::Latex => fixed_latex_on(extracted, &plan.answer, opts),
        _ => numbers_against(extracted, &plan.normalized, plan.number.clone(), opts),
    };
    match units {
        Some(v) if !plain.correct => v,
        _ => plain,
    }
}

/// `5 m` for a response whose answer `5` is its last box and whose text right after that box is
/// a unit and nothing more up to the end of the clause (`\boxed{5} m.`, `$\boxed{5}$ cm,`,
/// `\boxed{5}\text{ m}`); `None` otherwise (`\boxed{12} in total`, `\boxed{5} meters away`).
fn unit_after_box(response: &str, extracted: &str) -> Option<String> {
    let last = *crate::scan::boxes::find_boxes(response).last()?;
    if trim(last.content(response)) != trim(extracted) {
        return None;
    }
    let after = response[last.end..].trim_start_matches(['$', ' ']);
    let after = after
        .strip_prefix("\\)")
        .or_else(|| after.strip_prefix("\\]"))
        .unwrap_or(after);
    let end = after
        .find(['\n', ',', ';', '$', '(', ')', '!', '?'])
        .unwrap_or(after.len());
    let clause = after[..end].trim_end();
    let clause = match clause.find(". ") {
        Some(i) => &clause[..i],
        None => clause.strip_suffix('.').unwrap_or(clause),
    };
    let clause = trim(clause);
    if clause.is_empty() {
        return None;
    }
    // The whole clause (`cm`, `square feet`), else its first two words or its first word when
    // the clause goes on (`cm up the wall`; never `in`, which is then a preposition).
    let words: Vec<&str> = clause.split_whitespace().take(3).collect();
    let offset = |w: &str| w.as_ptr() as usize - clause.as_ptr() as usize;
    let mut candidates = vec![clause];
    if words.len() > 2 {
        candidates.push(&clause[..offset(words[1]) + words[1].len()]);
    }
    if words.len() > 1 {
        candidates.push(words[0]);
    }
    candidates
        .into_iter()
        .filter(|c| c.len() <= 40 && (*c == clause || (!c.starts_with("in ") && *c != "in")))
        .map(|c| format!("{} {c}", trim(extracted)))
        .find(|t| crate::units::quantity(t).is_some())
}

/// The last sentence of a response (after its last line break or ". "), trimmed.
fn last_sentence(response: &str) -> &str {
    let t = trim(response);
    let body = t.trim_end_matches(['.', '!']);
    let start = [
        body.rfind('\n').map(|i| i + 1),
        body.rfind(". ").map(|i| i + 2),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    trim(&t[start..])
}

/// Both answers carry a recognised unit (`crate::units`): with the same unit the values are
/// compared as numbers are; another dimension is wrong; another scale of the same dimension is
/// converted to the gold's unit and compared; a pair we do not judge (months against days) is
/// `None`, decided as without units.
fn units_verdict(
    gold: &crate::units::Quantity,
    extracted: &str,
    finite_decimals: FiniteDecimals,
) -> Option<Verdict> {
    use crate::units::Against;
    let pred = crate::units::quantity(extracted)?;
    let correct = match crate::units::against(gold, &pred) {
        Against::Keep => return None,
        Against::Same => numbers_equal(&gold.value, &pred.value, finite_decimals),
        Against::OtherDimension => false,
        Against::Converted(v) => numbers_equal(&gold.value, &v, finite_decimals),
    };
    Some(Verdict::decided(
        correct,
        DecidedBy::Numeric,
        Some(extracted.to_string()),
    ))
}

/// A response against a gold that says there is no answer: correct when its final answer is a
/// no-answer word, or when it commits to no answer (none, or only one read from its prose) and
/// its closing part declines; a committed answer (anchored or boxed) is wrong.
fn no_answer_gold(response: &str, opts: &CheckOptions) -> Verdict {
    let e = extract::extract(response, &opts.split);
    let committed = e
        .as_ref()
        .is_some_and(|e| matches!(e.by, ExtractedBy::Anchor | ExtractedBy::Boxed));
    let extracted = e.map(|e| e.answer);
    // "There is no such function." / "no such $n$ exists" against `none` (issue 33).
    if extracted
        .as_deref()
        .is_some_and(|x| crate::declines::is_no_answer(x) || crate::polarity::denies_existence(x))
        || (!committed
            && (crate::declines::declines(response) || crate::polarity::denies_existence(response)))
    {
        return Verdict::decided(true, DecidedBy::Literal, extracted);
    }
    match extracted {
        Some(x) => Verdict::decided(false, DecidedBy::Literal, Some(x)),
        None => Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None),
    }
}

/// The seed's `latex_answer_check`; `split=None` means "no extraction", as in the seed.
pub fn xwin_latex(
    response: &str,
    gold: &str,
    split: Option<&[String]>,
    opts: &CheckOptions,
) -> Verdict {
    let policy = opts.eval_policy.unwrap_or(EvalPolicy::Aggressive);
    match xwin::latex_answer_check(response, gold, split, opts.extract_policy, policy) {
        Err(_) => Verdict::with_reason(Reason::Error, DecidedBy::None, None),
        Ok(o) if o.extracted.is_none() => {
            Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None)
        }
        Ok(o) if o.decided_true => Verdict::decided(
            true,
            if o.literal {
                DecidedBy::Literal
            } else {
                DecidedBy::Numeric
            },
            o.extracted,
        ),
        Ok(o) if o.sympy_pairs.is_empty() => {
            Verdict::decided(false, DecidedBy::Numeric, o.extracted)
        }
        Ok(o) => {
            let mut v = Verdict::decided(false, DecidedBy::Sympy, o.extracted);
            v.sympy = Some(SympyTask {
                compat: Compat::Xwin,
                pairs: o.sympy_pairs,
            });
            v
        }
    }
}

/// The seed's `simple_answer_check`.
pub fn xwin_simple(response: &str, gold: &str, opts: &CheckOptions) -> Verdict {
    let policy = opts.eval_policy.unwrap_or(EvalPolicy::Strict);
    match xwin::simple_answer_check(response, gold, opts.extract_policy, policy, &opts.split) {
        Err(_) => Verdict::with_reason(Reason::Error, DecidedBy::None, None),
        Ok(o) if o.extracted.is_none() => {
            Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None)
        }
        Ok(o) => Verdict::decided(
            o.correct,
            if o.numeric {
                DecidedBy::Numeric
            } else {
                DecidedBy::Literal
            },
            o.extracted,
        ),
    }
}

fn fixed_extract(response: &str, opts: &CheckOptions) -> Option<String> {
    let mut e = extract::extract(response, &opts.split)?;
    if opts.extract_policy == ExtractPolicy::Strict && e.by != ExtractedBy::Anchor {
        return None;
    }
    let clean = debris::strip_debris(&e.answer);
    if clean.len() != e.answer.len() {
        e.answer = clean.to_string();
    }
    // HTML markup and entities (`x<sup>2</sup>`, `&le;`) and a few Unicode signs as LaTeX (issue
    // 33); the byte test inline, so a plain answer pays no call.
    if e.answer
        .bytes()
        .any(|c| matches!(c, b'<' | b'&') || c >= 0xc2)
    {
        if let Some(h) = crate::scan::html::html_markup(&e.answer) {
            e.answer = h;
        }
    }
    // Answers in words or forms the engine does not read (`12^{\mathrm{th}}`, `all real numbers
    // except -4`, `4 < m \leq 8 \text{ or } 10 \leq m < 12`, `f(z)=z`): rewritten (issue 33).
    if let Some(r) = crate::answer_words::rewrite(&e.answer) {
        e.answer = r;
    }
    // "x \approx 11" answers like "x = 11"; "\frac{25}{2} \approx 12.57" is its exact value, which
    // the engine reads (the rounded tail is dropped there, never compared).
    let approx =
        (e.answer.contains('\\') && e.answer.contains("\\approx")) || e.answer.contains('\u{2248}');
    Some(
        if approx && !e.answer.contains('=') && name_before_approx(&e.answer) {
            e.answer.replace("\\approx", "=").replace('\u{2248}', "=")
        } else {
            e.answer
        },
    )
}

/// Is the text before the first `\approx` / `≈` a lone name (`x`, `y_1`, `AB`)?
fn name_before_approx(s: &str) -> bool {
    let cut = [s.find("\\approx"), s.find('\u{2248}')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(s.len());
    let left = s[..cut].trim().trim_start_matches('$').trim();
    !left.is_empty()
        && left.starts_with(|c: char| c.is_alphabetic())
        && left.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// For the number checker: the value side of `x = 5` / `10 - 2 = 8`.
fn rhs_of_equation(s: &str) -> &str {
    // `∠3＝55°`: the full-width sign of Chinese texts too (three bytes).
    let at = match (s.rfind('='), s.rfind('＝')) {
        (Some(a), Some(b)) if b > a => Some(b + '＝'.len_utf8()),
        (Some(a), _) => Some(a + 1),
        (None, Some(b)) => Some(b + '＝'.len_utf8()),
        (None, None) => None,
    };
    match at {
        // `x = -1, x = 4`: a list of values, not one equation whose value is the last.
        Some(i) if s[..i].contains(", ") || s[..i].contains(';') => s,
        Some(i) if !trim(&s[i..]).is_empty() => trim(&s[i..]),
        _ => s,
    }
}

/// A word of three or more letters that is not a LaTeX command: "The volume is 120" is prose
/// whose number the number checker reads; "4\\sqrt{2}" or "(9+1)" go to the engine.
fn has_prose_word(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            if i - start >= 3 && (start == 0 || b[start - 1] != b'\\') {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}

/// Literal comparison for answers without numbers: case-, space- and punctuation-insensitive.
fn literal_words_equal(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (x, y) = (norm(a), norm(b));
    !x.is_empty() && x == y
}

/// GSM8K-style checking, fixed: one number compared with DESIGN.md's policies, or the multiset of
/// numbers under the eval policy (strict / model_include_gt / gt_include_model).
pub fn fixed_simple(response: &str, gold: &str, opts: &CheckOptions) -> Verdict {
    let g = normalize_answer(gold);
    let gn = number::parse_number(&g);
    fixed_simple_parsed(response, &g, gn, opts)
}

fn fixed_simple_parsed(
    response: &str,
    g: &str,
    gold_num: Option<number::WrittenNumber>,
    opts: &CheckOptions,
) -> Verdict {
    let Some(extracted) = fixed_extract(response, opts) else {
        return Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None);
    };
    numbers_against(extracted, g, gold_num, opts)
}

/// The number checker on an extracted answer (`check` after extraction, `verify` as it is).
fn numbers_against(
    extracted: String,
    g: &str,
    gold_num: Option<number::WrittenNumber>,
    opts: &CheckOptions,
) -> Verdict {
    let policy = opts.eval_policy.unwrap_or(EvalPolicy::Strict);
    let p_full = normalize_answer(&extracted);
    let p = rhs_of_equation(&p_full);
    // "The answer is seven." against 7: an answer written in number words is that number.
    // "1.5 million" is 1500000 (the number reader would stop at 1.5).
    let scaled = if p.contains("illion") || p.contains("thousand") {
        number::scaled_number(p).and_then(|v| number::parse_number(&v))
    } else {
        None
    };
    let pred_num = scaled
        .or_else(|| number::parse_number(p))
        .or_else(|| number::number_words(p).and_then(|v| number::parse_number(&v.to_string())));
    let gold_is_number = gold_num.is_some();
    if let (Some(gn), Some(pn)) = (gold_num, pred_num.as_ref()) {
        if matches!(
            policy,
            EvalPolicy::Strict | EvalPolicy::Aggressive | EvalPolicy::Conservative
        ) || numbers_equal(&gn, pn, opts.finite_decimals)
        {
            return Verdict::decided(
                numbers_equal(&gn, pn, opts.finite_decimals),
                DecidedBy::Numeric,
                Some(extracted),
            );
        }
    }
    // An expression against a number ("(9+1)", "\\sqrt{17}", "4\\sqrt{2}"): the equivalence engine
    // decides when it can; else the numbers in the answer are matched under the policy.
    let mathy = p.bytes().any(|c| c.is_ascii_digit() || c == b'\\') && !has_prose_word(p);
    if gold_is_number && policy == EvalPolicy::Strict && pred_num.is_none() && mathy {
        let o = equiv::equivalent(g, &p_full, &opts.equiv_options());
        match o.result {
            Equivalence::Equal => return Verdict::decided(true, o.path, Some(extracted)),
            Equivalence::NotEqual if o.pred_parsed => {
                return Verdict::decided(false, o.path, Some(extracted))
            }
            _ => {}
        }
    }
    let gold_nums: Vec<_> = scan_numbers(g).into_iter().map(|f| f.number).collect();
    if gold_nums.is_empty() {
        return Verdict::decided(
            literal_words_equal(g, &p_full),
            DecidedBy::Literal,
            Some(extracted),
        );
    }
    let mut pred_nums: Vec<_> = scan_numbers(p).into_iter().map(|f| f.number).collect();
    if pred_nums.is_empty() {
        return Verdict::with_reason(Reason::PredUnparseable, DecidedBy::None, Some(extracted));
    }
    if policy == EvalPolicy::Strict && gold_nums.len() != pred_nums.len() {
        return Verdict::decided(false, DecidedBy::Numeric, Some(extracted));
    }
    let mut unmatched_gold = 0usize;
    for gn in &gold_nums {
        match pred_nums
            .iter()
            .position(|pn| numbers_equal(gn, pn, opts.finite_decimals))
        {
            Some(i) => {
                pred_nums.swap_remove(i);
            }
            None => unmatched_gold += 1,
        }
    }
    let correct = match policy {
        EvalPolicy::ModelIncludeGt => unmatched_gold == 0,
        EvalPolicy::GtIncludeModel => pred_nums.is_empty(),
        _ => unmatched_gold == 0 && pred_nums.is_empty(),
    };
    Verdict::decided(correct, DecidedBy::Numeric, Some(extracted))
}

/// MATH-style checking, fixed: the Rust equivalence engine, SymPy only when it is undecided.
pub fn fixed_latex(response: &str, gold: &str, opts: &CheckOptions) -> Verdict {
    let Some(extracted) = fixed_extract(response, opts) else {
        return Verdict::with_reason(Reason::NoAnswer, DecidedBy::None, None);
    };
    fixed_latex_on(extracted, gold, opts)
}

/// [`fixed_latex`] on the response's extracted answer.
fn fixed_latex_on(extracted: String, gold: &str, opts: &CheckOptions) -> Verdict {
    // `f(m) = 2m + 1007` against the gold `f(n)=2n+1007`: the response's function in the gold's
    // variable (issue 33; `answer_words`).
    let g = gold.trim().trim_matches('$').trim();
    let renamed = match (
        crate::answer_words::function_var(g),
        crate::answer_words::function_var(&extracted),
    ) {
        (Some(gv), Some(pv)) if gv != pv => crate::answer_words::function_in_var(&extracted, gv),
        _ => None,
    };
    let pred = renamed.as_deref().unwrap_or(&extracted);
    // An angle in degrees against one in radians (`120^\circ` and `\frac{2\pi}{3}`): the degree
    // side in radians, only when the other side has a `\pi` (issue 33).
    let (gold_rad, pred_rad) = if g.contains("\\pi") {
        (None, crate::answer_words::degrees_as_radians(pred))
    } else if pred.contains("\\pi") {
        (crate::answer_words::degrees_as_radians(g), None)
    } else {
        (None, None)
    };
    verdict_from_equiv(
        gold_rad.as_deref().unwrap_or(gold),
        pred_rad.as_deref().unwrap_or(pred),
        &opts.equiv_options(),
        Some(extracted.clone()),
    )
}

/// `verify(gold, pred)`: two already-extracted answers, decided as `check` decides a response
/// whose extracted answer is `pred`: a worked-solution gold reduced by the gold rule, a plain-number
/// gold (`18`, `3/4`) against a one-line pred to the number checker, anything else to the
/// equivalence engine. (A value
/// over the engine's budgets, `\dfrac{5^{(5^{(5^5)})}}{16}` against `1`, is so decided at once,
/// never handed to SymPy.) `strict` keeps the engine alone: only trivial rewriting.
pub fn verify(gold: &str, pred: &str, eopts: &EquivOptions) -> Verdict {
    if eopts.strict {
        return verdict_from_equiv(gold, pred, eopts, Some(pred.to_string()));
    }
    let reduced = crate::gold::reduce_gold(gold);
    if reduced.rule == crate::gold::GoldRule::Unreduced {
        return Verdict::with_reason(
            Reason::GoldUnparseable,
            DecidedBy::None,
            Some(pred.to_string()),
        );
    }
    let html_gold = crate::scan::html::html_markup(reduced.answer);
    let gold = debris::strip_debris(html_gold.as_deref().unwrap_or(reduced.answer));
    // A gold set in set-builder notation or minus points, as `check` reads it.
    let set_gold = crate::answer_words::gold_set(gold);
    let gold = set_gold.as_deref().unwrap_or(gold);
    let html_pred = crate::scan::html::html_markup(pred);
    let pred = html_pred.as_deref().unwrap_or(pred);
    // Both with a unit (`5 m` against `500 cm`): as `check` compares them.
    let units =
        crate::units::quantity(gold).and_then(|g| units_verdict(&g, pred, eopts.finite_decimals));
    if let Some(v) = units.as_ref().filter(|v| !v.correct) {
        return v.clone();
    }
    let plain = verify_reduced(gold, pred, eopts);
    match units {
        Some(v) if !plain.correct => v,
        _ => plain,
    }
}

/// [`verify`] on the reduced gold.
fn verify_reduced(gold: &str, pred: &str, eopts: &EquivOptions) -> Verdict {
    let gold_norm = normalize_answer(gold);
    let gold_num = if gold_norm.contains('\\') {
        None
    } else {
        number::parse_number(&gold_norm)
    };
    let plain_number =
        gold_num.is_some() && !crate::scan::clock::clock_time(gold).is_some_and(|c| c.definite);
    // Only a pred that reads as one answer (a line, not a response): the number checker takes the
    // numbers of the text it is given, which in a whole response are its working.
    let one_answer = pred.len() <= 100 && !pred.contains('\n');
    if plain_number && one_answer && eopts.rounding_tolerance {
        let opts = CheckOptions {
            finite_decimals: eopts.finite_decimals,
            ..CheckOptions::default()
        };
        return numbers_against(pred.to_string(), &gold_norm, gold_num, &opts);
    }
    verdict_from_equiv(gold, pred, eopts, Some(pred.to_string()))
}

/// Equivalence of two extracted answers as a verdict (used by `check` and `verify`).
pub fn verdict_from_equiv(
    gold: &str,
    pred: &str,
    eopts: &EquivOptions,
    extracted: Option<String>,
) -> Verdict {
    let o = equiv::equivalent(gold, pred, eopts);
    if !o.gold_parsed {
        let reason = if o.over_budget {
            Reason::OverBudget
        } else {
            Reason::GoldUnparseable
        };
        return Verdict::with_reason(reason, DecidedBy::None, extracted);
    }
    match o.result {
        // A prediction over the parser's budgets is not handed to SymPy (whose parser would
        // spend its whole deadline on it): `over_budget`, decided here.
        Equivalence::Undecided if !o.pred_parsed && o.over_budget => {
            Verdict::with_reason(Reason::OverBudget, DecidedBy::None, extracted)
        }
        Equivalence::Equal => Verdict::decided(true, o.path, extracted),
        Equivalence::NotEqual if !o.pred_parsed => {
            Verdict::with_reason(Reason::PredUnparseable, o.path, extracted)
        }
        Equivalence::NotEqual => Verdict::decided(false, o.path, extracted),
        Equivalence::Undecided => {
            let mut v = Verdict::with_reason(
                if o.over_budget {
                    Reason::OverBudget
                } else {
                    Reason::Incorrect
                },
                DecidedBy::Sympy,
                extracted,
            );
            v.sympy = Some(SympyTask {
                compat: Compat::Fixed,
                // As the engine read them: doubly escaped LaTeX unescaped.
                pairs: vec![(
                    normalize_answer(&debris::unescape_doubled(pred)).into_owned(),
                    normalize_answer(&debris::unescape_doubled(gold)).into_owned(),
                )],
            });
            v
        }
    }
}

/// `extract_answer` of the public API in either mode.
pub fn extract_answer(
    text: &str,
    split: &[String],
    policy: ExtractPolicy,
    compat: Compat,
) -> Option<String> {
    if text.len() > MAX_INPUT_BYTES {
        return None;
    }
    match compat {
        Compat::Xwin => xwin::extract_answer(text, split, policy),
        Compat::Fixed => {
            let opts = CheckOptions {
                extract_policy: policy,
                split: split.to_vec(),
                ..CheckOptions::default()
            };
            fixed_extract(text, &opts)
        }
    }
}

#[cfg(test)]
mod tests;
