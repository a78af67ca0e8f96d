"""Drop-in APIs of other graders on matheval_fast's core.

- :mod:`matheval_fast.compat.math_verify`: math-verify's ``parse`` / ``verify`` (and its
  configuration classes), so a math-verify user switches with a one-line import change.
"""
