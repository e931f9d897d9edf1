"""The Python SDK's tests, against a running API (test/sdk-python.test.ts starts one and sets the
environment: DLV_BASE_URL, DLV_API_KEY and DLV_RETRY_API_KEY — two brands' test keys with no order
yet —, DLV_LIVE_API_KEY — the first brand's live key — and DLV_WEBHOOK_FIXTURE, a delivery the API
made to a test endpoint: secret, body, headers)."""
import asyncio
import base64
import json
import os
import re
import time

import httpx
import pytest

from dlv_sdk import ApiError, AsyncClient, Client, WebhookVerificationError, verify_webhook

BASE = os.environ.get("DLV_BASE_URL")
pytestmark = pytest.mark.skipif(not BASE, reason="DLV_BASE_URL is not set (run through test/sdk-python.test.ts)")
ORDER = {
    "customer_email": "jane@example.com",
    "delivery_address": "12 rue Oberkampf 75011 Paris",
    "delivery_recipient": "Jane Doe",
    "delivery_phone": "06 12 34 56 78",
    "amount_eur": 49.9,
}


@pytest.fixture(scope="module")
def client():
    with Client(os.environ["DLV_API_KEY"], base_url=BASE) as dlv:
        yield dlv


def test_creates_fetches_lists_page_after_page_and_cancels_with_a_test_key(client):
    assert client.test_mode
    created = [client.create_order({**ORDER, "reference": f"PY-{i}"}) for i in range(5)]
    assert created[0]["order"]["status"] == "pending"
    assert created[0]["order"]["livemode"] is False
    assert client.get_order(created[0]["trackingRef"])["order"]["reference"] == "PY-0"
    sizes, cursor = [], None
    while True:
        page = client.list_orders(limit=2, cursor=cursor)
        sizes.append(len(page["orders"]))
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sizes == [2, 2, 1]
    assert sorted(o["reference"] for o in client.iterate_orders(limit=2)) == [f"PY-{i}" for i in range(5)]
    assert client.cancel_order(created[1]["trackingRef"])["order"]["status"] == "cancelled"
    assert client.get_order_label(created[0]["trackingRef"]).startswith(b"%PDF-")


def test_raises_api_error_with_the_envelope_code(client):
    with pytest.raises(ApiError) as missing:
        client.get_order("DLV-0000000000")
    assert (missing.value.code, missing.value.status) == ("not_found", 404)
    assert missing.value.request_id
    with pytest.raises(ApiError) as invalid:
        client.create_order({"customer_email": "not an e-mail"})
    assert invalid.value.code == "invalid_request"
    assert "customer_email" in [d["field"] for d in invalid.value.details]
    with Client("dlv_" + "0" * 64, base_url=BASE) as stranger, pytest.raises(ApiError) as unauthorized:
        stranger.get_me()
    assert unauthorized.value.code == "unauthorized"


