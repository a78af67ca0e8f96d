"""One async client for OpenAI-compatible chat-completions endpoints (OpenAI, vLLM, SGLang,
llama.cpp server, Ollama, ...), built on aiohttp (why aiohttp: ``docs/dependencies.md``).

- bounded concurrency (the connection pool and the caller's worker count),
- a requests/min and tokens/min limiter (:class:`RateLimiter`),
- retries with exponential backoff and full jitter that honour ``Retry-After`` /
  ``retry-after-ms`` (:func:`backoff_delay`), per-request timeouts,
- every outcome is a :class:`Completion`: answered, or failed with a reason; nothing raises out of
  :meth:`ChatClient.create` for a bad answer.

Retried: HTTP 408, 409, 425, 429 and 5xx, connection errors (refused, reset, closed), timeouts, a
200 whose body is not JSON and a 200 with no choices. Not retried: other 4xx (the request itself is
wrong; retrying costs money and changes nothing).

The API key is a :class:`Secret`: its repr is ``Secret('***')``, it is sent only in the
``Authorization`` header, and every error text is scrubbed of it before it is stored or shown.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import random
import time
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matheval_fast.judge import _json

try:
    import aiohttp
    import yarl
except ImportError:  # pragma: no cover - the judge extra is not installed
    aiohttp = None  # type: ignore[assignment]

__all__ = [
    "RETRY_STATUSES",
    "ChatClient",
    "ClientOptions",
    "Completion",
    "EndpointError",
    "RateLimiter",
    "Secret",
    "backoff_delay",
    "parse_retry_after",
]

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
_MAX_RAW = 1 << 20  # keep at most 1 MiB of a response body


class EndpointError(RuntimeError):
    """The endpoint cannot be used (unreachable, key rejected): raised before a run starts."""


def require_aiohttp() -> None:
    if aiohttp is None:
        raise ImportError("the judge needs aiohttp: pip install aiohttp (the 'judge' extra of matheval-fast)")


class Secret:
    """A string that never shows itself: repr/str give ``Secret('***')``; pickling is refused."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def scrub(self, text: str) -> str:
        """``text`` with every occurrence of the secret replaced by ``***``."""
        return text.replace(self._value, "***") if self._value else text

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("a Secret cannot be pickled")

    @classmethod
    def from_env(cls, name: str) -> Secret:
        """The key held in environment variable ``name``; ``EndpointError`` when unset or empty."""
        value = os.environ.get(name)
        if not value:
            raise EndpointError(
                f"environment variable {name} is not set: export the API key there "
                "(or choose the variable with --api-key-env, or pass --no-api-key for a local server)"
            )
        return cls(value)


