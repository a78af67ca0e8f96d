//! The seed tool's algorithm, quirks included (`compat="xwin"`).
