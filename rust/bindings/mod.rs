//! The PyO3 layer (feature `python`) that builds `matheval_fast._core`. It mirrors the core one
//! module to one file (`check.rs` binds `crate::check`, `stats.rs` binds `crate::stats`, ...) and
//! only converts arguments, copies inputs, releases the GIL, calls the core and maps errors
//! (`error.rs`, exhaustively). `convert.rs` holds the argument conversion they share.
//!
//! Adding a protocol: a file `<module>.rs` with a `register(m)` function, and one line in
//! [`_core`] below.

use pyo3::prelude::*;

mod batch;
mod check;
mod config;
mod convert;
mod equiv;
mod error;
mod latex;
mod records;
mod stats;
mod unanswerable;
mod verdict;

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "build_profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    // Every binding module, in one place.
    error::register(m)?;
    verdict::register(m)?;
    config::register(m)?;
    check::register(m)?;
    batch::register(m)?;
    equiv::register(m)?;
    latex::register(m)?;
    stats::register(m)?;
    records::register(m)?;
    unanswerable::register(m)?;
    Ok(())
}
