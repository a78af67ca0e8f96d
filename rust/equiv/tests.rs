//! Tests of the whole engine through [`super::equivalent`]: policies, laws (reflexive,
//! symmetric, reordering), a naive evaluator as oracle, and every example of `docs/policies.md`.

mod engine {
    use super::super::numeric::{self, Env, C};
    use super::super::{equivalent, EquivOptions, Equivalence};
    use crate::latex::ParseOptions;

    fn eq(g: &str, p: &str) -> Equivalence {
        equivalent(g, p, &EquivOptions::default()).result
    }

    #[test]
    fn the_gold_side_is_reused_only_for_the_same_gold_and_budget() {
        let big = (1..=40)
            .map(|k| format!("x^{{{k}}}"))
            .collect::<Vec<_>>()
            .join("+");
        let small = EquivOptions {
            max_nodes: 20,
            ..EquivOptions::default()
        };
        // The same gold three times in a row on this thread, with budgets that decide differently.
        assert_eq!(equivalent(&big, &big, &small).result, Equivalence::Equal); // literal
        let over = equivalent(&big, &format!("{big}+0"), &small);
        assert!(over.over_budget && !over.gold_parsed);
        let fine = equivalent(&big, &format!("{big}+0"), &EquivOptions::default());
        assert_eq!(fine.result, Equivalence::Equal);
        // Alternating golds each give their own answer.
        for _ in 0..3 {
            assert_eq!(eq("\\frac{1}{2}", "0.5"), Equivalence::Equal);
            assert_eq!(eq("\\frac{1}{3}", "0.5"), Equivalence::NotEqual);
            assert_eq!(eq("yes", "Yes"), Equivalence::Equal);
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(eq("1000", "1,000"), Equivalence::Equal);
        assert_eq!(eq("1000", "1000.4"), Equivalence::NotEqual);
        assert_eq!(eq("\\frac13", "0.3333"), Equivalence::Equal);
        assert_eq!(eq("0.0000001", "0.0000002"), Equivalence::NotEqual);
        assert_eq!(
            eq("\\frac{1}{2004!}", "\\frac{1}{2006!}"),
            Equivalence::NotEqual
        );
        assert_eq!(eq("28\\%", "28"), Equivalence::Equal);
        assert_eq!(eq("28\\%", "0.28"), Equivalence::Equal);
        assert_eq!(eq("28", "0.28"), Equivalence::NotEqual);
        assert_eq!(eq("1.22", "1,22"), Equivalence::Equal);
    }

    /// Issue 13's precision policy in the engine: a value with a finite decimal form is exact
    /// against a coarser decimal (six significant digits excepted); values without one are
    /// rounded; `FiniteDecimals::WrittenPrecision` restores rounding for all. Both orders.
    #[test]
    fn finite_decimals_are_exact_by_default() {
        use crate::verdict::FiniteDecimals;
        let with = |g: &str, p: &str, f: FiniteDecimals| {
            let o = EquivOptions {
                finite_decimals: f,
                ..EquivOptions::default()
            };
            let ab = equivalent(g, p, &o).result;
            assert_eq!(ab, equivalent(p, g, &o).result, "{g} vs {p}: not symmetric");
            ab
        };
        let (n, e) = (Equivalence::NotEqual, Equivalence::Equal);
        for (g, p, exact, written) in [
            ("2.232", "2.23", n, e),
            ("0.066793", "0.067", n, e),
            ("1.25", "1.3", n, e),
            ("\\frac38", "0.38", n, e),
            ("\\frac{3}{8}", "3.8 \\times 10^{-1}", n, e),
            ("(2.232, 1)", "(2.23, 1)", n, e),
            ("17.001", "17", n, n),
            ("1000", "1000.4", n, n),
            ("2.23", "2.230", e, e),
            ("0.066666793", "0.0666668", e, e),
            ("\\frac23", "0.6666667", e, e),
            ("\\frac13", "0.33", e, e),
            ("\\frac{1}{270}", "3.703703703704 \\times 10^{-3}", e, e),
            ("\\pi", "3.14", e, e),
            ("\\sqrt2", "1.414", e, e),
            ("\\frac13", "0.3", n, n),
            // Issue 22: a machine-rounded finer decimal is the same evidence as a coarser one.
            ("26.67", "26.6667", e, e),
            ("26.67", "\\frac{80}{3}", e, e),
            ("3.14", "3.14159", e, e),
            ("0.067", "0.066793", n, e),
        ] {
            assert_eq!(
                with(g, p, FiniteDecimals::Exact),
                exact,
                "{g} vs {p} (exact)"
            );
            assert_eq!(
                with(g, p, FiniteDecimals::WrittenPrecision),
                written,
                "{g} vs {p} (written)"
            );
        }
    }

    #[test]
    fn expressions() {
        assert_eq!(
            eq("\\frac{x+2}{7}", "\\frac{x}{7}+\\frac{2}{7}"),
            Equivalence::Equal
        );
        assert_eq!(eq("\\tan^2(y)+1", "\\sec^2(y)"), Equivalence::Equal);
        assert_eq!(eq("x+2n+1", "x+1"), Equivalence::NotEqual);
        assert_eq!(eq("2\\sqrt{2}", "\\sqrt{8}"), Equivalence::Equal);
        assert_eq!(eq("4", "4\\sqrt{2}"), Equivalence::NotEqual);
    }

    /// Issue 13: a decimal inside an expression stands for the exact constant at the same place
    /// on the other side, at its written precision, under the same precision policy as a bare
    /// decimal (a value with a finite decimal form is exact). Both orders.
    #[test]
    fn decimals_inside_expressions() {
        let both = |g: &str, p: &str| {
            let (a, b) = (eq(g, p), eq(p, g));
            assert_eq!(a, b, "{g} vs {p}: not symmetric");
            a
        };
        for (g, p) in [
            ("2 + \\sqrt{3}i", "2 + 1.732i"),
            ("2 + \\sqrt{3}i", "1.732i + 2"),
            ("\\pi r^2", "3.14 r^2"),
            ("\\sqrt2 x + 1", "1.414 x + 1"),
            ("p - q = \\sqrt2", "p - q = 1.414"),
            ("p - q = \\sqrt2", "1.414 = p - q"),
            ("x + \\frac13", "x + 0.333"),
            ("(\\sqrt2, \\pi)", "(1.41, 3.14)"),
            ("e^{x}", "2.718^{x}"),
            (
                "\\begin{cases} p+q=\\frac14 \\\\ p-q=\\sqrt2 \\end{cases}",
                "\\begin{cases} p+q=0.25\\\\ p-q=1.414\\end{cases}",
            ),
        ] {
            assert_eq!(both(g, p), Equivalence::Equal, "{g} vs {p}");
        }
        for (g, p) in [
            ("2 + \\sqrt{3}i", "2 + 1.8i"),
            ("2 + \\sqrt{3}i", "3 + 1.732i"),
            // A value with a finite decimal form is exact: 1.3 is not 1.25 inside an expression either.
            ("2 + 1.25i", "2 + 1.3i"),
            ("2 + \\frac54 i", "2 + 1.3i"),
            // One significant digit is exact, as for a bare decimal.
            ("x + \\frac13", "x + 0.3"),
            ("\\sqrt2 x + 1", "1.414 y + 1"),
            (
                "\\begin{cases} p+q=\\frac14 \\\\ p-q=\\sqrt2 \\end{cases}",
                "\\begin{cases} p+q=0.25\\\\ p-q=1.5\\end{cases}",
            ),
        ] {
            assert_ne!(both(g, p), Equivalence::Equal, "{g} vs {p}");
        }
        // The lenient option and strict mode keep their meaning.
        let o = EquivOptions {
            finite_decimals: crate::verdict::FiniteDecimals::WrittenPrecision,
            ..EquivOptions::default()
        };
        assert_eq!(
            equivalent("2 + 1.25i", "2 + 1.3i", &o).result,
            Equivalence::Equal
        );
        let strict = EquivOptions {
            strict: true,
            ..EquivOptions::default()
        };
        assert_ne!(
            equivalent("2 + \\sqrt{3}i", "2 + 1.732i", &strict).result,
            Equivalence::Equal
        );
    }

    /// Issue 13 (mario/0048): `[a, b]` against a two-entry vector is the list of its entries.
    #[test]
    fn a_bracketed_pair_against_a_vector_is_a_list() {
        let col = "\\begin{matrix} \\frac14 \\\\ 3 \\end{matrix}";
        let row = "\\begin{pmatrix} \\frac14 & 3 \\end{pmatrix}";
        for m in [col, row] {
            for (p, want) in [
                ("[0.25, 3]", Equivalence::Equal),
                ("[1/4, 3]", Equivalence::Equal),
                ("[3, 0.25]", Equivalence::NotEqual),
                ("[0.25, 4]", Equivalence::NotEqual),
                // Open or half-open brackets are intervals, never vectors.
                ("[0.25, 3)", Equivalence::NotEqual),
            ] {
                assert_eq!(eq(m, p), want, "{m} vs {p}");
                assert_eq!(eq(p, m), want, "{p} vs {m}");
            }
        }
        // Two intervals and an interval against a tuple are unchanged.
        assert_eq!(eq("[0.25, 3]", "[\\frac14, 3]"), Equivalence::Equal);
        assert_eq!(eq("(\\frac14, 3)", "[0.25, 3]"), Equivalence::NotEqual);
    }

    #[test]
    fn collections_and_relations() {
        assert_eq!(eq("-2,1", "1, -2"), Equivalence::Equal);
        assert_eq!(eq("(1,3)", "\\{1,3\\}"), Equivalence::Equal);
        assert_eq!(eq("(3,1)", "\\{1,3\\}"), Equivalence::NotEqual);
        assert_eq!(eq("\\pm 2021", "\\{-2021, 2021\\}"), Equivalence::Equal);
        assert_eq!(eq("\\pm 2021", "2021"), Equivalence::NotEqual);
        assert_eq!(eq("[0,1)", "[0,1)"), Equivalence::Equal);
        assert_eq!(eq("(0,9)", "[0,9)"), Equivalence::NotEqual);
        assert_eq!(eq("x \\in [-2,7]", "-2 \\le x \\le 7"), Equivalence::Equal);
        assert_eq!(eq("-793 < a < 10", "(-793, 10)"), Equivalence::Equal);
        assert_eq!(eq("x < 1", "-x > -1"), Equivalence::Equal);
        assert_eq!(eq("x > 5", "x < 5"), Equivalence::NotEqual);
        assert_eq!(
            eq("2x+4y-3=0", "y=-\\frac{1}{2}x+\\frac{3}{4}"),
            Equivalence::Equal
        );
        assert_eq!(eq("x = 11", "x = 5+5+1 = 7 = 11"), Equivalence::Equal);
        assert_eq!(eq("7 = 11a+c", "11a+c"), Equivalence::NotEqual);
        assert_eq!(eq("k=1", "1"), Equivalence::Equal);
        assert_eq!(
            eq(
                "1\\leq|z|\\leq \\frac{3}{2}",
                "z \\in \\left[-\\frac{3}{2}, -1\\right] \\cup \\left[1, \\frac{3}{2}\\right]"
            ),
            Equivalence::Equal
        );
    }

    #[test]
    fn power_tower_is_undecided_and_over_budget() {
        let out = equivalent(
            "\\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}",
            "3",
            &EquivOptions::default(),
        );
        assert_eq!(out.result, Equivalence::Undecided);
        assert!(out.over_budget);
    }

    #[test]
    fn strict_mode_refuses_non_trivial_equalities() {
        let strict = EquivOptions {
            strict: true,
            ..EquivOptions::default()
        };
        assert_eq!(
            equivalent("649", "3245/5", &strict).result,
            Equivalence::NotEqual
        );
        assert_eq!(
            equivalent("649", "3245/5", &EquivOptions::default()).result,
            Equivalence::Equal
        );
        assert_eq!(
            equivalent("\\frac{1}{2}", "0.5", &strict).result,
            Equivalence::Equal
        );
        assert_eq!(equivalent("x+1", "1+x", &strict).result, Equivalence::Equal);
    }

    use proptest::prelude::*;

    /// A random expression as (LaTeX, value by a naive f64 evaluator at x = 1.5, y = 0.7).
    fn expr() -> impl Strategy<Value = (String, f64)> {
        let leaf = prop_oneof![
            (1i64..13).prop_map(|n| (n.to_string(), n as f64)),
            (1i64..10, 2i64..10)
                .prop_map(|(p, q)| (format!("\\frac{{{p}}}{{{q}}}"), p as f64 / q as f64)),
            Just(("x".to_string(), 1.5)),
            Just(("y".to_string(), 0.7)),
        ];
        leaf.prop_recursive(3, 24, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| (format!("{} + {}", a.0, b.0), a.1 + b.1)),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| (format!("{} - \\left({}\\right)", a.0, b.0), a.1 - b.1)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| (
                    format!("\\left({}\\right) \\cdot \\left({}\\right)", a.0, b.0),
                    a.1 * b.1
                )),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| (
                    format!("\\frac{{{}}}{{{}}}", a.0, b.0),
                    if b.1 == 0.0 { f64::NAN } else { a.1 / b.1 }
                )), // the engine refuses x/0, IEEE gives inf
                (inner.clone(), 2i32..4)
                    .prop_map(|(a, k)| (format!("\\left({}\\right)^{{{k}}}", a.0), a.1.powi(k))),
                inner
                    .clone()
                    // The oracle skips roots near zero: sqrt of a rounding residue (1e-16) is 1e-8.
                    .prop_map(|a| (
                        format!("\\sqrt{{{}}}", a.0),
                        if a.1 > 1e-6 { a.1.sqrt() } else { f64::NAN }
                    )),
            ]
        })
    }

    fn numeric_value(tex: &str) -> Option<f64> {
        let e = crate::latex::parse(tex, &ParseOptions::default()).ok()?;
        let mut env = Env::random(&[], &[], 1);
        env.vars.insert("x".into(), C::new(1.5, 0.0));
        env.vars.insert("y".into(), C::new(0.7, 0.0));
        numeric::eval(&e, &env).map(|c| c.re)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn evaluator_agrees_with_naive_evaluation((tex, v) in expr()) {
            prop_assume!(v.is_finite() && v.abs() < 1e12);
            let got = numeric_value(&tex).expect("generated expressions evaluate");
            prop_assert!((got - v).abs() <= 1e-9 * v.abs().max(1.0), "{} -> {} vs {}", tex, got, v);
        }

        #[test]
        fn equivalence_is_reflexive((tex, _) in expr()) {
            prop_assert_eq!(eq(&tex, &tex), Equivalence::Equal);
        }

        #[test]
        fn equivalence_is_symmetric((a, _) in expr(), (b, _) in expr()) {
            prop_assert_eq!(eq(&a, &b), eq(&b, &a));
        }

        #[test]
        fn reordering_sums_and_products_is_equal(terms in prop::collection::vec(expr(), 2..5), seed in any::<u64>()) {
            let mut shuffled = terms.clone();
            let mut state = seed;
            for i in (1..shuffled.len()).rev() {
                let j = (numeric::splitmix(&mut state) % (i as u64 + 1)) as usize;
                shuffled.swap(i, j);
            }
            let sum = |ts: &[(String, f64)]| ts.iter().map(|t| format!("\\left({}\\right)", t.0)).collect::<Vec<_>>().join(" + ");
            let prod = |ts: &[(String, f64)]| ts.iter().map(|t| format!("\\left({}\\right)", t.0)).collect::<Vec<_>>().join(" \\cdot ");
            prop_assert_ne!(eq(&sum(&terms), &sum(&shuffled)), Equivalence::NotEqual);
            prop_assert_ne!(eq(&prod(&terms), &prod(&shuffled)), Equivalence::NotEqual);
        }

        #[test]
        fn engine_never_panics(a in "\\PC{0,40}", b in "\\PC{0,40}") {
            let _ = equivalent(&a, &b, &EquivOptions::default());
        }
    }
}

