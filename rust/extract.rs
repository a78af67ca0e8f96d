//! Final-answer extraction (fixed mode). See docs/policies.md.
