//! Inputs shared by the Rust benches (a module of each bench, not a bench of its own).

/// GSM8K-style (response, gold) pairs as `benches/compare_gsm8k.py` makes them: the 1,319 reference
/// solutions of `data/answer_check/gsm8k_xwin.json`, each followed by "The answer is: <gold>."
pub fn gsm8k_pairs() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/answer_check/gsm8k_xwin.json"
    ))
    .expect("bundled GSM8K data");
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).expect("valid JSON");
    items
        .iter()
        .map(|it| {
            let field = |k: &str| it[k].as_str().unwrap_or("").to_string();
            let answer = field("answer");
            (
                format!("{}\nThe answer is: {answer}.", field("solution")),
                answer,
            )
        })
        .collect()
}
