"""Test mode on the SDK's side: which keys are test keys, and the way a test order takes through the
street to a step (``Client.simulate`` walks it one ``POST /orders/{trackingRef}/simulate`` at a time)."""
from typing import Any, Dict, Optional

#: The steps ``POST /orders/{trackingRef}/simulate`` accepts.
STEPS = ("picked_up", "in_transit", "out_for_delivery", "delivered", "failed_attempt", "returned")
#: Enough steps for the longest way: pending to returned is 8 (three rounds at the door).
MAX_STEPS = 10
# The street's road before the door, in order: each status moves only to the next.
_ROAD = ("pending", "picked_up", "in_transit", "out_for_delivery")


def is_test_key(api_key: str) -> bool:
    """Whether an API key is a test key (``dlv_test_...``): its orders are test orders (livemode false)."""
    return api_key.startswith("dlv_test_")


def next_simulated_step(status: str, target: str) -> str:
    """The one step a test order in ``status`` makes next on its way to ``target``, as a courier's
    scans would move it: along the road, then the door (a returned parcel is one whose third door
    attempt failed). From where ``target`` cannot be reached (delivered, cancelled, a road step
    passed) it is ``target`` itself, so that the API answers why not (409 simulation_out_of_order)."""
    at = _ROAD.index(status) if status in _ROAD else -1
    goal = _ROAD.index(target) if target in _ROAD else -1
    if goal > 0:
        return _ROAD[at + 1] if 0 <= at < goal else target
    if 0 <= at < len(_ROAD) - 1:
        return _ROAD[at + 1]
    if status == "out_for_delivery":
        return "failed_attempt" if target == "returned" else target
    return "out_for_delivery" if status == "failed_attempt" else target


def simulate_body(step: str, reason: Optional[str]) -> Dict[str, Any]:
    return {"to": step, "reason": reason} if step == "failed_attempt" and reason else {"to": step}


def reached(status: str, step: str, target: str) -> bool:
    """Whether the walk is over: the order is at ``target``, or ``target``'s own step was made (a
    third failed attempt also returns the parcel)."""
    return status == target or (step == target and target != "returned")
