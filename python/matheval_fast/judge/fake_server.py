"""A small OpenAI-compatible chat-completions server on the loopback interface, for tests, the demo
and the throughput benchmark. It is not a model: it answers by a fixed rule and injects faults on a
schedule, and it logs every request it receives, so a test can prove that nothing was lost or sent
twice.

Written on :mod:`asyncio` protocols with HTTP/1.1 keep-alive and no framework, so that one core
answers tens of thousands of requests per second and the server never limits a client benchmark.

**The judging rule.** The solver response is the last ``Solution: [‘…’]`` or ``Response: [‘…’]``
segment of the prompt (the delimiters every bundled template uses). The server answers *Yes* when
that segment contains one of :data:`FLAW_PHRASES`, else *No*. A ``[votes:yes,no,…]`` marker in the
prompt dictates the answer of each of the ``n`` choices instead (choice ``i`` takes entry
``(seed + i) % len``), so majority voting can be tested. With ``style="varied"`` the wording of the
answer varies deterministically with the prompt (``**Yes**``, ``yes.``, ``Answer: No``, a short
chain of thought ending in ``Final answer: …`` when the prompt asks to reason step by step, JSON when
``response_format`` asks for it), and about one prompt in 40 gets an answer no parser can read.

**Faults.** ``plan`` maps an item tag (``[#tag]`` in the prompt) to the faults its successive
requests meet; once the list is used up the item is answered normally. Faults: ``429`` (with
``Retry-After``), ``500``, ``503``, ``reset`` (the connection is closed with a TCP reset),
``slow`` (answered after ``slow_seconds``), ``echo500`` (a 500 whose error text repeats the
``Authorization`` header, as careless proxies do), ``malformed`` (a 200 with broken JSON), ``empty``
(``choices: []``), ``length`` (``finish_reason: "length"`` with a cut answer) and
``content_filter``.

Run one from a shell with ``python -m matheval_fast.judge.fake_server [--port P]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import ipaddress
import json
import re
import socket
import struct
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FAULTS", "FLAW_PHRASES", "FakeJudgeServer", "RequestRecord"]

#: Phrases that make the server's judge answer "Yes" (the solver noticed a flaw / abstained).
FLAW_PHRASES: tuple[str, ...] = (
    "cannot be solved",
    "can't be solved",
    "cannot be answered",
    "cannot be determined",
    "not enough information",
    "insufficient information",
    "no solution",
    "contradiction",
    "contradicts",
    "contradictory",
    "impossible",
    "inconsistent",
    "ill-posed",
    "not well-defined",
    "undefined",
    "does not exist",
    "no such",
    "flawed",
)

FAULTS: tuple[str, ...] = (
    "429",
    "500",
    "503",
    "echo500",
    "reset",
    "slow",
    "malformed",
    "empty",
    "length",
    "content_filter",
)

_SEGMENT = re.compile(r"(?:Solution|Response):\s*\[‘(.*?)’\]", re.S)
_TAG = re.compile(r"\[#([A-Za-z0-9_.-]{1,64})\]")
_VOTES = re.compile(r"\[votes:([a-z,]{1,200})\]")
_MAX_HEAD = 64 * 1024
_MAX_BODY = 16 * 1024 * 1024


@dataclass
class RequestRecord:
    """One request as the server saw it."""

    #: seconds since the server started (``time.monotonic`` based).
    t: float
    method: str
    path: str
    #: the ``[#tag]`` of the prompt, or None.
    tag: str | None
    #: the fault injected, or None for a normal answer.
    fault: str | None
    #: HTTP status sent (0 for a reset).
    status: int
    #: sha256 of the request's ``messages`` (hex, first 16), or "" when the body was not a chat request.
    messages_sha: str = ""
    authorization: str | None = None
    n: int = 1
    seed: int | None = None


@dataclass
class _Config:
    api_key: str | None
    plan: dict[str, list[str]]
    style: str
    delay: float
    slow_seconds: float
    retry_after: str
    retry_after_ms: int | None
    record: bool
    max_requests: int | None
    models: list[str]
    counts: dict[str, int] = field(default_factory=dict)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _verdict_for(prompt: str) -> bool:
    segments = _SEGMENT.findall(prompt)
    text = (segments[-1] if segments else prompt).lower()
    return any(p in text for p in FLAW_PHRASES)


def _answer_text(yes: bool, prompt: str, style: str, json_mode: bool, salt: int) -> str:
    word = "Yes" if yes else "No"
    if json_mode:
        return json.dumps({"verdict": word.lower(), "reason": "rule-based test judge"})
    if style == "plain":
        return word
    h = int.from_bytes(hashlib.blake2b(prompt.encode(), digest_size=4).digest(), "little") + salt
    if h % 40 == 7:
        return "I am not able to tell from this solution."
    if "step by step" in prompt:
        return (
            "Step 1: read the problem and the solution.\n"
            "Step 2: check whether the solution points out that the problem is flawed.\n"
            + ("The solution says the problem cannot be solved as stated.\n" if yes else "")
            + ("" if yes else "The solution computes an answer without questioning the problem.\n")
            + f"Final answer: {word}"
        )
    forms = [word, f"**{word}**", f"{word.lower()}.", f"Answer: {word}", f"{word}, it does."]
    return forms[h % len(forms)]


class _Http(asyncio.Protocol):
    """One keep-alive connection; requests are answered in order."""

    def __init__(self, server: FakeJudgeServer) -> None:
        self.server = server
        self.buf = bytearray()
        self.busy = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses; both have what is used here.
        self.transport = transport  # type: ignore[assignment]
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.busy:
            self._drain()

    def _drain(self) -> None:
        while self.transport is not None and not self.busy:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > _MAX_HEAD:
                    self._close_with(431, {"error": {"message": "request head too large"}})
                return
            try:
                head = bytes(self.buf[:end]).decode("latin-1")
                lines = head.split("\r\n")
                method, path, _version = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
            except ValueError:
                self._close_with(400, {"error": {"message": "bad request head"}})
                return
            if "chunked" in headers.get("transfer-encoding", "").lower() or length > _MAX_BODY:
                self._close_with(411, {"error": {"message": "send a Content-Length under 16 MiB"}})
                return
            if len(self.buf) < end + 4 + length:
                return
            body = bytes(self.buf[end + 4 : end + 4 + length])
            del self.buf[: end + 4 + length]
            self.server._handle(self, method, path, headers, body)

    def send(self, status: int, payload: bytes, extra: Mapping[str, str] | None = None) -> None:
        if self.transport is None:
            return
        reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found"}.get(status, "Status")
        head = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/json"]
        head.append(f"Content-Length: {len(payload)}")
        for k, v in (extra or {}).items():
            head.append(f"{k}: {v}")
        self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)

    def reset(self) -> None:
        """Close with a TCP RST (SO_LINGER 0), as a crashed proxy would."""
        if self.transport is None:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _close_with(self, status: int, obj: Any) -> None:
        self.send(status, json.dumps(obj).encode())
        if self.transport is not None:
            self.transport.close()

    def later(self, delay: float, fn: Any) -> None:
        """Answer after ``delay`` seconds; later requests on this connection wait their turn."""
        self.busy = True
        loop = asyncio.get_running_loop()

        def fire() -> None:
            fn()
            self.busy = False
            self._drain()

        loop.call_later(delay, fire)


class FakeJudgeServer:
    """The server, run on its own event loop in a background thread (``start``/``stop``, or ``with``).

    ``requests`` is the log (a list of :class:`RequestRecord`, appended in arrival order).
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        api_key: str | None = None,
        plan: Mapping[str, Sequence[str]] | None = None,
        style: str = "varied",
        delay: float = 0.0,
        slow_seconds: float = 2.0,
        retry_after: str = "1",
        retry_after_ms: int | None = None,
        record: bool = True,
        max_requests: int | None = None,
        models: Sequence[str] = ("test-judge",),
    ) -> None:
        if not _is_loopback(host):
            raise ValueError(f"the fake server listens on loopback addresses only, not {host!r}")
        if style not in ("varied", "plain"):
            raise ValueError(f"style must be 'varied' or 'plain', got {style!r}")
        for tag, faults in (plan or {}).items():
            bad = [f for f in faults if f not in FAULTS]
            if bad:
                raise ValueError(f"plan for {tag!r}: unknown fault(s) {bad}; choose from {', '.join(FAULTS)}")
        self.host, self.port = host, port
        self.cfg = _Config(
            api_key=api_key,
            plan={k: list(v) for k, v in (plan or {}).items()},
            style=style,
            delay=delay,
            slow_seconds=slow_seconds,
            retry_after=retry_after,
            retry_after_ms=retry_after_ms,
            record=record,
            max_requests=max_requests,
            models=list(models),
        )
        self.requests: list[RequestRecord] = []
        self.served = 0
        self._t0 = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    # -- lifecycle ------------------------------------------------------------------------------

    async def serve(self) -> None:
        """Listen (on the running loop) until cancelled."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._server = await loop.create_server(lambda: _Http(self), self.host, self.port, backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]

    def start(self) -> FakeJudgeServer:
        ready = threading.Event()
        failure: list[BaseException] = []

        def main() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self.serve())
            except BaseException as exc:  # reported to start()'s caller
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            assert self._server is not None
            self._server.close()
            loop.run_until_complete(self._server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=main, name="fake-judge-server", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake judge server did not start within 10 s")
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> FakeJudgeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling -----------------------------------------------------------------------

    def _log(self, rec: RequestRecord) -> None:
        # Called before the answer is sent: a client that has its answer finds its request logged.
        if self.cfg.record:
            with self._lock:
                self.requests.append(rec)

    def _next_fault(self, tag: str | None) -> str | None:
        if tag is None or tag not in self.cfg.plan:
            return None
        i = self.cfg.counts.get(tag, 0)
        self.cfg.counts[tag] = i + 1
        faults = self.cfg.plan[tag]
        return faults[i] if i < len(faults) else None

    def _handle(self, conn: _Http, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
        self.served += 1
        cfg = self.cfg
        now = time.monotonic() - self._t0
        auth = headers.get("authorization")
        if cfg.max_requests is not None and self.served > cfg.max_requests:
            self._log(RequestRecord(now, method, path, None, "budget", 503, authorization=auth))
            conn._close_with(503, {"error": {"message": "request budget of this test server used up"}})
            return
        if cfg.api_key is not None and auth != f"Bearer {cfg.api_key}":
            self._log(RequestRecord(now, method, path, None, None, 401, authorization=auth))
            conn.send(401, b'{"error": {"message": "invalid API key", "type": "invalid_request_error"}}')
            return
        route = path.split("?", 1)[0].rstrip("/")
        if method == "GET" and route.endswith("/models"):
            data = [{"id": m, "object": "model", "owned_by": "fake"} for m in cfg.models]
            self._log(RequestRecord(now, method, path, None, None, 200, authorization=auth))
            conn.send(200, json.dumps({"object": "list", "data": data}).encode())
            return
        if method != "POST" or not route.endswith("/chat/completions"):
            self._log(RequestRecord(now, method, path, None, None, 404, authorization=auth))
            conn.send(404, b'{"error": {"message": "not found"}}')
            return
        try:
            req = json.loads(body)
            messages = req["messages"]
            prompt = "\n".join(str(m.get("content") or "") for m in messages)
            n = int(req.get("n") or 1)
            seed = req.get("seed")
        except (ValueError, KeyError, TypeError, AttributeError):
            self._log(RequestRecord(now, method, path, None, None, 400, authorization=auth))
            conn.send(400, b'{"error": {"message": "body is not a chat-completions request"}}')
            return
        tag_m = _TAG.search(prompt)
        tag = tag_m.group(1) if tag_m else None
        if req.get("model") not in cfg.models:
            msg = {
                "error": {"message": f"model {req.get('model')!r} does not exist", "code": "model_not_found"}
            }
            self._log(RequestRecord(now, method, path, tag, None, 404, authorization=auth))
            conn.send(404, json.dumps(msg).encode())
            return
        fault = self._next_fault(tag)
        sha = (
            hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]
            if cfg.record
            else ""
        )
        status = {"429": 429, "500": 500, "503": 503, "echo500": 500, "reset": 0}.get(fault or "", 200)
        self._log(RequestRecord(now, method, path, tag, fault, status, sha, auth, n, seed))

        if fault == "reset":
            conn.reset()
            return
        if fault == "429":
            extra = {"Retry-After": cfg.retry_after}
            if cfg.retry_after_ms is not None:
                extra["retry-after-ms"] = str(cfg.retry_after_ms)
            conn.send(429, b'{"error": {"message": "rate limit reached", "type": "rate_limit"}}', extra)
            return
        if fault == "echo500":
            msg = {"error": {"message": f"upstream failed; request had Authorization: {auth}"}}
            conn.send(500, json.dumps(msg).encode())
            return
        if fault in ("500", "503"):
            conn.send(status, b'{"error": {"message": "server error", "type": "server_error"}}')
            return
        if fault == "malformed":
            conn.send(200, b'{"id": "x", "choices": [{"index": 0, "message": {"content": "Ye')
            return
        payload = self._completion(req, prompt, n, seed, fault)
        delay = cfg.slow_seconds if fault == "slow" else cfg.delay
        if delay > 0:
            conn.later(delay, lambda: conn.send(200, payload))
        else:
            conn.send(200, payload)

    def _completion(self, req: dict[str, Any], prompt: str, n: int, seed: Any, fault: str | None) -> bytes:
        json_mode = (req.get("response_format") or {}).get("type") in ("json_object", "json_schema")
        votes_m = _VOTES.search(prompt)
        base = int(seed) if isinstance(seed, int) else 0
        choices = []
        for i in range(max(1, min(n, 64))):
            if votes_m:
                entries = votes_m.group(1).split(",")
                yes = entries[(base + i) % len(entries)] == "yes"
            else:
                yes = _verdict_for(prompt)
            text: str | None = _answer_text(yes, prompt, self.cfg.style, json_mode, salt=0)
            finish = "stop"
            if fault == "length":
                # A cut answer: a leading verdict survives in short answers, not in a chain of thought.
                cut = (
                    "Step 1: read the prob"
                    if "step by step" in prompt
                    else f"{'Yes' if yes else 'No'}, the so"
                )
                text, finish = cut, "length"
            elif fault == "content_filter":
                text, finish = None, "content_filter"
            choices.append(
                {
                    "index": i,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                }
            )
        if fault == "empty":
            choices = []
        completion_tokens = sum(len(c["message"]["content"] or "") // 4 + 1 for c in choices)
        out = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": req.get("model"),
            "choices": choices,
            "usage": {
                "prompt_tokens": len(prompt) // 4 + 1,
                "completion_tokens": completion_tokens,
                "total_tokens": len(prompt) // 4 + 1 + completion_tokens,
            },
        }
        return json.dumps(out).encode()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m matheval_fast.judge.fake_server",
        description="OpenAI-compatible rule-based test judge on 127.0.0.1 (see the module docstring)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (default)")
    parser.add_argument("--model", action="append", default=None, help="model name(s) served (test-judge)")
    parser.add_argument("--style", choices=["varied", "plain"], default="varied")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--no-log", action="store_true", help="keep no request log (for benchmarks)")
    parser.add_argument("--api-key-env", help="require the key held in this environment variable")
    args = parser.parse_args(argv)
    import os

    key = os.environ.get(args.api_key_env) if args.api_key_env else None
    server = FakeJudgeServer(
        args.host,
        args.port,
        api_key=key,
        style=args.style,
        delay=args.delay,
        record=not args.no_log,
        models=args.model or ("test-judge",),
    )

    async def run() -> None:
        await server.serve()
        print(f"listening on {server.base_url}", flush=True)
        await asyncio.Event().wait()

    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    with contextlib.suppress(KeyboardInterrupt):
        runner(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
