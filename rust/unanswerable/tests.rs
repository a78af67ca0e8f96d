#![allow(clippy::needless_range_loop)] // parallel arrays indexed together read clearer by index
//! Tests of the whole protocol: probe vectors, presets, metrics by hand.

use super::*;

#[derive(Deserialize)]
struct Probe {
    text: String,
    cut_sentence: Vec<String>,
    var_expressions_hunspell: Vec<String>,
}

#[derive(Deserialize)]
struct Probes {
    vectors: Vec<Probe>,
}

#[test]
fn probe_vectors_hunspell_column_reproduced() {
    let p: Probes =
        serde_json::from_str(include_str!("../../data/umwp/math_expr_probe_vectors.json")).unwrap();
    assert_eq!(p.vectors.len(), 14);
    let opts = MathOptions::default();
    for v in &p.vectors {
        assert_eq!(
            split::split_stripped(&v.text, true),
            v.cut_sentence,
            "{}",
            v.text
        );
        let pieces = split::split_stripped(&v.text, true);
        let mut found: Vec<String> = split::last_items(&pieces, 3)
            .flat_map(|(_, item)| math::variable_expressions(item, &opts))
            .collect();
        found.sort();
        let mut want = v.var_expressions_hunspell.clone();
        want.sort();
        assert_eq!(found, want, "{}", v.text);
    }
}

fn umwp() -> Options {
    Options::preset(Preset::Umwp)
}

fn selfaware() -> Options {
    Options::preset(Preset::SelfAware)
}

#[test]
fn references_as_parsed_written_and_normalised() {
    let r = references(&umwp());
    assert_eq!(r.len(), 22);
    assert_eq!(
        r[10],
        "It is impossible to determine.It is difficult to predict."
    );
    let mut o = umwp();
    o.references = ReferenceSet::UmwpAsWritten;
    assert_eq!(references(&o).len(), 24);
    let s = references(&selfaware());
    assert_eq!(s.len(), 16);
    assert_eq!(s[15], "i'm not sure");
    assert_eq!(s[0], "the answer is unknown");
}

#[test]
fn prepare_dedups_windows_across_outputs() {
    let texts = ["The answer is 5.", "the answer is 5", "We do not know."];
    let p = prepare(&texts, &umwp()).unwrap();
    assert_eq!(p.queries, ["the answer is 5", "we do not know"]);
    assert_eq!(p.items[0].windows, [0]);
    assert_eq!(p.items[1].windows, [0]);
    assert_eq!(p.items[2].windows, [1]);
    assert_eq!(p.items[0].numbers, [5.0]);
}

#[test]
fn selfaware_precheck_empty_and_raw_pieces() {
    let o = selfaware();
    let texts = [
        "  ",
        "Honestly, THE ANSWER IS UNKNOWN!",
        "Paris. x",
        "a b c d e f g",
    ];
    let p = prepare(&texts, &o).unwrap();
    assert!(p.items[0].skipped);
    assert_eq!(p.items[1].substring, Some(0));
    assert!(p.items[1].windows.is_empty());
    // " x" has 2 characters before stripping: an empty query.
    let q: Vec<&str> = p.items[2]
        .windows
        .iter()
        .map(|&w| p.queries[w as usize].as_str())
        .collect();
    assert_eq!(q, ["paris", ""]);
    let q: Vec<&str> = p.items[3]
        .windows
        .iter()
        .map(|&w| p.queries[w as usize].as_str())
        .collect();
    assert_eq!(q, ["a b c d e", "b c d e f", "c d e f g"]);
    let d = decide(&p.items[0], &[], &o).unwrap();
    assert_eq!(d.decided_by, DecidedBy::SkippedEmpty);
    let d = decide(&p.items[1], &[], &o).unwrap();
    assert_eq!(d.decided_by, DecidedBy::Substring);
}

#[test]
fn decide_threshold_is_strict_and_math_rule_fires_after() {
    let o = umwp();
    let p = prepare(&["The answer is 7. I think so.", "The answer is 7."], &o).unwrap();
    let best = vec![0.75; p.queries.len()];
    let d = decide(&p.items[1], &best, &o).unwrap();
    assert!(!d.unanswerable);
    assert_eq!(d.decided_by, DecidedBy::NoTest);
    let d = decide(&p.items[0], &best, &o).unwrap();
    assert_eq!(d.decided_by, DecidedBy::MathExpression);
    assert_eq!(p.items[0].math.as_ref().unwrap().expression, "I");
    let best = vec![0.7500001; p.queries.len()];
    let d = decide(&p.items[1], &best, &o).unwrap();
    assert_eq!(d.decided_by, DecidedBy::Similarity);
    assert!(decide(&p.items[1], &[], &o).is_err());
    // No windows at all: the scripts' similarities = [0].
    let p = prepare(&[""], &o).unwrap();
    let d = decide(&p.items[0], &[], &o).unwrap();
    assert_eq!((d.score, d.unanswerable), (0.0, false));
}

#[test]
fn math_rule_sees_only_last_three_items() {
    let o = umwp();
    let p = prepare(
        &["Let x be the unknown. Then 2x + 3 is the total. The answer is 9."],
        &o,
    )
    .unwrap();
    assert!(p.items[0].math.is_none());
    let p = prepare(&["The answer is 9. Let x be it"], &o).unwrap();
    assert_eq!(p.items[0].math.as_ref().unwrap().item_from_end, 0);
}

