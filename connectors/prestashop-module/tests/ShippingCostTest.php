<?php
/**
 * getOrderShippingCost() against the real API: our price per carrier, false whenever we cannot price.
 *
 * @license MIT
 */
class ShippingCostTest extends ModuleTestCase
{
    protected function setUp(): void
    {
        parent::setUp();
        Configuration::updateValue('DLV_API_BASE_URL', self::env('DLV_TEST_API_BASE'));
        Configuration::updateValue('DLV_API_KEY', self::env('DLV_TEST_API_KEY'));
    }

    private function costFor($service, Cart $cart)
    {
        $this->module->id_carrier = $this->carrierId($service);

        return $this->module->getOrderShippingCost($cart, 4.5);
    }

    private function apiRates(array $body)
    {
        $answer = DlvHttp::withStreams(self::env('DLV_TEST_API_BASE') . '/public/v1/rates', [
            'Authorization: Bearer ' . self::env('DLV_TEST_API_KEY'), 'Content-Type: application/json',
        ], json_encode($body), 5);
        $rates = [];
        foreach (json_decode($answer['body'], true)['rates'] as $rate) {
            $rates[$rate['service']] = $rate;
        }

        return $rates;
    }

    public function testEachCarrierCostsItsServicePriceWithOneRequestPerCart()
    {
        $expected = $this->apiRates(['delivery_zip' => '75011', 'unit_weight' => '2400g']);
        $this->assertCount(3, $expected);
        $cart = self::cart('75011', 2.4);
        foreach (['express', 'standard', 'economy', 'express'] as $service) {
            $this->assertSame($expected[$service]['price_eur'], $this->costFor($service, $cart), $service);
        }
        $this->assertSame(1, $this->requests, 'one request for the three carriers, asked again and again');
        $this->assertSame(
            ['delivery_zip' => '75011', 'unit_type' => 'parcel', 'quantity' => 1,
                'delivery_address' => '12 rue Oberkampf, Bât. B, 75011 Paris', 'unit_weight' => '2400g'],
            DlvRateQuote::requestFor($cart)
        );
        $this->assertSame($expected['express']['price_eur'], $this->module->getOrderShippingCostExternal($cart));
    }

    public function testACarrierWithATaxRuleCostsThePriceExcludingVat()
    {
        $expected = $this->apiRates(['delivery_zip' => '93200', 'unit_weight' => '500g']);
        PsTest::$rows['Carrier'][$this->carrierId('standard')]['tax_rate'] = 20.0;
        $this->assertSame($expected['standard']['price_excl_tax_eur'], $this->costFor('standard', self::cart('93200', 0.5)));
    }

    public function testTheWeightIsConvertedFromTheShopUnit()
    {
        PsTest::$config['PS_WEIGHT_UNIT'] = 'lb';
        $this->assertSame('908g', DlvRateQuote::requestFor(self::cart('75011', 2))['unit_weight']);
        PsTest::$config['PS_WEIGHT_UNIT'] = 'g';
        $this->assertSame('451g', DlvRateQuote::requestFor(self::cart('75011', 450.2))['unit_weight']);
        $this->assertArrayNotHasKey('unit_weight', DlvRateQuote::requestFor(self::cart('75011', 0)));
    }

    public function testHiddenOutOfZone()
    {
        $this->assertFalse($this->costFor('express', self::cart('69001', 1)));
        $this->assertSame(1, $this->requests);
    }

    public function testHiddenOutsideFranceWithoutAsking()
    {
        $this->assertFalse($this->costFor('express', self::cart('1000', 1, 3)));
        $this->assertSame(0, $this->requests);
    }

    public function testHiddenOnARefusedKeyWhichIsNotLogged()
    {
        Configuration::updateValue('DLV_API_KEY', 'dlv_' . str_repeat('0', 64));
        $this->assertFalse($this->costFor('standard', self::cart('75011', 1)));
        $this->assertCount(1, PsTest::$logs);
        $this->assertStringContainsString('401', PsTest::$logs[0][1]);
        $this->assertStringNotContainsString(str_repeat('0', 64), PsTest::$logs[0][1]);
    }

    public function testHiddenAfterTheTimeoutAndOnAnIncompleteAnswer()
    {
        Configuration::updateValue('DLV_API_BASE_URL', self::env('DLV_TEST_RECEIVER') . '/slow');
        $started = microtime(true);
        $this->assertFalse($this->costFor('express', self::cart('75011', 1)));
        $this->assertLessThan(3.5, microtime(true) - $started);

        Configuration::updateValue('DLV_API_BASE_URL', self::env('DLV_TEST_RECEIVER') . '/incomplete');
        $this->assertFalse($this->costFor('express', self::cart('75011', 1)), 'express is complete, but standard is not');
    }

    public function testHiddenWithoutAKeyAndForCarriersNotOurs()
    {
        Configuration::updateValue('DLV_API_KEY', '');
        $this->assertFalse($this->costFor('express', self::cart('75011', 1)));
        $this->module->id_carrier = 4242;
        $this->assertFalse($this->module->getOrderShippingCost(self::cart('75011', 1), 4.5));
        $this->assertSame(0, $this->requests);
    }
}
