<?php
/**
 * Our service as the module sees it: POST /public/v1/rates and POST /connectors/prestashop/orders.
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvApiClient
{
    /** The checkout waits at most this long for a rate (seconds). */
    const RATES_TIMEOUT = 2;

    /** An order push runs after the order is saved: it may wait a little longer. */
    const PUSH_TIMEOUT = 5;

    const SERVICES = ['express', 'standard', 'economy'];

    /** @var string */
    private $baseUrl;

    /** @var callable (url, headers, body, timeout) → ['status', 'body'] | ['error'] */
    private $post;

    public function __construct($baseUrl, callable $post)
    {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->post = $post;
    }

    /**
     * The rates by service (empty out of zone), or null on any error: then no carrier of ours shows.
     *
     * @return array<string, array{service: string, name: string, price_eur: float, price_excl_tax_eur: float}>|null
     */
    public function rates($apiKey, array $body)
    {
        if ($apiKey === '') {
            self::log('no API key in the module settings: the Livraison DLV carriers are hidden');

            return null;
        }
        $answer = call_user_func($this->post, $this->baseUrl . '/public/v1/rates', [
            'Authorization' => 'Bearer ' . $apiKey,
            'Content-Type' => 'application/json',
            'Accept' => 'application/json',
        ], json_encode($body), self::RATES_TIMEOUT);
        if (isset($answer['error'])) {
            self::log('rates request failed: ' . $answer['error']);

            return null;
        }
        $data = json_decode($answer['body'], true);
        if ($answer['status'] !== 200 || !is_array($data) || ($data['ok'] ?? null) !== true) {
            $code = is_array($data) && isset($data['error']) ? (string) $data['error'] : 'unreadable answer';
            self::log(sprintf('rates request answered %d (%s)', $answer['status'], $code));

            return null;
        }
        if (($data['available'] ?? null) !== true) {
            return [];
        }

        return self::validRates($data['rates'] ?? null);
    }

    /**
     * Sends one order event, signed with the shop secret and the time of sending; true when our side
     * accepted it (2xx). The bridge refuses a push more than 5 minutes off its clock, or one it has
     * seen already: each attempt is signed anew.
     *
     * @param int|null $timestamp Unix seconds; null is time()
     *
     * @return true|string true, or why it failed
     */
    public function pushOrder($json, $deliveryId, $connectionId, $secret, $timestamp = null)
    {
        if ($connectionId === '' || $secret === '') {
            return 'no connection id or shop secret in the module settings';
        }
        $timestamp = (string) ($timestamp === null ? time() : (int) $timestamp);
        $answer = call_user_func($this->post, $this->baseUrl . '/connectors/prestashop/orders', [
            'Content-Type' => 'application/json',
            'X-Dlv-Connection' => $connectionId,
            'X-Dlv-Delivery-Id' => $deliveryId,
            'X-Dlv-Timestamp' => $timestamp,
            'X-Dlv-Signature' => self::signature($json, $secret, $timestamp),
        ], $json, self::PUSH_TIMEOUT);
        if (isset($answer['error'])) {
            return 'request failed: ' . $answer['error'];
        }
        if ($answer['status'] < 200 || $answer['status'] > 299) {
            return 'answered ' . $answer['status'];
        }

        return true;
    }

    /** base64(HMAC-SHA256(secret, "{timestamp}.{raw body}")): what the bridge recomputes. */
    public static function signature($rawBody, $secret, $timestamp)
    {
        return base64_encode(hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret, true));
    }

    /** Every rate complete, or null: never a carrier with a guessed price. */
    private static function validRates($rates)
    {
        if (!is_array($rates)) {
            self::log('rates answer without a rates list');

            return null;
        }
        $byService = [];
        foreach ($rates as $rate) {
            $ok = is_array($rate)
                && in_array($rate['service'] ?? null, self::SERVICES, true)
                && is_string($rate['name'] ?? null)
                && is_numeric($rate['price_eur'] ?? null) && $rate['price_eur'] >= 0
                && is_numeric($rate['price_excl_tax_eur'] ?? null) && $rate['price_excl_tax_eur'] >= 0;
            if (!$ok) {
                self::log('rates answer with an incomplete rate: none shown');

                return null;
            }
            $byService[$rate['service']] = [
                'service' => $rate['service'],
                'name' => $rate['name'],
                'price_eur' => (float) $rate['price_eur'],
                'price_excl_tax_eur' => (float) $rate['price_excl_tax_eur'],
            ];
        }

        return $byService;
    }

    /** A warning in Advanced Parameters → Logs (never the key or the secret). */
    public static function log($message)
    {
        PrestaShopLogger::addLog('dlvshipping: ' . $message, 2, null, 'Module', null, true);
    }
}
