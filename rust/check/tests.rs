use super::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Arbitrary text over an alphabet that stresses every scanner never panics (the
    /// catch_unwind net is bypassed here on purpose).
    #[test]
    fn no_panic_on_arbitrary_text(
        resp in r"(The answer is:? |####|\\boxed\{|\\fbox|\\frac|\\text\{|\$\$|\\\[|\\\(|[0-9٣²’é .,/:\-+eE$\\{}()\[\]^%_xyz\n'\x22])*",
        gold in r"[0-9٣ .,/\-$\\{}a-z]*",
    ) {
        for compat in [Compat::Fixed, Compat::Xwin] {
            for kind in [Kind::Simple, Kind::Latex, Kind::Auto] {
                let o = CheckOptions { compat, kind, ..CheckOptions::default() };
                let _ = check_unguarded(Cell::Text(&resp), Cell::Text(&gold), &o);
            }
        }
        let _ = crate::number::scan_numbers(&resp);
        let _ = crate::number::parse_number(&resp);
    }
}

fn fixed(resp: &str, gold: &str) -> Verdict {
    check(&resp.into(), &gold.into(), &CheckOptions::default())
}

fn xwin(resp: &str, gold: &str) -> Verdict {
    check(
        &resp.into(),
        &gold.into(),
        &CheckOptions {
            compat: Compat::Xwin,
            ..CheckOptions::default()
        },
    )
}

#[test]
fn gsm8k_anchor_both_modes() {
    for g in ["18", "2,125", "-10", "1,450,000"] {
        let r = format!("Some work.\nThe answer is: {g}.");
        assert!(fixed(&r, g).correct, "fixed {g}");
        assert!(xwin(&r, g).correct, "xwin {g}");
    }
}

#[test]
fn fixed_corrects_seed_quirks() {
    assert!(!fixed("The answer is: 1000.4", "1000").correct);
    assert!(xwin("The answer is: 1000.4", "1000").correct);
    assert!(fixed("The answer is: 50%", "0.5").correct);
    assert!(
        fixed(
            "The answer is: 18.\nThe answer is correct because 9*2=18.",
            "18"
        )
        .correct
    );
    assert!(
        !xwin(
            "The answer is: 18.\nThe answer is correct because 9*2=18.",
            "20"
        )
        .correct
    );
    assert!(fixed("the zoo-keeper counted 12 animals in the x-axis", "12").correct);
    assert!(
        fixed("It costs $400 000 in total.", "400000").correct
            || fixed("The answer is $400 000", "400000").correct
    );
}

#[test]
fn over_the_parse_budgets_is_over_budget_and_never_sent_to_sympy() {
    // A gold over the node budget is over budget, not unparseable.
    let big_gold = vec!["x"; 3_000].join("+");
    let v = fixed("The answer is $x$", &big_gold);
    assert_eq!(v.reason, Reason::OverBudget);
    // A prediction over the length, size or depth budgets.
    let n = 3_000;
    let deep = format!("${}1{}$", "\\frac{1}{".repeat(n), "}".repeat(n));
    for pred in [deep, format!("$\\sqrt{{{}}}$", "x+".repeat(12_000) + "x")] {
        let v = fixed(&pred, "\\frac12");
        assert_eq!(v.reason, Reason::OverBudget, "{}", &pred[..20]);
        assert!(v.sympy.is_none());
    }
    let nested = format!("${}x{}$", "(".repeat(500), ")".repeat(500));
    let v = fixed(&nested, "\\frac12");
    assert_eq!(v.reason, Reason::OverBudget);
    assert!(v.sympy.is_none());
    // A syntax error is still unparseable (and the prediction still goes to SymPy).
    assert_eq!(
        fixed("The answer is 5", "\\frac{").reason,
        Reason::GoldUnparseable
    );
}

#[test]
fn scale_words() {
    assert_eq!(
        crate::number::scaled_number("1.5 million").as_deref(),
        Some("1500000")
    );
    assert_eq!(crate::number::scaled_number("$2,5 thousand"), None);
    assert_eq!(
        crate::number::scaled_number("3 billion").as_deref(),
        Some("3000000000")
    );
    assert_eq!(crate::number::scaled_number("1.2345 thousand"), None);
    assert_eq!(crate::number::scaled_number("two million"), None);
    let v = fixed("The answer is: 1.5 million", "1500000");
    assert!(v.correct, "{v:?}");
    assert!(!fixed("The answer is: 1.5 million", "150000").correct);
}

#[test]
fn reasons() {
    assert_eq!(fixed("no digits here", "5").reason, Reason::NoAnswer);
    assert_eq!(
        check(&Input::Missing, &"5".into(), &CheckOptions::default()).reason,
        Reason::NoAnswer
    );
    assert_eq!(fixed("The answer is 5", "").reason, Reason::GoldUnparseable);
    assert_eq!(
        check(&Input::BadUtf8, &"5".into(), &CheckOptions::default()).reason,
        Reason::Error
    );
    let big = "1".repeat(MAX_INPUT_BYTES + 1);
    assert_eq!(fixed(&big, "5").reason, Reason::OverBudget);
    assert_eq!(
        fixed("The answer is: blue", "5").reason,
        Reason::PredUnparseable
    );
}

#[test]
fn xwin_latex_hands_sympy_pairs_over() {
    let v = xwin("The answer is: 0.428571", "\\frac{3}{7}");
    assert!(!v.correct);
    assert_eq!(v.path, DecidedBy::Sympy);
    assert_eq!(v.sympy.unwrap().compat, Compat::Xwin);
}

