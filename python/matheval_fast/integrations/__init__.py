"""matheval_fast inside the frameworks people evaluate and train with, one import away.

Each module is the scorer in one framework, with that framework's call contract:

- :mod:`matheval_fast.integrations.trl`: ``accuracy_reward`` / ``reasoning_accuracy_reward``, GRPO
  reward functions with the contract of ``trl.rewards`` (TRL's ``GRPOTrainer``).
- :mod:`matheval_fast.integrations.verl`: ``compute_score`` (and ``compute_score_batch``) for verl's
  ``custom_reward_function``.
- :mod:`matheval_fast.integrations.inspect`: ``math_scorer()``, an Inspect AI ``@scorer``.
- :mod:`matheval_fast.integrations.lm_eval`: ``process_results`` and task YAMLs for
  lm-evaluation-harness (``python -m matheval_fast.integrations.lm_eval --path``).
- :mod:`matheval_fast.integrations.lighteval`: a ``SampleLevelMetric`` and custom tasks for lighteval.

``import matheval_fast`` imports none of them, and none of the frameworks: each framework is an
optional extra (``pip install "matheval-fast[trl]"``, ``[verl]``, ``[inspect]``, ``[lm-eval]``,
``[lighteval]``), imported only by the module that serves it. The TRL, verl and lm-eval modules import
nothing of their framework at all (lm-eval's is imported only to compute its stock metrics).
"""

from __future__ import annotations

__all__: list[str] = []
