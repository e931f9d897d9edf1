"""The SDK's errors: ``ApiError`` carries the API's error envelope, its ``code`` a discriminant."""
from typing import Any, Dict, List, Mapping, Optional


class DlvError(Exception):
    """Base of every error this SDK raises."""


class ConnectionError(DlvError):  # noqa: A001 - the SDK's own, under its namespace
    """The request got no answer from the API (network failure, timeout)."""


class ApiError(DlvError):
    """The API answered with an error: ``code`` is the envelope's ``error`` (one of ERROR_CODES)."""

    def __init__(self, status: int, envelope: Mapping[str, Any], retry_after: Optional[int] = None) -> None:
        self.status = status
        self.envelope: Dict[str, Any] = dict(envelope)
        self.code: str = str(envelope.get("error", ""))
        self.message: str = str(envelope.get("message", ""))
        self.request_id: str = str(envelope.get("request_id", ""))
        self.details: List[Dict[str, str]] = list(envelope.get("details") or [])
        self.retry_after = retry_after
        super().__init__(f"{self.code}: {self.message} (request {self.request_id})")


class WebhookVerificationError(DlvError):
    """A delivery whose signature, timestamp or headers do not check out: answer 400 and drop it."""
