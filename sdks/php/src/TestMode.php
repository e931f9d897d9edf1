<?php

declare(strict_types=1);

namespace Dlv\Sdk;

/**
 * Test mode's rules on the SDK's side: which keys are test keys, and the way a test order takes
 * through the street to a step (Client::simulate walks it one POST /simulate at a time).
 */
final class TestMode
{
    /** The steps POST /orders/{trackingRef}/simulate accepts. */
    public const STEPS = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed_attempt', 'returned'];
    /** Enough steps for the longest way: pending to returned is 8 (three rounds at the door). */
    public const MAX_STEPS = 10;
    /** The street's road before the door, in order: each status moves only to the next. */
    private const ROAD = ['pending', 'picked_up', 'in_transit', 'out_for_delivery'];

    /** Whether an API key is a test key (dlv_test_…): its orders are test orders (livemode false). */
    public static function isTestKey(string $apiKey): bool
    {
        return str_starts_with($apiKey, 'dlv_test_');
    }

    /**
     * The one step a test order in $status makes next on its way to $target, as a courier's scans
     * would move it: along the road, then the door (a returned parcel is one whose third door attempt
     * failed). From where $target cannot be reached (delivered, cancelled, a road step passed) it is
     * $target itself, so that the API answers why not (409 simulation_out_of_order).
     */
    public static function nextStep(string $status, string $target): string
    {
        $at = array_search($status, self::ROAD, true);
        $goal = array_search($target, self::ROAD, true);
        if ($goal !== false && $goal > 0) {
            return $at !== false && $at < $goal ? self::ROAD[$at + 1] : $target;
        }
        if ($at !== false && $at < count(self::ROAD) - 1) {
            return self::ROAD[$at + 1];
        }
        if ($status === 'out_for_delivery') {
            return $target === 'returned' ? 'failed_attempt' : $target;
        }
        return $status === 'failed_attempt' ? 'out_for_delivery' : $target;
    }
}
