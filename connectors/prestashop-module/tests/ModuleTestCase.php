<?php
/**
 * Base of the module's tests: a freshly installed module, a French customer with a cart, and the
 * loopback services of test/php-packages.test.ts (DLV_TEST_API_BASE, DLV_TEST_API_KEY for the real
 * API; DLV_TEST_RECEIVER, DLV_TEST_SHOP_SECRET for pushes); tests needing them skip without them.
 *
 * @license MIT
 */
use PHPUnit\Framework\TestCase;

abstract class ModuleTestCase extends TestCase
{
    /** @var DlvShipping */
    protected $module;

    /** @var int requests the module sent */
    protected $requests = 0;

    protected function setUp(): void
    {
        PsTest::reset();
        DlvRateQuote::clearCache();
        DlvOrderPush::reset();
        DlvPushQueue::$clock = null;
        $this->module = new DlvShipping();
        $this->assertTrue($this->module->install());
        $this->module->http = function ($url, $headers, $body, $timeout) {
            ++$this->requests;

            return DlvHttp::post($url, $headers, $body, $timeout);
        };
    }

    protected static function env($name)
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            self::markTestSkipped($name . ' is not set: run through test/php-packages.test.ts');
        }

        return $value;
    }

    protected function carrierId($service)
    {
        return (int) Configuration::get('DLV_CARRIER_ID_' . strtoupper($service));
    }

    /** A delivery address in a country (8 is France, 3 Belgium). */
    protected static function address($postcode, $idCountry = 8)
    {
        return PsTest::save('Address', [
            'id_country' => $idCountry, 'company' => '', 'firstname' => 'Camille', 'lastname' => 'Durand',
            'address1' => '12 rue Oberkampf', 'address2' => 'Bât. B', 'postcode' => $postcode, 'city' => 'Paris',
            'phone' => '', 'phone_mobile' => '0612345678',
        ]);
    }

    protected static function cart($postcode, $weight, $idCountry = 8)
    {
        return new Cart(PsTest::save('Cart', ['id_address_delivery' => self::address($postcode, $idCountry), 'total_weight' => $weight]));
    }
}
