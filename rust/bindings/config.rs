//! Bindings for `crate::config`: the seed's `eval_config.json`, parsed once into a frozen
//! `EvalConfig` whose per-type lookup is the core's.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::error::to_pyerr;
use crate::config::{Config, TypePolicy, SEED_CONFIG};

/// The seed's ``eval_config.json``: anchor phrases (``extract_pattern``) and a policy per dataset
/// type (``"GSM8K"``, ``"MATH"``, ..., ``"default"``). Function names in the file are looked up in
/// a fixed table, never executed. Build one with :meth:`from_json` or :meth:`seed`, or with
/// :func:`matheval_fast.load_config`; immutable and comparable.
#[pyclass(frozen, eq, module = "matheval_fast._core", name = "EvalConfig")]
#[derive(PartialEq)]
pub struct EvalConfig {
    config: Config,
}

fn policy_tuple(p: &TypePolicy) -> (&'static str, &'static str, &'static str) {
    (
        p.kind.as_str(),
        p.extract_policy.as_str(),
        p.eval_policy.as_str(),
    )
}

#[pymethods]
impl EvalConfig {
    /// Parse the seed's JSON format. Raises ``ConfigError`` naming what is wrong (invalid JSON, an
    /// unknown function or policy name, a policy that does not fit its function).
    #[staticmethod]
    #[pyo3(signature = (text, /))]
    fn from_json(text: &str) -> PyResult<Self> {
        Ok(EvalConfig {
            config: Config::from_json(text).map_err(to_pyerr)?,
        })
    }

    /// The seed tool's shipped configuration (``SEED_CONFIG_JSON``).
    #[staticmethod]
    fn seed() -> Self {
        EvalConfig {
            config: Config::seed().clone(),
        }
    }

    /// The anchor phrases, in order.
    #[getter]
    fn extract_pattern<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.config.extract_pattern)
    }

    /// ``{type: (kind, extract_policy, eval_policy)}`` as written in the file (a new dict).
    #[getter]
    fn policy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (ty, p) in &self.config.policy {
            d.set_item(ty, policy_tuple(p))?;
        }
        Ok(d)
    }

    /// ``(kind, extract_policy, eval_policy)`` for a dataset type: its row, else the
    /// ``"default"`` row, else ``("simple", "flex", "strict")``. ``None`` asks for the default.
    #[pyo3(signature = (type_name, /))]
    fn for_type(&self, type_name: Option<&str>) -> (&'static str, &'static str, &'static str) {
        policy_tuple(&self.config.for_type(type_name.unwrap_or("default")))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let patterns = self.extract_pattern(py)?.repr()?.to_string();
        let types: Vec<String> = self
            .config
            .policy
            .keys()
            .map(|k| PyString::new(py, k).repr().map(|r| r.to_string()))
            .collect::<PyResult<_>>()?;
        Ok(format!(
            "EvalConfig(extract_pattern={patterns}, types=[{}])",
            types.join(", ")
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EvalConfig>()?;
    m.add("SEED_CONFIG_JSON", SEED_CONFIG)?;
    Ok(())
}
