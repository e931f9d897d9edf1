<?php
/**
 * Paid and cancelled orders pushed to the bridge (a loopback receiver), signed, and retried from the
 * dlv_push_queue table.
 *
 * @license MIT
 */
class OrderPushTest extends ModuleTestCase
{
    /** @var string this test's path on the receiver, so its captures are its own */
    private $tag;

    protected function setUp(): void
    {
        parent::setUp();
        $this->tag = bin2hex(random_bytes(6));
        $this->useReceiver('ok');
        Configuration::updateValue('DLV_CONNECTION_ID', 'con_test42');
        Configuration::updateValue('DLV_SHOP_SECRET', self::env('DLV_TEST_SHOP_SECRET'));
    }

    private function useReceiver($mode)
    {
        Configuration::updateValue('DLV_API_BASE_URL', self::env('DLV_TEST_RECEIVER') . '/' . $mode . '/' . $this->tag);
    }

    /** What the receiver got for this test: [{mode, headers, body}]. */
    private function captured()
    {
        return json_decode(file_get_contents(self::env('DLV_TEST_RECEIVER') . '/captured/' . $this->tag), true);
    }

    private function order($state = 2)
    {
        $id = PsTest::save('Order', [
            'reference' => 'XKBKNABJK', 'id_carrier' => $this->carrierId('express'),
            'id_customer' => PsTest::save('Customer', ['email' => 'camille@example.fr', 'firstname' => 'Camille', 'lastname' => 'Durand']),
            'id_address_delivery' => self::address('75011'),
            'id_currency' => PsTest::save('Currency', ['iso_code' => 'EUR']),
            'current_state' => $state, 'total_paid_tax_incl' => 59.9, 'date_upd' => '2026-11-23 15:04:05',
            'lines' => [['product_id' => 1, 'product_name' => 'Théière <fonte>', 'product_quantity' => 2, 'product_weight' => 0.45]],
            'paid_states' => 1,
        ]);

        return new Order($id);
    }

    private function state($id, $paid)
    {
        return new OrderState(PsTest::save('OrderState', ['id' => $id, 'paid' => $paid]));
    }

    private function queue()
    {
        return array_values(PsTest::$tables['ps_dlv_push_queue']);
    }

