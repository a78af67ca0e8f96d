"""The test suite as a regular package, so ``tests.reference`` and ``tests.judge_support`` always mean
these modules: some distributions (spylls, a test dependency) install a top-level ``tests`` package
into site-packages, which would otherwise shadow this folder."""