@dataclass(frozen=True)
class ClientOptions:
    """Concurrency, rate limits, timeouts and retries."""

    concurrency: int = 16
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    #: seconds for one request, connection to last byte.
    timeout: float = 120.0
    connect_timeout: float = 10.0
    #: retries after the first attempt.
    max_retries: int = 6
    backoff_base: float = 0.5
    backoff_max: float = 60.0
    #: a Retry-After longer than this is capped (a misconfigured proxy must not stall the run for hours).
    max_retry_after: float = 600.0

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {self.concurrency}")
        for name in ("requests_per_minute", "tokens_per_minute"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ValueError(f"{name} must be > 0, got {v}")
        if not self.timeout > 0 or self.max_retries < 0:
            raise ValueError("timeout must be > 0 and max_retries >= 0")


@dataclass
class Completion:
    """The outcome of one request (after retries)."""

    ok: bool
    texts: list[str | None] = field(default_factory=list)
    finish_reasons: list[str | None] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: the body of the last response as received (or the error text when none came).
    raw: str = ""
    #: HTTP status of the last attempt; 0 when no response came (timeout, connection error).
    status: int = 0
    attempts: int = 0
    #: milliseconds of the last attempt.
    latency_ms: float = 0.0
    #: why it failed (None when ok).
    error: str | None = None


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff_delay(
    attempt: int,
    *,
    base: float,
    cap: float,
    retry_after: float | None,
    max_retry_after: float,
    rng: random.Random,
) -> float:
    """Seconds to wait before retry number ``attempt`` (1-based).

    Exponential backoff with full jitter, ``uniform(0, min(cap, base * 2**(attempt-1)))``; when the
    server sent ``Retry-After`` the wait is at least that (capped at ``max_retry_after``), plus up to
    10 % jitter so that many clients told the same time do not return in lockstep.
    """
    delay = rng.uniform(0.0, min(cap, base * 2.0 ** (attempt - 1)))
    if retry_after is not None:
        ra = min(retry_after, max_retry_after)
        delay = max(delay, ra + rng.uniform(0.0, 0.1 * ra))
    return delay


class RateLimiter:
    """Requests/min and tokens/min limits as virtual schedules (GCRA), with a one-second burst.

    ``acquire(tokens)`` reserves a request slot and ``tokens`` estimated tokens and sleeps until both
    are free; ``settle(estimated, actual)`` corrects the token schedule once usage is known.
    Reservations happen before any ``await``, so concurrent callers on one event loop never race.
    """

    def __init__(
        self,
        requests_per_minute: float | None,
        tokens_per_minute: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.rpm, self.tpm = requests_per_minute, tokens_per_minute
        self.clock, self.sleep = clock, sleep
        # The schedules start at the first reservation: no burst at the start of a run.
        self._req_t = -float("inf")
        self._tok_t = -float("inf")
        self._started = False

    def reserve(self, tokens: int) -> float:
        """Reserve capacity; return the seconds to wait before sending."""
        now = self.clock()
        if not self._started:
            self._started = True
            self._req_t = self._tok_t = now
        wait = 0.0
        if self.rpm:
            # Up to one second's worth of requests may go at once after an idle spell.
            interval = 60.0 / self.rpm
            start = max(self._req_t, now - max(interval, 1.0))
            self._req_t = start + interval
            wait = max(wait, start - now)
        if self.tpm:
            start = max(self._tok_t, now - 1.0)
            self._tok_t = start + tokens * 60.0 / self.tpm
            wait = max(wait, start - now)
        return wait

    async def acquire(self, tokens: int) -> None:
        wait = self.reserve(tokens)
        if wait > 0:
            await self.sleep(wait)

    def settle(self, estimated: int, actual: int) -> None:
        if self.tpm and actual != estimated:
            self._tok_t = max(self._tok_t + (actual - estimated) * 60.0 / self.tpm, self.clock() - 1.0)


def _error_message(body: bytes) -> str:
    """The ``error.message`` of an OpenAI-style error body, else the start of the body."""
    try:
        obj = json.loads(body)
        msg = obj.get("error", {}).get("message") if isinstance(obj.get("error"), dict) else obj.get("error")
        if msg:
            return str(msg)[:300]
    except (ValueError, AttributeError):
        pass
    return body[:200].decode("utf-8", "replace")


def _content(message: Any) -> str | None:
    if not isinstance(message, dict):
        raise TypeError("choice without a message object")
    content = message.get("content")
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    raise TypeError("message content is neither text nor parts")


class ChatClient:
    """``async with ChatClient(base_url, api_key=..., options=...) as c: await c.create(body, est)``."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: Secret | None,
        options: ClientOptions | None = None,
        rng: random.Random | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        require_aiohttp()
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base URL must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.options = options or ClientOptions()
        self._key = api_key
        self._rng = rng or random.Random()  # noqa: S311 - backoff jitter, not cryptography
        self._sleep = sleep
        self.limiter = RateLimiter(
            self.options.requests_per_minute, self.options.tokens_per_minute, sleep=sleep
        )
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if api_key is not None:
            headers["Authorization"] = f"Bearer {api_key.reveal()}"
        self._headers = headers
        self._session: aiohttp.ClientSession | None = None
        # Parsed once: aiohttp would parse a str URL again for every request.
        self._url = yarl.URL(f"{self.base_url}/chat/completions")
        self._proxy = env_proxy(self.base_url)
        #: HTTP attempts made (all requests, retries included).
        self.requests_sent = 0

    def __repr__(self) -> str:
        return f"ChatClient(base_url={self.base_url!r}, api_key={self._key!r}, options={self.options!r})"

    def _scrub(self, text: str) -> str:
        return self._key.scrub(text) if self._key is not None else text

    async def __aenter__(self) -> ChatClient:
        opts = self.options
        connector = aiohttp.TCPConnector(
            limit=opts.concurrency, ttl_dns_cache=300, enable_cleanup_closed=True
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=opts.timeout, sock_connect=opts.connect_timeout),
            cookie_jar=aiohttp.DummyCookieJar(),
            headers=self._headers,
            # No trust_env: aiohttp would then look up ~/.netrc in a thread for every request. The
            # proxy from the environment is resolved once instead (self._proxy).
            trust_env=False,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def preflight(self, model: str) -> list[str] | None:
        """Check the endpoint before a run: ``GET {base_url}/models``.

        Raises :class:`EndpointError` with one clear sentence when the endpoint cannot be reached or
        rejects the key. Returns the model ids it lists (None when it has no such route).
        """
        assert self._session is not None, "use 'async with ChatClient(...)'"
        url = f"{self.base_url}/models"
        try:
            async with self._session.get(
                url,
                proxy=self._proxy,
                timeout=aiohttp.ClientTimeout(total=min(self.options.timeout, 15.0), sock_connect=5.0),
            ) as r:
                body = await r.read()
                status = r.status
        except asyncio.TimeoutError:
            raise EndpointError(f"endpoint {self.base_url} did not answer within 15 s") from None
        except aiohttp.ClientError as exc:
            reason = self._scrub(f"{type(exc).__name__}: {exc}")
            raise EndpointError(f"cannot reach endpoint {self.base_url} ({reason})") from None
        if status in (401, 403):
            msg = self._scrub(_error_message(body))
            raise EndpointError(f"endpoint {self.base_url} rejected the API key (HTTP {status}: {msg})")
        if status != 200:
            return None
        try:
            return [str(m["id"]) for m in json.loads(body)["data"]]
        except (ValueError, KeyError, TypeError):
            return None

    async def create(self, body: Mapping[str, Any] | bytes, est_tokens: int) -> Completion:
        """Send one chat-completions request (a body, or its JSON bytes), retrying as the module
        docstring says."""
        assert self._session is not None, "use 'async with ChatClient(...)'"
        opts = self.options
        payload = body if isinstance(body, bytes) else encode_body(body)
        error = "no attempt"
        raw = ""
        status = 0
        latency = 0.0
        attempt = 0
        while True:
            attempt += 1
            await self.limiter.acquire(est_tokens)
            retry_after: float | None = None
            retryable = True
            t0 = time.perf_counter()
            self.requests_sent += 1
            try:
                async with self._session.post(self._url, data=payload, proxy=self._proxy) as r:
                    data = await r.read()
                    status = r.status
                    if status != 200:
                        retry_after = parse_retry_after(r.headers)
            except asyncio.TimeoutError:
                status, data = 0, b""
                error = f"timeout after {opts.timeout:g} s"
            except aiohttp.ClientError as exc:
                status, data = 0, b""
                error = self._scrub(f"connection error: {type(exc).__name__}: {exc}")[:300]
            latency = (time.perf_counter() - t0) * 1000.0
            # Scrubbed too: a proxy may echo the key in an error body.
            raw = self._scrub(data[:_MAX_RAW].decode("utf-8", "replace")) if data else error
            if status == 200:
                done = self._completion(data, raw, attempt, latency, est_tokens)
                if done.ok:
                    return done
                error = done.error or "bad response"
            elif status:
                error = self._scrub(f"HTTP {status}: {_error_message(data)}")
                retryable = status in RETRY_STATUSES
            if not retryable or attempt > opts.max_retries:
                break
            await self._sleep(
                backoff_delay(
                    attempt,
                    base=opts.backoff_base,
                    cap=opts.backoff_max,
                    retry_after=retry_after,
                    max_retry_after=opts.max_retry_after,
                    rng=self._rng,
                )
            )
        self.limiter.settle(est_tokens, 0)
        reason = error if not retryable else f"gave up after {attempt} attempts: {error}"
        return Completion(False, raw=raw, status=status, attempts=attempt, latency_ms=latency, error=reason)

    def _completion(self, data: bytes, raw: str, attempt: int, latency: float, est: int) -> Completion:
        try:
            obj = _json.loads(data)
            choices = obj["choices"]
            if not isinstance(choices, list):
                raise TypeError("choices is not a list")
            texts = [_content(c.get("message")) for c in choices]
            finish = [c.get("finish_reason") for c in choices]
        except (ValueError, KeyError, TypeError, AttributeError):
            return Completion(False, raw=raw, status=200, error="malformed JSON from server")
        if not choices:
            return Completion(False, raw=raw, status=200, error="response without choices")
        usage = obj.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens") or 0)
        completion_tokens = int(usage.get("completion_tokens") or 0)
        self.limiter.settle(est, prompt_tokens + completion_tokens)
        return Completion(
            True,
            texts=texts,
            finish_reasons=finish,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            raw=raw,
            status=200,
            attempts=attempt,
            latency_ms=latency,
        )


def env_proxy(url: str) -> str | None:
    """The proxy that HTTP(S)_PROXY / ALL_PROXY / NO_PROXY choose for ``url`` (None: direct)."""
    parts = urllib.parse.urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


def encode_body(body: Mapping[str, Any]) -> bytes:
    """JSON bytes of a request body."""
    return _json.dumps_bytes(body)


def chat_body(
    model: str,
    messages: Sequence[Mapping[str, str]],
    *,
    temperature: float | None,
    max_tokens: int,
    seed: int | None,
    n: int,
    top_p: float | None = None,
    json_mode: bool = False,
) -> dict[str, Any]:
    """A chat-completions request body (unset options are left out, so servers use their defaults)."""
    body: dict[str, Any] = {"model": model, "messages": list(messages), "max_tokens": max_tokens}
    if temperature is not None:
        body["temperature"] = temperature
    if top_p is not None:
        body["top_p"] = top_p
    if seed is not None:
        body["seed"] = seed
    if n != 1:
        body["n"] = n
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    return body
