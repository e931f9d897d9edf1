<?php
/**
 * An order event as the bridge reads it (order.paid, order.cancelled), queued then sent.
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvOrderPush
{
    const PAID = 'order.paid';
    const CANCELLED = 'order.cancelled';

    /** @var array<string, true> events queued in this PHP request: a payment fires two hooks */
    private static $queued = [];

    /** Queues the event once per request and sends everything due; the order is never held up by it. */
    public static function push(Order $order, $event, DlvApiClient $client)
    {
        $key = (int) $order->id . ':' . $event;
        if (!isset(self::$queued[$key])) {
            self::$queued[$key] = true;
            DlvPushQueue::add((int) $order->id, $event, json_encode(self::body($order, $event), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
        }
        self::flush($client);
    }

    /** Sends what is due (also on the cron hook and on later order events). */
    public static function flush(DlvApiClient $client)
    {
        $connectionId = (string) Configuration::get('DLV_CONNECTION_ID');
        $secret = (string) Configuration::get('DLV_SHOP_SECRET');

        return DlvPushQueue::flush(function (array $row) use ($client, $connectionId, $secret) {
            return $client->pushOrder($row['body'], $row['delivery_id'], $connectionId, $secret, DlvPushQueue::now());
        });
    }

    /** Forgets what this request queued (tests). */
    public static function reset()
    {
        self::$queued = [];
    }

    /** The contract's body: the order, its customer, delivery address and products. */
    public static function body(Order $order, $event)
    {
        $customer = new Customer((int) $order->id_customer);
        $address = new Address((int) $order->id_address_delivery);
        $currency = new Currency((int) $order->id_currency);
        $products = [];
        foreach ($order->getProducts() as $line) {
            $products[] = [
                'id_product' => (int) $line['product_id'],
                'name' => (string) $line['product_name'],
                'quantity' => (int) $line['product_quantity'],
                'weight_kg' => DlvWeight::kilograms($line['product_weight']),
            ];
        }

        return [
            'event' => $event,
            'shop_url' => rtrim(Context::getContext()->shop->getBaseURL(true), '/'),
            'order' => [
                'id' => (int) $order->id,
                'reference' => (string) $order->reference,
                'id_carrier' => (int) $order->id_carrier,
                'carrier_service' => DlvCarriers::serviceOf((int) $order->id_carrier),
                'current_state' => (int) $order->current_state,
                'total_paid_tax_incl' => number_format((float) $order->total_paid_tax_incl, 2, '.', ''),
                'currency' => (string) $currency->iso_code,
                'date_upd' => (string) $order->date_upd,
                'customer' => [
                    'email' => (string) $customer->email,
                    'firstname' => (string) $customer->firstname,
                    'lastname' => (string) $customer->lastname,
                ],
                'delivery_address' => [
                    'company' => (string) $address->company,
                    'firstname' => (string) $address->firstname,
                    'lastname' => (string) $address->lastname,
                    'address1' => (string) $address->address1,
                    'address2' => (string) $address->address2,
                    'postcode' => (string) $address->postcode,
                    'city' => (string) $address->city,
                    'country_iso' => (string) Country::getIsoById((int) $address->id_country),
                    'phone' => (string) $address->phone,
                    'phone_mobile' => (string) $address->phone_mobile,
                ],
                'products' => $products,
            ],
        ];
    }
}
