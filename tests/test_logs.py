"""Log readers: every framework fixture read against an independent pure-Python reading of the same
file (json / pyarrow row by row), bad input, detection, dotted paths, samples and golds unwrapped.

The fixtures in tests/data/logs were written by the frameworks themselves (see README.md there).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matheval_fast import _core
from matheval_fast.io.logs import (
    FORMATS,
    LogFormatError,
    MalformedRecordError,
    ReadOptions,
    detect_format,
    expand_paths,
    open_log,
)
from matheval_fast.io.logs.base import SCHEMA, gold_answer

LOGS = Path(__file__).parent / "data" / "logs"
LM = LOGS / "lm_eval" / "canned__gsm8k-math"
GSM = next(LM.glob("samples_gsm8k_local_*.jsonl"))
MINERVA = next((LOGS / "lm_eval_real").rglob("samples_minerva_math_prealgebra_local_*.jsonl"))
LIGHT = next((LOGS / "lighteval").rglob("details_gsm8k_local*.parquet"))
LIGHT_FLAT = next((LOGS / "lighteval_flat").rglob("details_*.parquet"))
OC = next((LOGS / "opencompass_real").rglob("results/*/gsm8k.json"))
OC_OLD = next((LOGS / "opencompass_old").rglob("results/*/gsm8k.json"))
OC_FMT = next((LOGS / "opencompass_formatted").rglob("results/*/gsm8k.json"))
QWEN = next((LOGS / "qwen_math_real").rglob("math/test_*t0.7*.jsonl"))
SEED = Path(__file__).parents[1] / "data" / "samples" / "demo_responses.json"


def read_all(path, fmt=None, **kw):
    r = open_log(path, fmt, ReadOptions(**kw))
    batches = [b.batch for b in r.batches()]
    return r, pa.Table.from_batches(batches) if batches else None


def jsonl(path):
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


def reference_gsm8k_answer(gold: str) -> str:
    """The GSM8K rule written out plainly: the rest of the line after the last '####'."""
    if "####" not in gold:
        return gold
    rest = gold.rsplit("####", 1)[1].lstrip(" \t")
    if not rest[:1] or not (rest[0].isdigit() or rest[0] in "-+$\\.("):
        return gold
    return rest.split("\n", 1)[0].strip()


def test_detection_of_every_fixture():
    assert detect_format(GSM) == "lm_eval"
    assert detect_format(LIGHT) == "lighteval"
    assert detect_format(LIGHT_FLAT) == "lighteval"
    assert detect_format(OC) == detect_format(OC_OLD) == detect_format(OC_FMT) == "opencompass"
    assert detect_format(QWEN) == "qwen_math"
    assert detect_format(SEED) == "seed"


def test_unknown_format_says_what_was_tried(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"question": "q", "answer": "1"}\n')
    with pytest.raises(LogFormatError) as e:
        detect_format(p)
    msg = str(e.value)
    for name in FORMATS:
        assert f"  {name}: " in msg
    assert "'doc_id', 'resps'" in msg  # lm-eval's reason names what is missing
    with pytest.raises(LogFormatError, match="not a lighteval log: not a Parquet file"):
        open_log(GSM, "lighteval")
    with pytest.raises(ValueError, match="unknown log format"):
        open_log(GSM, "nope")


def test_missing_and_directory_inputs_fail_up_front(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        open_log(tmp_path / "absent.jsonl")
    with pytest.raises(IsADirectoryError):
        open_log(tmp_path)
    with pytest.raises(FileNotFoundError, match="no evaluation log found"):
        expand_paths([tmp_path])
    found = expand_paths([LOGS])
    assert GSM in found and LIGHT in found and OC in found and QWEN in found
    assert not any(f.name.startswith("results_") for f in found)


def test_lm_eval_rows_match_a_plain_json_reading():
    r, t = read_all(GSM)
    ref = jsonl(GSM)
    assert t.schema.names[: len(SCHEMA)] == SCHEMA.names
    assert t.num_rows == len(ref) == 24  # 12 docs x 2 filters, one line each
    rows = t.to_pylist()
    for line_no, (row, rec) in enumerate(zip(rows, ref, strict=True), 1):
        assert row["id"] == str(rec["doc_id"])
        assert row["position"] == line_no
        assert row["filter"] == rec["filter"]
        assert row["response"] == rec["resps"][0][0]
        assert row["gold"] == reference_gsm8k_answer(rec["target"]) == rec["doc"]["answer"].split("#### ")[1]
        assert row["fw_score"] == rec["exact_match"] == row["metric:exact_match"]
        assert row["fw_extracted"] == rec["filtered_resps"][0]
        assert row["task"] == "gsm8k_local" and row["model"] == "canned__gsm8k-math"
    assert r.info["primary_metric"] == "exact_match"
    assert r.malformed_count == 0


def test_lm_eval_filter_none_is_no_extraction():
    # minerva_math logs the whole response as filtered_resps: the framework's extraction is unknown.
    _, t = read_all(MINERVA)
    assert t.column("fw_extracted").null_count == t.num_rows
    assert set(t.schema.names) >= {"metric:exact_match", "metric:math_verify"}


def test_dotted_paths_and_id_fields():
    _, t = read_all(GSM, gold_field="doc.answer", id_fields=("doc.question", "doc_hash"))
    ref = jsonl(GSM)
    assert t.column("gold").to_pylist() == [reference_gsm8k_answer(r["doc"]["answer"]) for r in ref]
    assert t.column("doc.question").to_pylist() == [r["doc"]["question"] for r in ref]
    assert t.column("doc_hash").to_pylist() == [r["doc_hash"] for r in ref]
    with pytest.raises(ValueError, match="no metric 'nope'"):
        open_log(GSM, options=ReadOptions(metric="nope"))


def test_lists_are_unwrapped_never_stringified(tmp_path):
    lines = [
        {
            "doc_id": 0,
            "doc": {},
            "target": "18",
            "resps": [["a 18", "b 17", "c 18"]],
            "filtered_resps": ["18"],
            "filter": "maj",
            "metrics": ["exact_match"],
            "exact_match": 1.0,
        },
        {
            "doc_id": 1,
            "doc": {},
            "target": "5",
            "resps": [[]],
            "filtered_resps": [],
            "filter": "maj",
            "metrics": ["exact_match"],
            "exact_match": 0.0,
        },
    ]
    p = tmp_path / "samples_t_2024-01-01T00-00-00.000000.jsonl"
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    _, first = read_all(p)
    assert first.column("response").to_pylist() == ["a 18", None]
    _, every = read_all(p, samples="all")
    assert every.column("response").to_pylist() == ["a 18", "b 17", "c 18", None]
    assert every.column("sample").to_pylist() == [0, 1, 2, 0]
    assert every.column("n_samples").to_pylist() == [3, 3, 3, 0]
    assert every.column("id").to_pylist() == ["0", "0", "0", "1"]


def test_malformed_lines_are_reported_counted_and_skipped(tmp_path):
    src = GSM.read_text(encoding="utf-8").splitlines(keepends=True)
    bad = [*src[:3], "{not json\n", '{"doc_id": 99, "target": "1"}\n', "\n", *src[3:]]
    p = tmp_path / "samples_gsm8k_local_2024-01-01T00-00-00.000000.jsonl"
    p.write_text("".join(bad), encoding="utf-8")
    r, t = read_all(p)
    assert t.num_rows == 24
    assert r.malformed_count == 2
    assert [(m.position, m.unit) for m in r.malformed] == [(4, "line"), (5, "line")]
    assert "not valid JSON" in r.malformed[0].message and "resps.0" in r.malformed[1].message
    assert str(r.malformed[0]).startswith(f"{p}:line 4: ")
    # Lines after the bad ones keep their true numbers.
    assert t.column("position").to_pylist()[3] == 7
    with pytest.raises(MalformedRecordError, match=r":line 4: not valid JSON"):
        read_all(p, strict=True)


def test_gzip_and_small_chunks_read_the_same(tmp_path):
    _, plain = read_all(GSM)
    gz = tmp_path / (GSM.name + ".gz")
    with gzip.open(gz, "wb") as fh:
        fh.write(GSM.read_bytes())
    assert detect_format(gz) == "lm_eval"
    _, zipped = read_all(gz, chunk_bytes=1000)  # a chunk is smaller than one line
    assert zipped.drop(["model"]).to_pylist() == plain.drop(["model"]).to_pylist()


def test_python_nan_in_a_metric_is_null(tmp_path):
    line = GSM.read_text(encoding="utf-8").splitlines()[0]
    rec = json.loads(line)
    text = line.replace(f'"exact_match": {json.dumps(rec["exact_match"])}', '"exact_match": NaN')
    p = tmp_path / GSM.name
    p.write_text(text + "\n")
    r, t = read_all(p)
    assert r.malformed_count == 0 and t.column("fw_score").to_pylist() == [None]


def test_gold_answer_is_the_cores_rule():
    golds = ["a\n#### 18", "x #### Note", "18", None, "s\n####  -5  \nmore", "#### 1 #### 2,000", "####"]
    arr = pa.array(golds * 3, pa.large_string())
    for k in range(0, 9):
        got = gold_answer(arr.slice(k)).to_pylist()
        assert got == [None if g is None else reference_gsm8k_answer(g) for g in (golds * 3)[k:]]


def test_lighteval_current_layout():
    r, t = read_all(LIGHT)
    ref = pq.read_table(LIGHT).to_pylist()
    assert r.info["layout"] == "current" and r.info["model"] == "canned/gsm8k-math"
    assert t.num_rows == len(ref) == 12
    for row, rec in zip(t.to_pylist(), ref, strict=True):
        gold = rec["doc"]["choices"][rec["doc"]["gold_index"]]
        assert row["gold"] == reference_gsm8k_answer(gold)
        assert not row["gold"].startswith("[")  # never a stringified list
        assert row["response"] == rec["model_response"]["text"][0]
        assert row["id"] == rec["doc"]["id"]
        assert row["fw_score"] == rec["metric"]["extractive_match"]
        ex = rec["doc"]["specific"]["extracted_predictions"]
        assert row["fw_extracted"] == (ex[0] if ex else None)


def test_lighteval_flat_layout():
    r, t = read_all(LIGHT_FLAT)
    ref = pq.read_table(LIGHT_FLAT).to_pylist()
    assert r.info["layout"] == "flat"
    for i, (row, rec) in enumerate(zip(t.to_pylist(), ref, strict=True)):
        assert row["gold"] == reference_gsm8k_answer(rec["gold"][0]) and row["id"] == str(i)
        assert row["response"] == rec["predictions"][0]
        assert row["fw_score"] == rec["metrics"]["extractive_match"]


def test_lighteval_several_golds_are_alternatives(tmp_path):
    doc = {"query": "q", "choices": ["4", "four", "5"], "gold_index": [0, 1], "id": "x"}
    t = pa.table(
        {
            "doc": pa.array([doc, {**doc, "gold_index": [2], "id": "y"}]),
            "model_response": pa.array([{"text": ["The answer is four"]}, {"text": ["The answer is 5"]}]),
            "metric": pa.array([{"em": 1.0}, {"em": 1.0}]),
        }
    )
    p = tmp_path / "details_t_2024-01-01T00-00-00.000000.parquet"
    pq.write_table(t, p)
    _, got = read_all(p)
    assert got.column("gold").to_pylist() == ["4", "four", "5"]
    assert got.column("gold_alt").to_pylist() == [0, 1, 0]


def test_lighteval_loglikelihood_details_are_refused(tmp_path):
    t = pa.table({"predictions": [[-1.5, -2.0]], "gold": [["a"]], "metrics": [{"acc": 1.0}]})
    p = tmp_path / "details_mmlu_2024-01-01T00-00-00.000000.parquet"
    pq.write_table(t, p)
    with pytest.raises(LogFormatError, match="not text: not a generative task"):
        read_all(p)


def test_opencompass_layouts():
    r, t = read_all(OC)
    preds = json.loads(next((LOGS / "opencompass_real").rglob("predictions/*/gsm8k.json")).read_text())
    res = json.loads(OC.read_text())
    n = len(res["details"])
    # GSM8K outputs cut at the next "Question:", as OpenCompass's gsm8k_postprocess cuts them
    cut = [preds[str(i)]["prediction"].split("Question:")[0] for i in range(n)]
    assert r.info["response_source"] == "predictions file"
    assert t.column("response").to_pylist() == cut
    assert t.column("fw_extracted").to_pylist() == [d["pred"][0] for d in res["details"]]
    assert t.column("fw_score").to_pylist() == [float(d["correct"][0]) for d in res["details"]]
    assert t.column("id").to_pylist() == [d["example_abbr"] for d in res["details"]]
    r_old, old = read_all(OC_OLD)
    assert r_old.info["response_source"] == "extracted"
    assert old.column("response").to_pylist() == [d["pred"][0] for d in res["details"]]
    _, fmt = read_all(OC_FMT)
    assert fmt.column("response").to_pylist() == cut
    assert fmt.column("gold").to_pylist() == old.column("gold").to_pylist()


def test_opencompass_broken_json_reports_the_line(tmp_path):
    text = OC_OLD.read_text()
    cut = text.index('"pred"', text.index('"pred"') + 1)
    p = tmp_path / "results" / "m" / "gsm8k.json"
    p.parent.mkdir(parents=True)
    p.write_text(text[:cut] + "{oops" + text[cut:])
    r, t = read_all(p)
    assert t.num_rows == 1 and r.malformed_count == 1
    line = text[:cut].count("\n") + 1
    assert r.malformed[0].message.startswith(f"line {line}: not valid JSON")
    assert "the rest of the file cannot be read" in r.malformed[0].message


def test_qwen_math_samples_and_per_sample_scores():
    ref = jsonl(QWEN)
    _, first = read_all(QWEN)
    assert first.column("response").to_pylist() == [r["code"][0] for r in ref]
    _, every = read_all(QWEN, samples="all")
    assert every.num_rows == sum(len(r["code"]) for r in ref) == 4 * len(ref)
    assert every.column("fw_score").to_pylist() == [float(s) for r in ref for s in r["score"]]
    assert every.column("fw_extracted").to_pylist() == [p for r in ref for p in r["pred"]]


def test_seed_prompts_are_records():
    items = json.loads(SEED.read_text())
    _, t = read_all(SEED)
    assert t.num_rows == sum(len(it["completion"]) for it in items)
    assert set(t.column("task").to_pylist()) == {it["type"] for it in items}
    assert t.column("filter").to_pylist()[0] == "prompt 0"


def test_read_json_lines_columns_are_valid_arrow():
    data = b'{"a": "x", "b": [["r", null, 3]], "c": true}\n\n{"a": 5}\n'
    lines, _starts, ends, bad, cols, tags, n = _core.read_json_lines(
        data, [("a", "text"), ("b.0", "list"), ("c", "number")]
    )
    assert n == 3 and list(lines) == [0, 2] and bad == []
    from matheval_fast.io.logs.jsonl import _list_array, _number_array, _text_array

    a, b, c = _text_array(cols[0]), _list_array(cols[1]), _number_array(cols[2])
    for arr in (a, b, c):
        arr.validate(full=True)
    assert a.to_pylist() == ["x", "5"] and b.to_pylist() == [["r", None, "3"], None]
    assert c.to_pylist() == [1.0, None]
    assert [tags[i] for i in cols[0][-1]] == ["string", "number"]
    assert np.asarray(ends).tolist() == [len(data.split(b"\n")[0]), len(data) - 1]


def test_fixture_provenance_is_recorded():
    readme = (LOGS / "README.md").read_text()
    for d in (
        "lm_eval",
        "lighteval",
        "lighteval_flat",
        "opencompass_real",
        "qwen_math_real",
        "evalscope_real",
    ):
        assert f"`{d}/" in readme
