//! The one error type of the core. The binding layer maps each variant to one Python
//! exception (see `python/errors.rs`); the mapping is exhaustive, so a new variant will not
//! compile until it has a Python counterpart.

use std::fmt;

/// Errors for *misuse* (bad arguments, bad config, bad shapes). Bad *data* (an unparseable
/// answer) is never an error: it is a verdict with a reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Text that had to parse did not; `position` is a 0-based character offset.
    Parse { message: String, position: usize },
    /// An argument has a value outside its domain (unknown mode name, negative size, ...).
    InvalidValue(String),
    /// Inputs whose lengths or shapes must agree do not.
    Shape(String),
    /// A configuration file or object is malformed.
    Config(String),
    /// A statistic is undefined for the given input (too few values, all tied, non-finite).
    Domain(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { message, position } => write!(f, "{message} at position {position}"),
            Error::InvalidValue(m) | Error::Shape(m) | Error::Config(m) | Error::Domain(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_error_names_position() {
        let e = Error::Parse {
            message: "unexpected '}'".into(),
            position: 7,
        };
        assert_eq!(e.to_string(), "unexpected '}' at position 7");
    }
}
