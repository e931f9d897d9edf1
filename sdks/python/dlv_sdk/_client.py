import asyncio
import json
import random
import time
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Mapping, Optional

import httpx

from ._generated import DEFAULT_BASE_URL, AsyncOperations, Operations
from ._version import __version__
from .errors import ApiError, ConnectionError
from ._simulation import MAX_STEPS, is_test_key, next_simulated_step, reached, simulate_body

_RETRIED_STATUSES = {429, 500, 502, 503, 504}
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "DELETE", "PUT"}


class _Policy:
    """What the sync and async clients share: the request, when to retry, how long to wait."""

    def __init__(self, api_key: str, base_url: Optional[str], max_retries: int, max_retry_delay: float) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        self.api_key = api_key
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay

    def build(self, method: str, path: str, query: Optional[Mapping[str, Any]], body: Any, idempotent: bool,
              file: bool, idempotency_key: Optional[str], headers: Optional[Mapping[str, str]]) -> Dict[str, Any]:
        sent = {
            "accept": "*/*" if file else "application/json",
            "authorization": f"Bearer {self.api_key}",
            "user-agent": f"dlv-sdk-python/{__version__}",
        }
        # Generated once per call, so that every retry carries the same key: the API then replays
        # the first success instead of creating a second order.
        if idempotent:
            sent["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        sent.update(headers or {})
        content = None
        if body is not None:
            sent["content-type"] = "application/json"
            content = json.dumps(body).encode()
        params = {k: v for k, v in (query or {}).items() if v is not None}
        return {"method": method, "url": self.base_url + path, "params": params, "headers": sent, "content": content}

    def retryable(self, method: str, idempotent: bool) -> bool:
        return idempotent or method in _SAFE_METHODS

    def delay(self, attempt: int, retry_after: Optional[int]) -> float:
        """Retry-After when the API said (cut to the maximum), else 0.5 s, 1 s, 2 s... with jitter."""
        if retry_after is not None:
            return min(float(retry_after), self.max_retry_delay)
        base = min(0.5 * 2 ** attempt, self.max_retry_delay)
        return base / 2 + random.random() * base / 2

    def should_retry(self, response: httpx.Response, retryable: bool, attempt: int) -> bool:
        # A 429 was refused before anything was done: always safe to send again.
        return (response.status_code in _RETRIED_STATUSES and (retryable or response.status_code == 429)
                and attempt < self.max_retries)

    @staticmethod
    def result(response: httpx.Response, file: bool) -> Any:
        return response.content if file else response.json()

    @staticmethod
    def error(response: httpx.Response) -> ApiError:
        retry_after = retry_after_of(response)
        try:
            envelope = response.json()
            if isinstance(envelope, dict) and isinstance(envelope.get("error"), str):
                return ApiError(response.status_code, envelope, retry_after)
        except ValueError:
            pass
        return ApiError(response.status_code, {
            "ok": False,
            "error": "unavailable" if response.status_code >= 500 else "invalid_request",
            "message": f"HTTP {response.status_code} without the API's error envelope: {response.text[:200]}",
            "request_id": response.headers.get("x-request-id", ""),
        }, retry_after)


def retry_after_of(response: httpx.Response) -> Optional[int]:
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        return int(value)
    try:
        return max(0, int(parsedate_to_datetime(value).timestamp() - time.time()))
    except (TypeError, ValueError):
        return None


class Client(Operations):
    """The Delivery Orders API client (synchronous).

    One method per operation, the key sent as a bearer token, an Idempotency-Key generated for
    every creation and kept across its retries, retries with backoff on 429/5xx honouring
    Retry-After, errors raised as ``ApiError`` (``code`` the envelope's ``error``)::

        with Client(api_key="dlv_...") as dlv:
            order = dlv.create_order({...})["order"]
            for summary in dlv.iterate_orders(status="pending"):
                ...
    """

    def __init__(self, api_key: str, *, base_url: Optional[str] = None, max_retries: int = 2,
                 max_retry_delay: float = 30.0, timeout: float = 30.0,
                 http_client: Optional[httpx.Client] = None, sleep: Any = time.sleep) -> None:
        self._policy = _Policy(api_key, base_url, max_retries, max_retry_delay)
        self._http = http_client or httpx.Client(timeout=timeout)
        self._sleep = sleep

    def _call(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Any = None,
              idempotent: bool = False, file: bool = False, idempotency_key: Optional[str] = None,
              headers: Optional[Mapping[str, str]] = None) -> Any:
        request = self._policy.build(method, path, query, body, idempotent, file, idempotency_key, headers)
        retryable = self._policy.retryable(method, idempotent)
        attempt = 0
        while True:
            try:
                response = self._http.request(**request)
            except httpx.TransportError as error:
                if not retryable or attempt >= self._policy.max_retries:
                    raise ConnectionError(f"{method} {path}: {error}") from error
                self._sleep(self._policy.delay(attempt, None))
                attempt += 1
                continue
            if response.is_success:
                return self._policy.result(response, file)
            if self._policy.should_retry(response, retryable, attempt):
                self._sleep(self._policy.delay(attempt, retry_after_of(response)))
                attempt += 1
                continue
            raise self._policy.error(response)

    @property
    def test_mode(self) -> bool:
        """True for a test key (``dlv_test_...``): what it creates is test data (livemode false)."""
        return is_test_key(self._policy.api_key)

    def simulate(self, tracking_ref: str, to: str, *, reason: Optional[str] = None,
                 headers: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
        """Test mode: moves a test order to ``to`` through every step the street would take on the way
        (``simulate_order`` makes one step: ``delivered`` from pending is picked up, in transit, out for
        delivery, then delivered), each with its events, webhooks and notifications. ``returned`` fails
        at the door until the third attempt returns the parcel; ``reason`` is the failed attempts'.
        Returns the last step's answer; a live key raises ApiError ``test_mode_only`` (403), a step
        that cannot follow the order's status ``simulation_out_of_order`` (409)."""
        status = self.get_order(tracking_ref, headers=headers)["order"]["status"]
        for _ in range(MAX_STEPS):
            step = next_simulated_step(status, to)
            moved = self.simulate_order(tracking_ref, simulate_body(step, reason), headers=headers)
            status = moved["order"]["status"]
            if reached(status, step, to):
                return moved
        raise RuntimeError(f"simulate: {tracking_ref} did not reach {to!r} in {MAX_STEPS} steps")

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncClient(AsyncOperations):
    """The same client for asyncio: ``async with AsyncClient(api_key=...) as dlv: await dlv.get_me()``."""

    def __init__(self, api_key: str, *, base_url: Optional[str] = None, max_retries: int = 2,
                 max_retry_delay: float = 30.0, timeout: float = 30.0,
                 http_client: Optional[httpx.AsyncClient] = None, sleep: Any = asyncio.sleep) -> None:
        self._policy = _Policy(api_key, base_url, max_retries, max_retry_delay)
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self._sleep = sleep

    async def _call(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Any = None,
                    idempotent: bool = False, file: bool = False, idempotency_key: Optional[str] = None,
                    headers: Optional[Mapping[str, str]] = None) -> Any:
        request = self._policy.build(method, path, query, body, idempotent, file, idempotency_key, headers)
        retryable = self._policy.retryable(method, idempotent)
        attempt = 0
        while True:
            try:
                response = await self._http.request(**request)
            except httpx.TransportError as error:
                if not retryable or attempt >= self._policy.max_retries:
                    raise ConnectionError(f"{method} {path}: {error}") from error
                await self._sleep(self._policy.delay(attempt, None))
                attempt += 1
                continue
            if response.is_success:
                return self._policy.result(response, file)
            if self._policy.should_retry(response, retryable, attempt):
                await self._sleep(self._policy.delay(attempt, retry_after_of(response)))
                attempt += 1
                continue
            raise self._policy.error(response)

    @property
    def test_mode(self) -> bool:
        """True for a test key (``dlv_test_...``): what it creates is test data (livemode false)."""
        return is_test_key(self._policy.api_key)

    async def simulate(self, tracking_ref: str, to: str, *, reason: Optional[str] = None,
                       headers: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
        """Test mode: ``Client.simulate`` for asyncio (every step the street takes on the way to ``to``)."""
        status = (await self.get_order(tracking_ref, headers=headers))["order"]["status"]
        for _ in range(MAX_STEPS):
            step = next_simulated_step(status, to)
            moved = await self.simulate_order(tracking_ref, simulate_body(step, reason), headers=headers)
            status = moved["order"]["status"]
            if reached(status, step, to):
                return moved
        raise RuntimeError(f"simulate: {tracking_ref} did not reach {to!r} in {MAX_STEPS} steps")

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