/// Issue 33: quantities with units, HTML in golds, a sentence gold; the xwin mode unchanged.
#[test]
fn units_html_and_sentence_golds() {
    let box_ = |a: &str| format!("So the answer is \\boxed{{{a}}}.");
    for (a, g, want) in [
        ("5 \\text{ m}", "5 cm", false),
        ("5 \\text{ cm}", "5 cm", true),
        ("5", "5 cm", true),
        ("500 \\text{ cm}", "5 m", true),
        ("50 \\text{ cm}", "5 m", false),
        ("120 \\text{ minutes}", "2 hours", true),
        ("2 \\text{ hours}", "2 minutes", false),
        ("5 \\text{ kg}", "5 m", false),
        ("12\\,\\mathrm{cm}^2", "12 cm²", true),
        ("12 \\text{ cm}", "12 cm^2", false),
        ("\\$5", "500 cents", true),
        ("m = 5", "5", true),
        ("3^x \\geq x^2", "3<sup>x</sup>≥x<sup>2</sup>", true),
        ("3^x \\leq x^2", "3<sup>x</sup>≥x<sup>2</sup>", false),
        ("x \\le 2", "x &le; 2", true),
        ("-5", "&minus;5", true),
        ("5", "&minus;5", false),
        ("\\text{not periodic}", "The sequence is not periodic", true),
        ("\\text{periodic}", "The sequence is not periodic", false),
        // A gold set in set-builder notation or minus points, read as an answer's is.
        (
            "(-\\infty, 2) \\cup (2, \\infty)",
            "\\{x \\mid x \\ne 2\\}",
            true,
        ),
        (
            "(-\\infty, 3) \\cup (3, \\infty)",
            "\\{x \\mid x \\ne 2\\}",
            false,
        ),
        ("(-1, 1)", "\\{x \\mid -1 < x < 1\\}", true),
        ("(-1, 1]", "\\{x \\mid -1 < x < 1\\}", false),
        (
            "(-\\infty,1)\\cup(1,3)",
            "(-\\infty, 3) \\setminus \\{1\\}",
            true,
        ),
        ("(-\\infty,3)", "(-\\infty, 3) \\setminus \\{1\\}", false),
    ] {
        assert_eq!(fixed(&box_(a), g).correct, want, "{a} against {g}");
    }
    // A unit right after the box belongs to the boxed number.
    for (r, g, want) in [
        ("The radius is \\boxed{5} m.", "5 cm", false),
        ("The radius is \\boxed{5} cm.", "5 cm", true),
        ("The radius is $\\boxed{500}$ cm, as said.", "5 m", true),
        ("So \\boxed{5}\\text{ m}", "5 cm", false),
        ("There are \\boxed{12} in total.", "12 cm", true),
        ("It lands \\boxed{5} meters away.", "5 cm", false),
        ("It lands \\boxed{500} cm away.", "5 m", true),
        ("It covers \\boxed{3} square feet of floor.", "3 m^2", false),
        (
            "It covers \\boxed{3} square meters of floor.",
            "3 m^2",
            true,
        ),
        ("\\boxed{3} times", "3 m", true),
    ] {
        assert_eq!(fixed(r, g).correct, want, "{r} against {g}");
    }
    assert!(
        fixed(
            "Hence the sequence is not periodic.",
            "The sequence is not periodic"
        )
        .correct
    );
    assert!(
        !fixed(
            "Hence the sequence is periodic.",
            "The sequence is not periodic"
        )
        .correct
    );
    // verify() reads units and HTML as check() does.
    let e = EquivOptions::default();
    assert!(verify("5 m", "500 cm", &e).correct);
    assert!(!verify("5 cm", "5 m", &e).correct);
    assert!(verify("x<sup>2</sup>", "x^2", &e).correct);
    assert!(verify("\\{x \\mid x \\ne 2\\}", "(-\\infty,2)\\cup(2,\\infty)", &e).correct);
    assert!(!verify("\\{x \\mid x \\ne 2\\}", "(-\\infty,2)", &e).correct);
    // The seed's mode compares as it always did.
    assert!(xwin(&box_("5 \\text{ m}"), "5 cm").correct == xwin(&box_("5"), "5 cm").correct);
}

#[test]
fn gsm8k_solution_gold_yields_its_answer_at_any_length() {
    // lm-eval's gsm8k `target` is the whole GSM8K answer field: short golds count too.
    let short =
        "Janet sells 16 - 3 - 4 = 9 duck eggs a day.\nShe makes 9 * 2 = $18 every day.\n#### 18";
    assert!(short.len() < 200);
    let v = fixed("The answer is 18", short);
    assert_eq!((v.correct, v.reason), (true, Reason::Correct));
    assert_eq!(fixed("The answer is 19", short).reason, Reason::Incorrect);
    assert!(fixed("#### 1,000", "So 1000 in all.\n#### 1,000").correct);
    // A Markdown heading is not GSM8K's answer line: the gold stays as written.
    assert_eq!(gsm8k_answer("Step 1\n#### Notes"), None);
    assert_eq!(gsm8k_answer("x\n####  -5"), Some("-5"));
    assert_eq!(gsm8k_answer("x\n####  -5 \nmore"), Some("-5"));
    assert_eq!(gsm8k_answer("#### 1 #### 2,000"), Some("2,000"));
    assert_eq!(gsm8k_answer("18"), None);
    // The seed compares such golds verbatim (xwin mode keeps its behaviour).
    assert!(!xwin("The answer is 18", short).correct);
}
