//! 800 real Qwen2.5-Math responses to MATH problems: the engine on Qwen's extracted answer
//! against the gold, compared with the majority verdict of the four recorded graders (Qwen's
//! grader, math-verify on the full response and on the extracted answer, PRM800K's grader).
//! Target: at least 799/800 agreement and under 3 % undecided (those would go to SymPy).

use _core::equiv::{equivalent, EquivOptions, Equivalence};
use serde_json::Value;

#[test]
fn qwen_responses_agree_with_grader_consensus() {
    let text =
        std::fs::read_to_string("data/answer_check/qwen25math_math_cot_100_graded.jsonl").unwrap();
    let rows: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 800);
    let cols = [
        "qwen_grader_verdict",
        "math_verify_0_9_0_full_response",
        "math_verify_0_9_0_on_qwen_extracted",
        "prm800k_grade_answer_on_qwen_extracted",
    ];
    let opts = EquivOptions::default();
    let (mut agree, mut undecided) = (0, 0);
    let mut disagreements = Vec::new();
    for r in &rows {
        let votes = cols.iter().filter(|c| r[**c].as_bool().unwrap()).count();
        let consensus = votes * 2 > cols.len();
        let gold = r["gold"].as_str().unwrap();
        let pred = r["qwen_extracted"].as_str().unwrap();
        let out = equivalent(gold, pred, &opts);
        match out.result {
            Equivalence::Undecided => undecided += 1,
            res if (res == Equivalence::Equal) == consensus => agree += 1,
            _ => disagreements.push(format!("gold={gold:?} pred={pred:?} consensus={consensus}")),
        }
    }
    eprintln!(
        "qwen 800: {agree}/800 agree with the consensus, {undecided} undecided ({:.2}%)",
        undecided as f64 / 8.0
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(agree >= 799, "{agree}/800");
    assert!(undecided * 100 < 3 * rows.len());
}

#[test]
fn power_tower_is_undecided_over_budget() {
    // math-verify issue #65: this never returns there.
    let out = equivalent(
        "\\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}",
        "\\boxed{1}",
        &EquivOptions::default(),
    );
    assert_eq!(out.result, Equivalence::Undecided);
    assert!(out.over_budget);
}
