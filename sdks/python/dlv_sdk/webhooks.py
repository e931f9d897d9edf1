"""Webhook verification as Standard Webhooks specifies (https://www.standardwebhooks.com)."""
import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from .errors import WebhookVerificationError


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    """The ``v1`` signature of a payload (what the API sends; useful to test a receiver)."""
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    mac = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return base64.b64encode(mac).decode()


def verify_webhook(
    secret: str,
    body: Union[str, bytes],
    headers: Mapping[str, str],
    *,
    tolerance_seconds: int = 300,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and returns its event.

    The HMAC-SHA256 of ``webhook-id.webhook-timestamp.body`` under the subscription's ``whsec_``
    secret must be one of the ``webhook-signature`` entries, and the timestamp within
    ``tolerance_seconds`` of now. Pass the raw body, as received (``request.get_data()``).
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    msg_id = lowered.get("webhook-id")
    timestamp = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, -timestamp or -signature")
    if not timestamp.isdigit():
        raise WebhookVerificationError("Invalid webhook-timestamp")
    if abs((time.time() if now is None else now) - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("The webhook-timestamp is too far from now (a replay?)")
    text = body.decode() if isinstance(body, bytes) else body
    expected = sign(secret, msg_id, int(timestamp), text)
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(text)
    raise WebhookVerificationError("No signature matches the secret")