class FlakyNetwork(httpx.BaseTransport):
    """The network between the SDK and the API: a 429 first, then an answer lost after the API acted."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.keys = []

    def handle_request(self, request):
        if request.method == "POST":
            self.keys.append(request.headers.get("idempotency-key"))
            if len(self.keys) == 1:
                return httpx.Response(429, headers={"retry-after": "1"}, content=b"{}")
            if len(self.keys) == 2:
                self.inner.handle_request(request).read()
                return httpx.Response(502, content=b"bad gateway")
        return self.inner.handle_request(request)


def test_retries_a_429_and_a_lost_answer_with_one_idempotency_key():
    network = FlakyNetwork()
    waits = []
    with Client(os.environ["DLV_RETRY_API_KEY"], base_url=BASE, http_client=httpx.Client(transport=network),
                sleep=waits.append) as dlv:
        created = dlv.create_order(ORDER)
        assert len(network.keys) == 3 and len(set(network.keys)) == 1
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", network.keys[0])
        assert waits[0] == 1.0
        assert [o["tracking_ref"] for o in dlv.iterate_orders()] == [created["trackingRef"]]


def test_gives_up_after_max_retries():
    attempts = []

    def busy(request):
        attempts.append(request)
        return httpx.Response(429, headers={"retry-after": "0"},
                              json={"ok": False, "error": "rate_limited", "message": "Slow down", "request_id": "r"})

    with Client("dlv_x", base_url=BASE, http_client=httpx.Client(transport=httpx.MockTransport(busy)),
                sleep=lambda s: None) as dlv, pytest.raises(ApiError) as error:
        dlv.list_orders()
    assert (error.value.code, error.value.retry_after, len(attempts)) == ("rate_limited", 0, 3)


def test_the_async_client_lists_and_types_errors():
    async def scenario():
        async with AsyncClient(os.environ["DLV_API_KEY"], base_url=BASE) as dlv:
            refs = [o["reference"] async for o in dlv.iterate_orders(limit=2)]
            with pytest.raises(ApiError) as missing:
                await dlv.get_order("DLV-0000000000")
            return refs, missing.value.code

    refs, code = asyncio.run(scenario())
    assert sorted(r for r in refs if r) == [f"PY-{i}" for i in range(5)]
    assert code == "not_found"


def test_verifies_a_test_mode_webhook_delivery_and_refuses_a_tampered_one():
    with open(os.environ["DLV_WEBHOOK_FIXTURE"], encoding="utf-8") as file:
        fixture = json.load(file)
    event = verify_webhook(fixture["secret"], fixture["body"], fixture["headers"])
    assert event["type"] == "order.created"
    assert event["data"]["order"]["livemode"] is False  # a test endpoint hears test orders
    assert verify_webhook(fixture["secret"], fixture["body"].encode(), fixture["headers"])["type"] == "order.created"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(fixture["secret"], fixture["body"].replace("order", "Order"), fixture["headers"])
    with pytest.raises(WebhookVerificationError, match="too far"):
        verify_webhook(fixture["secret"], fixture["body"], fixture["headers"], now=time.time() + 600)
    other = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(WebhookVerificationError):
        verify_webhook(other, fixture["body"], fixture["headers"])


def test_simulates_a_test_order_and_refuses_a_live_key(client):
    ref = client.create_order(ORDER)["trackingRef"]
    assert client.simulate_order(ref, {"to": "picked_up"})["order"]["status"] == "picked_up"
    assert client.simulate(ref, "delivered")["order"]["status"] == "delivered"
    history = [e["status"] for e in client.get_order(ref)["order"]["events"]]
    assert history == ["pending", "picked_up", "in_transit", "out_for_delivery", "delivered"]
    with pytest.raises(ApiError) as again:
        client.simulate(ref, "delivered")
    assert (again.value.code, again.value.status) == ("simulation_out_of_order", 409)

    other = client.create_order(ORDER)["trackingRef"]
    assert client.simulate(other, "returned", reason="refused")["order"]["status"] == "returned"
    failed = [e for e in client.get_order(other)["order"]["events"] if e["status"] == "failed_attempt"]
    assert len(failed) == 3

    async def walk_async():
        async with AsyncClient(os.environ["DLV_API_KEY"], base_url=BASE) as dlv:
            third = (await dlv.create_order(ORDER))["trackingRef"]
            return (await dlv.simulate(third, "failed_attempt", reason="absent"))["order"]["status"]

    assert asyncio.run(walk_async()) == "failed_attempt"

    with Client(os.environ["DLV_LIVE_API_KEY"], base_url=BASE) as live:
        assert not live.test_mode
        live_ref = live.create_order(ORDER)["trackingRef"]
        with pytest.raises(ApiError) as refused:
            live.simulate(live_ref, "picked_up")
        assert (refused.value.code, refused.value.status) == ("test_mode_only", 403)
    with pytest.raises(ApiError) as unseen:
        client.get_order(live_ref)
    assert unseen.value.code == "not_found"
