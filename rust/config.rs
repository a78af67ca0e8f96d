//! The seed's `eval_config.json`: anchor phrases and a per-dataset-type policy table.
//! Config values are data: function names are looked up in a fixed table, never executed.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::verdict::{EvalPolicy, ExtractPolicy, Kind};

/// One row of the policy table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypePolicy {
    pub kind: Kind,
    pub extract_policy: ExtractPolicy,
    pub eval_policy: EvalPolicy,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub extract_pattern: Vec<String>,
    /// Keyed by dataset type ("GSM8K", "MATH", ...); "default" for every other type.
    pub policy: BTreeMap<String, TypePolicy>,
}

#[derive(Deserialize)]
struct RawPolicy {
    function: String,
    extract_policy: String,
    eval_policy: String,
}

#[derive(Deserialize)]
struct RawConfig {
    extract_pattern: Vec<String>,
    policy: BTreeMap<String, RawPolicy>,
}

impl Config {
    /// The seed tool's shipped configuration, parsed once per process.
    pub fn seed() -> &'static Config {
        static SEED: OnceLock<Config> = OnceLock::new();
        SEED.get_or_init(|| Config::from_json(SEED_CONFIG).expect("the bundled seed config parses"))
    }

    /// Parse the seed's JSON format. Unknown function names are an error, not a lookup.
    pub fn from_json(text: &str) -> Result<Config> {
        let raw: RawConfig = serde_json::from_str(text)
            .map_err(|e| Error::Config(format!("eval config is not valid: {e}")))?;
        let mut policy = BTreeMap::new();
        for (ty, p) in raw.policy {
            let kind = match p.function.as_str() {
                "simple_answer_check" => Kind::Simple,
                "latex_answer_check" => Kind::Latex,
                other => {
                    return Err(Error::Config(format!(
                        "policy {ty:?}: function must be \"simple_answer_check\" or \"latex_answer_check\", got {other:?}"
                    )))
                }
            };
            let extract_policy = p
                .extract_policy
                .parse()
                .map_err(|e: Error| Error::Config(format!("policy {ty:?}: {e}")))?;
            let eval_policy: EvalPolicy = p
                .eval_policy
                .parse()
                .map_err(|e: Error| Error::Config(format!("policy {ty:?}: {e}")))?;
            let fits = match kind {
                Kind::Latex => matches!(
                    eval_policy,
                    EvalPolicy::Aggressive | EvalPolicy::Conservative
                ),
                _ => matches!(
                    eval_policy,
                    EvalPolicy::Strict | EvalPolicy::ModelIncludeGt | EvalPolicy::GtIncludeModel
                ),
            };
            if !fits {
                return Err(Error::Config(format!(
                    "policy {ty:?}: eval_policy {:?} does not belong to {}",
                    eval_policy.as_str(),
                    p.function
                )));
            }
            policy.insert(
                ty,
                TypePolicy {
                    kind,
                    extract_policy,
                    eval_policy,
                },
            );
        }
        if raw.extract_pattern.iter().any(String::is_empty) {
            return Err(Error::Config(
                "extract_pattern must not contain an empty string".into(),
            ));
        }
        Ok(Config {
            extract_pattern: raw.extract_pattern,
            policy,
        })
    }

    /// The policy row for a dataset type, falling back to "default", then to the simple checker.
    pub fn for_type(&self, ty: &str) -> TypePolicy {
        self.policy
            .get(ty)
            .or_else(|| self.policy.get("default"))
            .cloned()
            .unwrap_or(TypePolicy {
                kind: Kind::Simple,
                extract_policy: ExtractPolicy::Flex,
                eval_policy: EvalPolicy::Strict,
            })
    }
}

/// Same content as the seed's `eval_config.json` (data/answer_check/eval_config_xwin.json).
pub const SEED_CONFIG: &str = r#####"{
    "extract_pattern": ["####", "The answer is: ", "The answer is"],
    "policy": {
        "GSM8K": {"function": "simple_answer_check", "extract_policy": "flex", "eval_policy": "strict"},
        "MATH": {"function": "latex_answer_check", "extract_policy": "flex", "eval_policy": "aggressive"},
        "Kushman": {"function": "simple_answer_check", "extract_policy": "flex", "eval_policy": "model_include_gt"},
        "Dolphin": {"function": "simple_answer_check", "extract_policy": "flex", "eval_policy": "model_include_gt"},
        "default": {"function": "simple_answer_check", "extract_policy": "flex", "eval_policy": "strict"}
    }
}"#####;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_config_has_five_rows() {
        let c = Config::seed();
        assert_eq!(
            c.extract_pattern,
            ["####", "The answer is: ", "The answer is"]
        );
        assert_eq!(c.for_type("MATH").kind, Kind::Latex);
        assert_eq!(c.for_type("SVAMP").eval_policy, EvalPolicy::Strict);
        assert_eq!(
            c.for_type("Kushman").eval_policy,
            EvalPolicy::ModelIncludeGt
        );
    }

    #[test]
    fn function_names_are_not_code() {
        let bad = r#"{"extract_pattern": [], "policy": {"x": {"function": "__import__('os')", "extract_policy": "flex", "eval_policy": "strict"}}}"#;
        assert!(matches!(Config::from_json(bad), Err(Error::Config(_))));
    }
}