#[test]
fn umwp_acc_and_confusion_by_hand() {
    let o = umwp();
    let texts = [
        "So 3 + 4 = 7.\nThe answer is 7.",      // answerable, gold 7: hit
        "The answer is 3.5.", // answerable, gold 3.5: the splitter breaks the decimal, no hit
        "We are not given enough information.", // unanswerable, U by similarity (score 0.9)
        "The answer is 12.",  // unanswerable, not U: FN
        "x is 4.",            // answerable, U by math: FP, no Acc
    ];
    let p = prepare(&texts, &o).unwrap();
    let mut best = vec![0.1; p.queries.len()];
    let q = p
        .queries
        .iter()
        .position(|q| q == "we are not given enough information")
        .unwrap();
    best[q] = 0.9;
    let golds = [
        Gold::Number(7.0),
        Gold::Number(3.5),
        Gold::None,
        Gold::None,
        Gold::Number(4.0),
    ];
    let ans = [true, true, false, false, true];
    let mut c = Counts::default();
    let mut cells = Vec::new();
    for i in 0..texts.len() {
        let d = decide(&p.items[i], &best, &o).unwrap();
        let out = metrics::outcome(&p.items[i], &d, ans[i], golds[i], texts[i], o.acc);
        cells.push(out.cell());
        c.add(&out);
    }
    assert_eq!(cells, ["tn", "tn", "tp", "fn", "fp"]);
    // ".", "5", "." joined last-first: the 3 is not among the last three items.
    assert_eq!(p.items[1].numbers, [5.0]);
    assert_eq!(
        (c.tp, c.fp, c.fn_, c.tn, c.acc_hits, c.answerable),
        (1, 1, 1, 2, 1, 3)
    );
    let m = c.metrics();
    assert_eq!((m.precision, m.recall, m.f1), (0.5, 0.5, 0.5));
    assert!((m.acc - 1.0 / 3.0).abs() < 1e-15);
    assert_eq!(Counts::default().metrics(), Metrics::default());
}

#[test]
fn selfaware_acc_ignores_prediction_and_skips_empty() {
    let o = selfaware();
    let texts = ["It is Paris, i'm not sure.", ""];
    let p = prepare(&texts, &o).unwrap();
    let aliases = vec![" PARIS ".to_string()];
    let mut c = Counts::default();
    for i in 0..2 {
        let d = decide(&p.items[i], &[], &o).unwrap();
        c.add(&metrics::outcome(
            &p.items[i],
            &d,
            true,
            Gold::Aliases(&aliases),
            texts[i],
            o.acc,
        ));
    }
    assert_eq!((c.fp, c.skipped, c.acc_hits, c.answerable), (1, 1, 1, 2));
    assert_eq!(c.metrics().acc, 0.5);
}

#[test]
fn options_validate_and_names() {
    let mut o = umwp();
    o.window = 0;
    assert!(prepare(&["x"], &o).is_err());
    assert_eq!("selfaware".parse::<Preset>(), Ok(Preset::SelfAware));
    assert!("nope".parse::<ReferenceSet>().is_err());
}

#[test]
fn a_megabyte_output_is_linear() {
    let big = "so x is 5 and y is 6 ".repeat(50_000);
    let p = prepare(&[big.as_str()], &umwp()).unwrap();
    assert!(p.items[0].math.is_some());
    assert!(p.queries.len() < 20);
}

/// The chunked prepare (local dedup, piece reuse, merge, id rewrite) equals analysing every output
/// alone and deduplicating its windows in first-seen order, for both presets and many chunks.
#[test]
fn chunked_prepare_equals_a_plain_loop() {
    let mut texts = Vec::new();
    for i in 0..3000u32 {
        let q = [
            "The answer is 5.",
            "We do not know the value of x.",
            "Tom has 3.5 apples!",
        ];
        texts.push(format!(
            "Step {}. {}\n{} I hope this helps! {}",
            i % 7,
            q[(i % 3) as usize],
            q[((i / 3) % 3) as usize],
            if i % 11 == 0 { " x " } else { "Ok" }
        ));
    }
    texts.push(String::new());
    for opts in [umwp(), selfaware()] {
        let p = prepare(&texts, &opts).unwrap();
        let refs = references(&opts);
        let mut queries: Vec<String> = Vec::new();
        for (t, got) in texts.iter().zip(&p.items) {
            let mut w = split::Windows::default();
            let mut a = analyse(t, &refs, &opts, &mut w);
            a.windows = w
                .iter()
                .map(|s| match queries.iter().position(|q| q == s) {
                    Some(q) => q as u32,
                    None => {
                        queries.push(s.to_string());
                        (queries.len() - 1) as u32
                    }
                })
                .collect();
            assert_eq!(&a, got, "{t:?}");
        }
        assert_eq!(p.queries, queries);
    }
}

#[test]
fn acc_numbers_read_every_unicode_decimal_digit_as_python_float_does() {
    // float("１２") == 12.0, float("-٣٥") == -35.0, float("𝟗") == 9.0 (mathematical bold nine); a
    // "." splits the text before numbers are read, as in the script
    assert_eq!(super::numbers("The answer is １２"), vec![12.0]);
    assert_eq!(super::numbers("so x = -٣٥ here"), vec![-35.0]);
    assert_eq!(super::numbers("digits ४२ and 𝟗"), vec![42.0, 9.0]);
    assert_eq!(super::numbers("plain 7 and 12"), vec![7.0, 12.0]);
}
