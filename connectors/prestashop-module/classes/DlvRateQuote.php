<?php
/**
 * The rates for a cart: one parcel of its total weight to its delivery address, asked once per cart,
 * address and weight (PrestaShop asks each carrier's cost many times per page).
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvRateQuote
{
    /** @var array<string, array|null> answers of this request, by cart and request body */
    private static $cache = [];

    /**
     * The request body for a cart, or null when there is nothing to ask (no address yet, not in France).
     */
    public static function requestFor(Cart $cart)
    {
        $address = new Address((int) $cart->id_address_delivery);
        if (!Validate::isLoadedObject($address) || Country::getIsoById((int) $address->id_country) !== 'FR') {
            return null;
        }
        $postcode = trim((string) $address->postcode);
        if ($postcode === '') {
            return null;
        }
        $body = ['delivery_zip' => substr($postcode, 0, 10), 'unit_type' => 'parcel', 'quantity' => 1];
        $street = implode(', ', array_filter([trim((string) $address->address1), trim((string) $address->address2)]));
        if ($street !== '') {
            $body['delivery_address'] = mb_substr($street . ', ' . trim($postcode . ' ' . $address->city), 0, 500);
        }
        $grams = DlvWeight::wholeGrams($cart->getTotalWeight());
        // A cart of weightless products is quoted at the API's default unit weight (1 kg).
        if ($grams > 0) {
            $body['unit_weight'] = $grams . 'g';
        }

        return $body;
    }

    /**
     * The rates by service for the cart, [] out of zone, null on error (answers reused in this request).
     */
    public static function ratesFor(Cart $cart, DlvApiClient $client, $apiKey)
    {
        $body = self::requestFor($cart);
        if ($body === null) {
            return [];
        }
        $key = (int) $cart->id . ':' . (int) $cart->id_address_delivery . ':' . md5(json_encode($body) . $apiKey);
        if (!array_key_exists($key, self::$cache)) {
            self::$cache[$key] = $client->rates($apiKey, $body);
        }

        return self::$cache[$key];
    }

    /** Forgets this request's answers (tests; a long-running CLI process). */
    public static function clearCache()
    {
        self::$cache = [];
    }
}
