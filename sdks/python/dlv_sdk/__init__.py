"""Official Python SDK of the Delivery Orders API."""
from ._client import AsyncClient, Client
from ._generated import API_VERSION, ERROR_CODES, ErrorCode
from ._version import __version__
from ._simulation import is_test_key
from .errors import ApiError, ConnectionError, DlvError, WebhookVerificationError
from .webhooks import sign as sign_webhook
from .webhooks import verify_webhook

__all__ = [
    "API_VERSION",
    "ERROR_CODES",
    "ApiError",
    "AsyncClient",
    "Client",
    "ConnectionError",
    "DlvError",
    "ErrorCode",
    "WebhookVerificationError",
    "__version__",
    "is_test_key",
    "sign_webhook",
    "verify_webhook",
]
