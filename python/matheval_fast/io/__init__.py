"""Reading and writing evaluation data.

- :mod:`matheval_fast.io.logs`: readers of the per-sample logs evaluation frameworks write
  (lm-evaluation-harness, lighteval, OpenCompass, Qwen2.5-Math / math-evaluation-harness, the
  seed's JSON), each streaming record batches with one normalised schema.
"""
