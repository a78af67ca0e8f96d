"""Make the lighteval *flat-layout* fixture (lighteval <= 0.9) from the current-layout one.

lighteval up to 0.9 saved one flat row per sample (``DetailsLogger.Detail``: ``example``, ``full_prompt``,
``predictions``, ``gold``, ``metrics``, ``specifics``, ``choices``, ``gold_index``, token lists, ...). This
script rebuilds those rows with lighteval 0.8.1's own ``Detail`` class from the details of
make_lighteval.py's run and saves them with 0.8.1's own ``EvaluationTracker.save()``:

    /tmp/venv-lighteval/bin/pip install --no-deps --target /tmp/lighteval081 lighteval==0.8.1
    PYTHONPATH=/tmp/lighteval081 /tmp/venv-lighteval/bin/python scripts/log_fixtures/make_lighteval_flat.py

Values come from the current-layout run: ``predictions`` = ``model_response.text``, ``gold`` =
``doc.choices[gold_index]`` (what 0.8.1's ``doc.get_golds()`` returns), ``metrics`` = ``metric`` (scored by
lighteval 0.13), ``specifics`` = ``doc.specific``, ``example`` = ``doc.query``. Only tasks whose rows all
have a ``doc.specific`` (gsm8k here) are converted: 0.8.1's save() fails on an all-empty ``specifics``
struct.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests/data/logs/lighteval/details"
OUT = ROOT / "tests/data/logs/lighteval_flat"


def main() -> None:
    from importlib.metadata import version

    import pyarrow.parquet as pq
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.logging.info_loggers import DetailsLogger

    assert version("lighteval") == "0.8.1", f"run with lighteval 0.8.1, not {version('lighteval')}"
    work = Path(tempfile.mkdtemp(prefix="lighteval-flat-"))
    tracker = EvaluationTracker(output_dir=str(work), save_details=True)
    tracker.general_config_logger.model_name = "canned/gsm8k-math-flat"
    for f in sorted(SRC.glob("*/*/*/details_*.parquet")):
        task = f.name[len("details_") :].rsplit("_", 1)[0]
        rows = pq.read_table(f).to_pylist()
        if not all(r["doc"]["specific"] for r in rows):
            # 0.8.1's save() cannot write an all-empty `specifics` struct with pyarrow >= 15; skip such tasks.
            continue
        for row in rows:
            doc, resp = row["doc"], row["model_response"]
            gi = doc["gold_index"]
            golds = [doc["choices"][i] for i in (gi if isinstance(gi, list) else [gi])]
            d = DetailsLogger.Detail(
                example=doc["query"],
                instruction=doc["instruction"] or "",
                full_prompt=doc["query"],
                num_effective_few_shots=0,
                num_asked_few_shots=0,
                predictions=list(resp["text"]),
                gold=golds,
                choices=[],
                gold_index=[],
                metrics=dict(row["metric"]),
                specifics=dict(doc["specific"] or {}),
            )
            tracker.details_logger.details[f"lighteval|{task}"].append(d)
    tracker.save()
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(work, OUT)
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