    public function testAPaidOrderIsPushedOnceSignedWithTheContractBody()
    {
        $order = $this->order();
        // PaymentModule::validateOrder() fires both hooks for an order created paid.
        $this->module->hookActionOrderStatusPostUpdate(['newOrderStatus' => $this->state(2, true), 'id_order' => $order->id]);
        $this->module->hookActionValidateOrder(['order' => $order, 'orderStatus' => $this->state(2, true)]);

        $pushes = $this->captured();
        $this->assertCount(1, $pushes);
        $push = $pushes[0];
        $this->assertSame('application/json', $push['headers']['content-type']);
        $this->assertSame('con_test42', $push['headers']['x-dlv-connection']);
        $this->assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $push['headers']['x-dlv-delivery-id']);
        // Signed over the time of sending and the body, so the bridge can refuse a replay.
        $timestamp = $push['headers']['x-dlv-timestamp'];
        $this->assertMatchesRegularExpression('/^\d+$/', $timestamp);
        $this->assertLessThan(60, abs((int) $timestamp - time()));
        $this->assertSame(
            base64_encode(hash_hmac('sha256', $timestamp . '.' . $push['body'], self::env('DLV_TEST_SHOP_SECRET'), true)),
            $push['headers']['x-dlv-signature']
        );
        $this->assertSame([
            'event' => 'order.paid',
            'shop_url' => 'https://boutique.example.fr',
            'order' => [
                'id' => $order->id, 'reference' => 'XKBKNABJK', 'id_carrier' => $this->carrierId('express'),
                'carrier_service' => 'express', 'current_state' => 2, 'total_paid_tax_incl' => '59.90',
                'currency' => 'EUR', 'date_upd' => '2026-11-23 15:04:05',
                'customer' => ['email' => 'camille@example.fr', 'firstname' => 'Camille', 'lastname' => 'Durand'],
                'delivery_address' => ['company' => '', 'firstname' => 'Camille', 'lastname' => 'Durand',
                    'address1' => '12 rue Oberkampf', 'address2' => 'Bât. B', 'postcode' => '75011', 'city' => 'Paris',
                    'country_iso' => 'FR', 'phone' => '', 'phone_mobile' => '0612345678'],
                'products' => [['id_product' => 1, 'name' => 'Théière <fonte>', 'quantity' => 2, 'weight_kg' => '0.450']],
            ],
        ], json_decode($push['body'], true));
        $this->assertSame([], $this->queue(), 'accepted: nothing left to send');
    }

    public function testUnpaidStatesPushNothingAndACancellationIsPushed()
    {
        $order = $this->order(10);
        $this->module->hookActionValidateOrder(['order' => $order, 'orderStatus' => $this->state(10, false)]);
        $this->module->hookActionOrderStatusPostUpdate(['newOrderStatus' => $this->state(10, false), 'id_order' => $order->id]);
        $this->assertSame([], $this->captured());

        $order->paid_states = 3;
        $order->update();
        $this->module->hookActionOrderStatusPostUpdate(['newOrderStatus' => $this->state(4, true), 'id_order' => $order->id]);
        $this->assertSame([], $this->captured(), 'a later paid state (shipped) of an order already paid');

        $this->module->hookActionOrderStatusPostUpdate(['newOrderStatus' => $this->state(6, false), 'id_order' => $order->id]);
        $pushes = $this->captured();
        $this->assertCount(1, $pushes);
        $this->assertSame('order.cancelled', json_decode($pushes[0]['body'], true)['event']);
    }

    public function testAFailedPushIsRetriedWithTheSameDeliveryIdAndBytesSignedAnew()
    {
        $now = 1_800_000_000;
        DlvPushQueue::$clock = function () use (&$now) {
            return $now;
        };
        $this->useReceiver('fail');
        $order = $this->order();
        $this->module->hookActionValidateOrder(['order' => $order, 'orderStatus' => $this->state(2, true)]);
        $queued = $this->queue();
        $this->assertCount(1, $queued);
        $this->assertSame(1, (int) $queued[0]['attempts']);
        $this->assertSame('answered 503', $queued[0]['last_error']);
        $this->assertSame(date('Y-m-d H:i:s', $now + 60), $queued[0]['next_attempt']);

        // The shop cancels before the retry: the cancellation waits behind the payment.
        $this->useReceiver('ok');
        $this->module->hookActionOrderStatusPostUpdate(['newOrderStatus' => $this->state(6, false), 'id_order' => $order->id]);
        $this->assertCount(1, $this->captured(), 'only the first, failed, attempt');
        $this->assertCount(2, $this->queue());

        $now += 61;
        $this->module->hookActionCronJob();
        $pushes = $this->captured();
        $this->assertCount(3, $pushes);
        $this->assertSame(['fail', 'ok', 'ok'], array_column($pushes, 'mode'));
        $this->assertSame($pushes[0]['headers']['x-dlv-delivery-id'], $pushes[1]['headers']['x-dlv-delivery-id']);
        $this->assertSame($pushes[0]['body'], $pushes[1]['body']);
        // Each attempt is signed with its own time: a retry is no replay.
        $this->assertSame((string) 1_800_000_000, $pushes[0]['headers']['x-dlv-timestamp']);
        $this->assertSame((string) 1_800_000_061, $pushes[1]['headers']['x-dlv-timestamp']);
        $this->assertNotSame($pushes[0]['headers']['x-dlv-signature'], $pushes[1]['headers']['x-dlv-signature']);
        $this->assertSame('order.cancelled', json_decode($pushes[2]['body'], true)['event']);
        $this->assertNotSame($pushes[0]['headers']['x-dlv-delivery-id'], $pushes[2]['headers']['x-dlv-delivery-id']);
        $this->assertSame([], $this->queue());
    }

    public function testAnEventIsDroppedAndLoggedAfterTwentyFailures()
    {
        $now = 1_800_000_000;
        DlvPushQueue::$clock = function () use (&$now) {
            return $now;
        };
        $this->useReceiver('fail');
        $this->module->hookActionValidateOrder(['order' => $this->order(), 'orderStatus' => $this->state(2, true)]);
        for ($i = 1; $i < DlvPushQueue::MAX_ATTEMPTS; ++$i) {
            $now += 6 * 3600;
            $this->module->hookActionCronJob();
        }
        $this->assertCount(DlvPushQueue::MAX_ATTEMPTS, $this->captured());
        $this->assertSame([], $this->queue());
        $this->assertStringContainsString('dropped after 20 attempts', end(PsTest::$logs)[1]);
    }

    public function testWithoutConnectionSettingsEventsWaitInTheQueue()
    {
        Configuration::updateValue('DLV_SHOP_SECRET', '');
        $this->module->hookActionValidateOrder(['order' => $this->order(), 'orderStatus' => $this->state(2, true)]);
        $this->assertSame([], $this->captured());
        $this->assertSame('no connection id or shop secret in the module settings', $this->queue()[0]['last_error']);
    }
}
