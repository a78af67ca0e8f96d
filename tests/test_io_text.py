"""The one way every command opens a text input (``matheval_fast.io.text``)."""

from __future__ import annotations

import gzip
import io
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matheval_fast.io.logs.jsonl import read_chunks
from matheval_fast.io.text import (
    HEAD_BYTES,
    MAX_RECORD_BYTES,
    InputError,
    RecordTooLongError,
    describe_binary,
    iter_lines,
    load_json,
    max_record_bytes,
    open_input,
    same_file_key,
)

TEXT = b'{"answer": "1", "completion": "caf\xc3\xa9 \xe2\x88\x9a2"}\n'


@pytest.mark.parametrize(
    ("head", "says"),
    [
        (b"PAR1\x15\x04", "a Parquet file"),
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xff\xd8\xff\xe0", "a JPEG image"),
        (b"PK\x03\x04rest", "a zip archive"),
        (b"SQLite format 3\x00", "an SQLite database"),
        (b"\xff\xfe" + "{}".encode("utf-16-le"), "UTF-16 text"),
        (b"\xfe\xff" + "{}".encode("utf-16-be"), "UTF-16 text"),
        (b"\xff\xfe\x00\x00" + "{}".encode("utf-32-le"), "UTF-32 text"),
        ('{"a": "b"}\n'.encode("utf-16-le"), "UTF-16 (little-endian) text"),
        ('{"a": "b"}\n'.encode("utf-16-be"), "UTF-16 (big-endian) text"),
        (b'{"a": 1}\n{"b": "\x00"}', "a NUL byte at offset 16"),
        (b'{"a": 1}\n{"b": "caf\xe9"}\n', "line 2: not UTF-8 text (byte 0xe9 at column 11)"),
    ],
)
def test_what_is_not_text_is_named(head: bytes, says: str) -> None:
    why = describe_binary(head)
    assert why is not None and says in why


def test_text_and_what_the_caller_reads_itself_pass() -> None:
    assert describe_binary(TEXT) is None
    assert describe_binary(b"\xef\xbb\xbf" + TEXT) is None
    # A character cut by the end of the head is not an error (the rest follows).
    assert describe_binary(TEXT + "é".encode()[:1]) is None
    assert describe_binary(b"PAR1\x15\x04", allow=("a Parquet file",)) is None


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("bom", [False, True])
def test_open_input_gives_the_text_without_a_bom_gzip_or_not(tmp_path: Path, gz: bool, bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + TEXT * 3
    p = tmp_path / "x.txt"  # the name says nothing: gzip is found by its magic number
    p.write_bytes(gzip.compress(data) if gz else data)
    with open_input(p) as fh:
        assert fh.read() == TEXT * 3
    assert [n for n, _ in iter_lines(p)] == [1, 2, 3]


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, as a pipe."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def]
        return self._data.readinto(b)


@pytest.mark.parametrize("stream", [io.BytesIO, _Pipe])
def test_stdin_is_read_checked(monkeypatch: pytest.MonkeyPatch, stream: type) -> None:
    data = b"\xef\xbb\xbf" + TEXT * 5000
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(stream(gzip.compress(data)))))
    with open_input("-") as fh:
        assert fh.read() == TEXT * 5000
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(stream(b"PAR1xxxx"))))
    with pytest.raises(InputError, match=r"^stdin: a Parquet file, not JSON text"):
        open_input("-")