mod policy_examples {
    //! Every example quoted in docs/policies.md (LaTeX equivalence), so the document stays true.
    use super::super::{equivalent, EquivOptions, Equivalence};

    fn check(g: &str, p: &str, want: Equivalence) {
        let got = equivalent(g, p, &EquivOptions::default()).result;
        assert_eq!(got, want, "{g} vs {p}");
        let back = equivalent(p, g, &EquivOptions::default()).result;
        assert_eq!(back, want, "{p} vs {g} (reversed)");
    }

    #[test]
    fn documented_examples() {
        use Equivalence::{Equal as E, NotEqual as N};
        for (g, p, want) in [
            ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}", N),
            ("\\sqrt{17}", "4.123105625617661", E),
            ("16386.16", "16386.164", E),
            ("2.232", "2.23", N),
            ("\\frac{279}{125}", "2.232", E),
            ("0.066666793", "0.0666668", E),
            ("\\frac13", "0.33", E),
            ("\\frac13", "0.3", N),
            ("0.25", "0.3", N),
            ("10{,}000", "9999.857142857143", N),
            ("11,\\! 111", "11111", E),
            ("32, 349", "32349", N),
            ("12\\frac{3}{5}", "\\frac{63}{5}", E),
            ("1 3/4", "\\frac{7}{4}", E),
            ("2\\frac{5}{3}", "\\frac{10}{3}", E),
            ("\\frac94\\pi", "\\frac{9}{4}\\pi", E),
            ("28 percent", "28\\%", E),
            ("15\\mbox{ cm}^2", "15", E),
            ("30^\\circ", "30", E),
            ("\\text{13}", "13", E),
            ("\\text{(C)}", "C", E),
            ("\\text{Even}", "Even", E),
            ("\\text{E}", "d", N),
            ("\\{1\\pm\\sqrt5,-2\\}", "-2, 1+\\sqrt5, 1-\\sqrt{5}", E),
            ("21,16 \\text{ or } 11", "21,16,11", E),
            ("1331, 1728", "1728", N),
            ("(3,2)", "(2,3)", N),
            ("1 \\pm \\sqrt{19}", "1+\\sqrt{19}, 1-\\sqrt{19}", E),
            ("p=5,q=2; p=7,q=2", "(5,2),(7,2)", E),
            ("\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(1,2)", E),
            ("\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}+\\begin{pmatrix}5 & 6\\\\7 & 8\\end{pmatrix}", "\\begin{pmatrix}6 & 8\\\\10 & 12\\end{pmatrix}", E),
            ("[0,1)", "(0,1)", N),
            ("[1,2] \\cup [2,3]", "[1,3]", E),
            ("\\{-1\\} \\cup [0,7)", "\\{-1\\} \\cup [0,7)", E),
            ("0 < f(x) < 1", "(0,1)", E),
            ("f(x) = 1", "1", E),
            ("|AB| = 1", "1", E),
            ("(p,q) = (3,2)", "(3,2)", E),
            ("\\frac{NO}{BO}=\\frac{1}{\\sqrt{6}}", "\\frac{1}{\\sqrt{6}}", E),
            ("1 = \\zzz = x = 0", "0", E),
            ("x = \\frac13 \\approx 0.33", "\\frac13", E),
            ("x \\approx 11", "11", E),
            ("\\frac{x^2}{4}+\\frac{y^2}{3}=1", "\\frac{x^2}{16}+\\frac{y^2}{12}=\\frac14", E),
            ("5 \\ge x", "x \\le 5", E),
            ("f(x)", "f(y)", N),
            ("\\sum_{k=0}^{n-1} F_k F_{n-k-1}", "\\sum_{k=0}^{n-1} F_{n-k-1} F_k", E),
            ("\\sqrt{1/n}", "\\frac{1}{\\sqrt n}", E),
            ("(1,000, 2)", "(1, 0, 2)", E),
            ("\\cos 60^\\circ", "\\frac12", E),
            ("\\sin(30°)", "0.5", E),
            ("0.\\overline{3}", "\\frac13", E),
            ("0.1\\overline{6}", "\\frac16", E),
            ("\\mathbb{R}", "(-\\infty, \\infty)", E),
            ("x \\ne 3", "(-\\infty, 3) \\cup (3, \\infty)", E),
            // Unicode vulgar fractions, alone and in a mixed number (issue 33).
            ("0.5", "½", E),
            ("\\frac32", "1½", E),
            ("\\frac12", "1½", N),
            ("\\frac{2}{3}", "⅔", E),
            // A percent with decimals keeps its written precision (issue 33).
            ("\\frac13", "33.3\\%", E),
            ("\\frac13", "33.33\\%", E),
            ("\\frac13", "33.4\\%", N),
            ("\\frac13", "33\\%", N),
            // An integer parameter's range is no part of the value (issue 33).
            (
                "\\frac{\\pi}{4}+k\\pi",
                "\\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}",
                E,
            ),
            (
                "\\frac{\\pi}{4}+k\\pi, k \\in \\mathbb{Z}",
                "\\frac{\\pi}{4} + k\\pi",
                E,
            ),
            (
                "\\frac{\\pi}{4}+k\\pi",
                "\\frac{\\pi}{4} + 2k\\pi, k \\in \\mathbb{Z}",
                N,
            ),
        ] {
            check(g, p, want);
        }
    }

    #[test]
    fn long_sums_reordered_are_equal() {
        // math-verify times out (5 s) on this and returns a false negative.
        let terms: Vec<String> = (1..=300).map(|i| format!("x_{{{i}}}^{{{i}}}")).collect();
        let a = terms.join(" + ");
        let b = terms.iter().rev().cloned().collect::<Vec<_>>().join(" + ");
        assert_eq!(
            equivalent(&a, &b, &EquivOptions::default()).result,
            Equivalence::Equal
        );
    }

    #[test]
    fn equations_are_read_by_direction() {
        // A gold equation is the answer; a predicted one counts by its constant right side.
        let o = EquivOptions::default();
        assert_eq!(
            equivalent("2x+z = 1", "1", &o).result,
            Equivalence::NotEqual
        );
        assert_eq!(equivalent("1", "2x+z = 1", &o).result, Equivalence::Equal);
        assert_eq!(
            equivalent("10/9", "\\frac{1}{2} \\$ = \\frac{10}{9}", &o).result,
            Equivalence::Equal
        );
    }

    #[test]
    fn strict_examples() {
        let strict = EquivOptions {
            strict: true,
            ..EquivOptions::default()
        };
        assert_eq!(
            equivalent("x^2-1", "(x-1)(x+1)", &strict).result,
            Equivalence::NotEqual
        );
        assert_eq!(
            equivalent("1000", "1{,}000", &strict).result,
            Equivalence::Equal
        );
        assert_eq!(equivalent("x = 5", "5", &strict).result, Equivalence::Equal);
    }
}
