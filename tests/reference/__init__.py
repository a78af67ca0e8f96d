"""Slow reference re-implementations used as test oracles (never imported by the library)."""
