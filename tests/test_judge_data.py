"""Templates and the item loader: shipped templates, user templates, field names, labels, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from matheval_fast.judge.data import DatasetSpec, gold_label, iter_items, parse_label, scan
from matheval_fast.judge.templates import TemplateError, builtin_names, load_template

DEMO = Path(__file__).resolve().parents[1] / "data" / "judge" / "faultymath_demo.jsonl"


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_builtin_templates_load_and_render() -> None:
    assert builtin_names() == ["simple", "explain", "cot", "umwp-abstain", "answer-equivalence"]
    for name in builtin_names():
        t = load_template(name)
        fields = {k: f"<{k}>" for k in t.inputs}
        msgs = t.messages(fields)
        text = "\n".join(m["content"] for m in msgs)
        assert all(f"<{k}>" in text for k in t.inputs), name
        assert "{{" not in text
        assert len(t.sha) == 16 and t.version.endswith("/1")
    simple = load_template("simple")
    assert simple.inputs == ("problem", "response") and simple.protocol == "C"
    assert load_template("explain").inputs == ("problem", "response", "explanation")
    assert load_template("umwp-abstain").protocol == "B"
    json_msgs = simple.messages({"problem": "p", "response": "r"}, json_mode=True)
    assert json_msgs[-1]["content"].endswith(simple.json_instruction)


def test_substitution_is_one_pass() -> None:
    t = load_template("simple")
    user = t.messages({"problem": "P {{response}}", "response": "R {{problem}}"})[0]["content"]
    assert "P {{response}}" in user and "R {{problem}}" in user
    with pytest.raises(KeyError, match="response"):
        t.messages({"problem": "p"})


def test_unknown_prompt_lists_the_choices() -> None:
    with pytest.raises(
        TemplateError, match="choose one of simple, explain, cot, umwp-abstain, answer-equivalence"
    ):
        load_template("simpel")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('name = "x"\nversion = "x/1"\ninputs = ["a"]\n', "missing required key 'user'"),
        (
            'name = "x"\nversion = "x/1"\ninputs = ["a"]\nuser = "{{a}} {{b}}"\n',
            "placeholder(s) ['b'] not declared",
        ),
        ('name = "x"\nversion = "x/1"\ninputs = ["a", "c"]\nuser = "{{a}}"\n', "input(s) ['c'] never appear"),
        ('name = "x"\nversion = "x/1"\ninputs = []\nuser = "hi"\n', "non-empty list"),
        (
            'name = "x"\nversion = "x/1"\ninputs = ["a"]\nuser = "{{a}}"\ncolour = 1\n',
            "unknown key(s) ['colour']",
        ),
        (
            'name = "x"\nversion = "x/1"\ninputs = ["a"]\nuser = "{{a}}"\ndefault_max_tokens = 0\n',
            "positive integer",
        ),
        ("name = ", "not a valid TOML template"),
    ],
)
def test_bad_template_files(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(TemplateError, match=re.escape(message)):
        load_template(path)


def test_user_template_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "mine"\nversion = "mine/3"\ninputs = ["q", "a"]\n'
        'system = "Judge {{q}}"\nuser = "Q: {{q}}\\nA: {{a}}"\n',
        encoding="utf-8",
    )
    t = load_template(path)
    assert t.messages({"q": "1+1", "a": "2"}) == [
        {"role": "system", "content": "Judge 1+1"},
        {"role": "user", "content": "Q: 1+1\nA: 2"},
    ]
    assert t.default_max_tokens == 256 and t.source == str(path)


def test_labels() -> None:
    for v, want in [
        ("yes", True),
        ("No", False),
        (" TRUE ", True),
        ("false", False),
        ("1", True),
        ("0", False),
        (True, True),
        (False, False),
        (1, True),
        (0, False),
        (None, None),
        (1.0, True),
        (0.0, False),
        (float("nan"), None),
    ]:
        assert parse_label(v, where="f:1", name="label") is want
    for bad in ["maybe", "2", 2, 0.5, -1.0, "", []]:
        with pytest.raises(ValueError, match="f:7: label field 'label' has"):
            parse_label(bad, where="f:7", name="label")
    assert gold_label([True, True, False]) is True
    assert gold_label([True, False]) is None
    assert gold_label([None, False]) is False
    assert gold_label([]) is None


def test_demo_set_loads(tmp_path: Path) -> None:
    spec = DatasetSpec(
        DEMO, inputs=("problem", "response"), label_fields=("reviewer_1", "reviewer_2"), labels_explicit=True
    )
    res = scan(spec)
    assert res.n_items == 40
    assert res.spec.group_fields == ("fault_type", "subject", "level")
    assert res.n_split == 3 and res.n_gold == 37  # the made-up reviewers split on three items
    items = list(iter_items(res.spec))
    assert items[0].id == "demo-001" and items[0].groups["level"] == "2"
    assert all(json.loads(line)["synthetic"] for line in DEMO.read_text().splitlines())


def test_field_names_are_configurable(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "x.jsonl", [{"uid": 7, "question": "Q?", "output": "A.", "human": "yes", "topic": "t"}]
    )
    spec = DatasetSpec(
        path,
        inputs=("problem", "response"),
        fields={"problem": "question", "response": "output", "id": "uid"},
        label_fields=("human",),
        group_fields=("topic",),
        labels_explicit=True,
    )
    (item,) = iter_items(scan(spec).spec)
    assert (item.id, item.inputs, item.labels, item.groups) == (
        "7",
        {"problem": "Q?", "response": "A."},
        (True,),
        {"topic": "t"},
    )


def test_parquet_and_json_inputs(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rows = [{"problem": f"p{i}", "response": f"r{i}", "label": i % 2 == 0, "level": i} for i in range(5)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "x.parquet")
    (tmp_path / "x.json").write_text(json.dumps(rows), encoding="utf-8")
    for name in ("x.parquet", "x.json"):
        res = scan(DatasetSpec(tmp_path / name, inputs=("problem", "response")))
        items = list(iter_items(res.spec))
        assert [i.labels for i in items] == [(True,), (False,), (True,), (False,), (True,)]
        # No id field: None (never the position, which could equal another item's real id).
        assert res.spec.group_fields == ("level",) and items[3].id is None and items[3].index == 3
    bad = [dict(rows[0], label="perhaps")]
    pq.write_table(pa.Table.from_pylist(bad), tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match=r"bad.parquet: row 1: label field 'label' has 'perhaps'"):
        scan(DatasetSpec(tmp_path / "bad.parquet", inputs=("problem", "response")))


@pytest.mark.parametrize(
    ("rows", "kwargs", "message"),
    [
        (
            [
                {"problem": "p", "response": "r", "label": "yes"},
                {"problem": "p", "response": "r", "label": "maybe"},
            ],
            {},
            r"x.jsonl:2: label field 'label' has 'maybe'; expected one of yes, no, true, false, 1, 0",
        ),
        (
            [{"problem": "p", "answer": "r"}],
            {},
            r"x.jsonl:1: missing field 'response' \(key 'response'\); the record has keys: answer, problem",
        ),
        ([{"problem": "p", "response": None}], {}, r"x.jsonl:1: field 'response' \(key 'response'\) is null"),
        ([{"problem": "p", "response": ["r"]}], {}, r"must be text, got list"),
        ([["p", "r"]], {}, r"x.jsonl:1: expected a JSON object"),
        (
            [{"problem": "p", "response": "r"}],
            {"label_fields": ("grade",), "labels_explicit": True},
            r"label field\(s\) \['grade'\] appear in no record",
        ),
        (
            [{"problem": "p", "response": "r"}],
            {"group_fields": ("subject",)},
            r"group field\(s\) \['subject'\] appear in no record",
        ),
        ([], {}, "the input is empty"),
    ],
)
def test_bad_input_names_the_line(tmp_path: Path, rows: list, kwargs: dict, message: str) -> None:
    path = write_jsonl(tmp_path / "x.jsonl", rows)
    with pytest.raises(ValueError, match=message):
        scan(DatasetSpec(path, inputs=("problem", "response"), **kwargs))


def test_spec_errors(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "x.jsonl", [{"problem": "p", "response": "r"}])
    with pytest.raises(
        ValueError, match=r"unknown field name\(s\) \['question'\]: the template reads problem, response, id"
    ):
        DatasetSpec(path, inputs=("problem", "response"), fields={"question": "q"})
    with pytest.raises(ValueError, match=r"expected a .jsonl, .ndjson, .json, .parquet file"):
        DatasetSpec(tmp_path / "x.csv", inputs=("problem",))
    (tmp_path / "broken.jsonl").write_text(
        '{"problem": "p", "response": "r"}\n{"problem": \n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"broken.jsonl: line 2: not valid JSON"):
        scan(DatasetSpec(tmp_path / "broken.jsonl", inputs=("problem", "response")))
    # Without a label field the items are judged unlabeled (the default 'label' is optional).
    res = scan(DatasetSpec(path, inputs=("problem", "response")))
    assert (res.n_unlabeled, res.spec.label_fields) == (1, ())
    limited = scan(DatasetSpec(DEMO, inputs=("problem", "response"), limit=5))
    assert limited.n_items == 5


def test_response_json_helpers() -> None:
    from matheval_fast.judge import _json

    for text in [
        '{"a": NaN}',
        '["\\ud800"]',
        '{"x": [1, 2.5, "é"], "usage": {"prompt_tokens": 12}}',
    ]:
        got, want = _json.loads(text), json.loads(text)
        assert json.dumps(got) == json.dumps(want)
    for bad in ['{"a": ', "[1,]", ""]:
        with pytest.raises(ValueError):
            _json.loads(bad)
    assert json.loads(_json.dumps_bytes({"seed": 2**70, "t": "‘x’"})) == {"seed": 2**70, "t": "‘x’"}


def test_input_ids_keep_big_integers(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(
        '{"id": 123456789012345678901234567890, "problem": "p", "response": "r"}\n', encoding="utf-8"
    )
    (item,) = iter_items(DatasetSpec(path, inputs=("problem", "response")))
    assert item.id == "123456789012345678901234567890"