def test_a_gzip_stream_cut_after_the_head_fails_when_read_naming_the_file(tmp_path: Path) -> None:
    rng = random.Random(7)
    lines = b"".join(
        b'{"n": %d, "pad": "%s"}\n' % (i, rng.randbytes(40).hex().encode()) for i in range(20_000)
    )
    p = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress(lines)
    p.write_bytes(whole[: len(whole) * 2 // 3])
    with open_input(p) as fh:  # the first 64 KiB are there
        with pytest.raises(InputError, match=rf"^{p}: truncated or corrupt gzip data"):
            fh.read()
    with pytest.raises(InputError, match="truncated or corrupt gzip"):
        list(read_chunks(p, 1 << 16, opener=open_input))


def test_iter_lines_names_bad_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(b"a\r\n\nb\n" + b"x" * HEAD_BYTES + b"\nbad \xff here\n")
    with pytest.raises(InputError, match=rf"^{p}: line 5: not UTF-8 text \(byte 0xff at column 5\)"):
        list(iter_lines(p))
    assert [t for _, (_, t) in zip(range(3), iter_lines(p), strict=False)] == ["a", "", "b"]
    monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", "1000")
    with pytest.raises(InputError, match=rf"^{p}: line 4: a record longer than 1,000 bytes"):
        list(iter_lines(p))


def test_read_chunks_stops_at_a_record_over_the_limit_with_its_line(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(b'{"a": 1}\n' * 5000 + b"y" * 10_000 + b"\n" + b'{"a": 1}\n')
    got = 0
    with pytest.raises(RecordTooLongError, match=r"a line: a record longer than 4,096 bytes") as caught:
        for chunk in read_chunks(p, 1024, limit=4096, opener=open_input):
            got += bytes(chunk).count(b"\n")
    assert got == 5000  # every line before it was given: the caller, counting, names it
    assert str(caught.value.at(got + 1)).startswith(f"{p}: line 5001: a record longer than 4,096 bytes")
    # The readers that count do: the log readers and score's JSON Lines reader.
    from matheval_fast.io.logs.jsonl import parsed_chunks

    with pytest.raises(RecordTooLongError, match=r": line 5001: a record longer"):
        for _ in parsed_chunks(p, 1024, [("a", "text")], limit=4096):
            pass
    # Under the limit, the same file reads whole.
    assert sum(bytes(c).count(b"\n") for c in read_chunks(p, 1024, limit=1 << 20, opener=open_input)) == 5002


def test_the_limit_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATHEVAL_FAST_MAX_RECORD_BYTES", raising=False)
    assert max_record_bytes() == MAX_RECORD_BYTES == 64 << 20
    monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", "123")
    assert max_record_bytes() == 123
    for bad in ("lots", "0", "-5"):
        monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", bad)
        with pytest.raises(InputError, match="MATHEVAL_FAST_MAX_RECORD_BYTES"):
            max_record_bytes()


def test_load_json_errors_name_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "a.json"
    p.write_bytes(b"\xef\xbb\xbf[1,\n 2]")
    assert load_json(p) == [1, 2]
    p.write_bytes(b"[1,\n 2,,]")
    with pytest.raises(InputError, match=rf"^{p}: line 2: not valid JSON"):
        load_json(p)
    p.write_bytes(b"  \n")
    with pytest.raises(InputError, match=rf"^{p}: the file is empty"):
        load_json(p)
    p.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(InputError, match=r"^.*a\.json: JSON nested too deeply"):
        load_json(p)


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nope\.jsonl"):
        open_input(tmp_path / "nope.jsonl")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        open_input(tmp_path)


def test_same_file_key_sees_through_links(tmp_path: Path) -> None:
    a = tmp_path / "a"
    a.write_text("x")
    (tmp_path / "soft").symlink_to(a)
    os.link(a, tmp_path / "hard")
    other = tmp_path / "b"
    other.write_text("x")
    keys = {same_file_key(p) for p in (a, tmp_path / "soft", tmp_path / "hard", tmp_path / "." / "a")}
    assert len(keys) == 1 and same_file_key(other) not in keys


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",))), max_size=20
    ),
    bom=st.booleans(),
    gz=st.booleans(),
)
def test_lines_round_trip(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], bom: bool, gz: bool
) -> None:
    """Any UTF-8 text lines (records start with ``{``; NUL is binary), BOM or not, gzip or not: the
    same lines back."""
    lines = ["{" + t.replace("\x00", "") for t in lines]
    data = (b"\xef\xbb\xbf" if bom else b"") + "".join(t + "\n" for t in lines).encode()
    p = tmp_path_factory.mktemp("rt") / "x.jsonl"
    p.write_bytes(gzip.compress(data) if gz else data)
    assert [t for _, t in iter_lines(p)] == lines
