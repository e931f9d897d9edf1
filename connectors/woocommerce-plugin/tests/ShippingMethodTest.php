<?php
/**
 * calculate_shipping() against the real API: rates mapped for taxable and non-taxable instances,
 * nothing on any error, the cache.
 *
 * @package LivraisonDLV\Tests
 */

class ShippingMethodTest extends ApiTestCase {

	public function test_declares_the_method_for_zones_with_instance_settings() {
		$method = self::method();
		$this->assertSame( 'dlv', $method->id );
		foreach ( array( 'shipping-zones', 'instance-settings', 'instance-settings-modal' ) as $feature ) {
			$this->assertTrue( $method->supports( $feature ), $feature );
		}
		$this->assertSame( 'none', ( new DLV_Shipping_Method( 9 ) )->tax_status, 'default: our price incl. VAT' );
	}

	public function test_non_taxable_rates_cost_our_price_including_vat() {
		$this->use_real_api();
		$package = self::package( '75011', array( array( '1.2', 2 ) ) );
		$answer  = $this->api_answer( array( 'delivery_zip' => '75011', 'unit_weight' => '2400g' ) );
		$this->assertTrue( $answer['available'] );

		$method = self::method( 'none' );
		$method->calculate_shipping( $package );

		$this->assertCount( count( $answer['rates'] ), $method->rates );
		foreach ( $answer['rates'] as $expected ) {
			$rate = $method->rates[ 'dlv:' . $expected['service'] ];
			$this->assertSame( $expected['name'], $rate->get_label() );
			$this->assertEqualsWithDelta( $expected['price_eur'], $rate->get_cost(), 0.0001 );
			$this->assertSame( array(), $rate->get_taxes() );
			$this->assertSame( 'dlv', $rate->get_method_id() );
			$this->assertSame( 3, $rate->get_instance_id() );
			$this->assertSame( array( 'dlv_service' => $expected['service'] ), $rate->get_meta_data() );
		}
		$sent = $GLOBALS['wp_test']['http'][0];
		$this->assertSame( self::env( 'DLV_TEST_API_BASE' ) . '/public/v1/rates', $sent['url'] );
		$this->assertSame( 2, $sent['args']['timeout'] );
		$this->assertSame( 'Bearer ' . self::env( 'DLV_TEST_API_KEY' ), $sent['args']['headers']['Authorization'] );
		$this->assertSame( '2400g', json_decode( $sent['args']['body'], true )['unit_weight'] );
	}

	public function test_taxable_rates_cost_our_price_excluding_vat_and_woocommerce_adds_it() {
		$this->use_real_api();
		update_option( 'woocommerce_calc_taxes', 'yes' );
		$answer = $this->api_answer( array( 'delivery_zip' => '93200', 'unit_weight' => '500g' ) );

		$method = self::method( 'taxable' );
		$method->calculate_shipping( self::package( '93200', array( array( '0.5', 1 ) ) ) );

		$this->assertCount( count( $answer['rates'] ), $method->rates );
		foreach ( $answer['rates'] as $expected ) {
			$rate = $method->rates[ 'dlv:' . $expected['service'] ];
			$this->assertEqualsWithDelta( $expected['price_excl_tax_eur'], $rate->get_cost(), 0.0001 );
			// With the shop's 20 % shipping tax the customer pays our price incl. VAT (to the cent).
			$this->assertEqualsWithDelta( $expected['price_eur'], $rate->get_cost() + $rate->get_shipping_tax(), 0.011 );
		}
	}

	public function test_a_taxable_instance_in_a_shop_without_taxes_charges_the_price_including_vat() {
		$this->use_real_api();
		update_option( 'woocommerce_calc_taxes', 'no' );
		$answer = $this->api_answer( array( 'delivery_zip' => '75011', 'unit_weight' => '1000g' ) );
		$method = self::method( 'taxable' );
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$this->assertEqualsWithDelta( $answer['rates'][0]['price_eur'], $method->rates[ 'dlv:' . $answer['rates'][0]['service'] ]->get_cost(), 0.0001 );
	}

	public function test_nothing_out_of_zone() {
		$this->use_real_api();
		$method = self::method();
		$method->calculate_shipping( self::package( '69001', array( array( '1', 1 ) ) ) );
		$this->assertSame( array(), $method->rates );
		$this->assertCount( 1, $GLOBALS['wp_test']['http'] );
	}

	public function test_nothing_and_no_request_outside_france() {
		$this->use_real_api();
		$method = self::method();
		$method->calculate_shipping( self::package( '1000', array( array( '1', 1 ) ), 'BE' ) );
		$this->assertSame( array(), $method->rates );
		$this->assertSame( array(), $GLOBALS['wp_test']['http'] );
	}

	public function test_nothing_on_a_refused_key_and_the_key_is_not_logged() {
		update_option( 'dlv_api_base_url', self::env( 'DLV_TEST_API_BASE' ) );
		update_option( 'dlv_api_key', 'dlv_' . str_repeat( '0', 64 ) );
		$method = self::method();
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$this->assertSame( array(), $method->rates );
		$this->assertCount( 1, $GLOBALS['wp_test']['logs'] );
		$this->assertStringContainsString( '401', $GLOBALS['wp_test']['logs'][0][1] );
		$this->assertStringNotContainsString( str_repeat( '0', 64 ), $GLOBALS['wp_test']['logs'][0][1] );
		$this->assertSame( array( 'source' => 'livraison-dlv' ), $GLOBALS['wp_test']['logs'][0][2] );
	}

	public function test_nothing_without_a_key_and_no_request() {
		update_option( 'dlv_api_base_url', self::env( 'DLV_TEST_API_BASE' ) );
		$method = self::method();
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$this->assertSame( array(), $method->rates );
		$this->assertSame( array(), $GLOBALS['wp_test']['http'] );
	}

	public function test_nothing_after_the_two_second_timeout() {
		update_option( 'dlv_api_base_url', self::env( 'DLV_TEST_RECEIVER' ) . '/slow' );
		update_option( 'dlv_api_key', self::env( 'DLV_TEST_API_KEY' ) );
		$method  = self::method();
		$started = microtime( true );
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$elapsed = microtime( true ) - $started;
		$this->assertSame( array(), $method->rates );
		$this->assertGreaterThanOrEqual( 1.9, $elapsed );
		$this->assertLessThan( 3.5, $elapsed, 'the checkout waits 2 s, not the 5 s the server takes' );
	}

	public function test_nothing_when_an_answer_has_an_incomplete_rate() {
		update_option( 'dlv_api_base_url', self::env( 'DLV_TEST_RECEIVER' ) . '/incomplete' );
		update_option( 'dlv_api_key', self::env( 'DLV_TEST_API_KEY' ) );
		$method = self::method();
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$this->assertSame( array(), $method->rates, 'one rate without a price: none shown, not the others' );
	}

	public function test_nothing_when_the_api_is_unreachable() {
		update_option( 'dlv_api_base_url', 'http://127.0.0.1:9' );
		update_option( 'dlv_api_key', 'dlv_x' );
		$method = self::method();
		$method->calculate_shipping( self::package( '75011', array( array( '1', 1 ) ) ) );
		$this->assertSame( array(), $method->rates );
	}

	public function test_the_same_package_is_answered_from_the_cache_for_five_minutes() {
		$this->use_real_api();
		$package = self::package( '75011', array( array( '1', 1 ) ) );
		self::method()->calculate_shipping( $package );
		$again = self::method( 'taxable' );
		$again->calculate_shipping( $package );
		$this->assertCount( 1, $GLOBALS['wp_test']['http'], 'second calculation from the cache' );
		$this->assertCount( 3, $again->rates );

		self::method()->calculate_shipping( self::package( '75011', array( array( '4', 1 ) ) ) );
		$this->assertCount( 2, $GLOBALS['wp_test']['http'], 'another weight is another request' );

		$GLOBALS['wp_test']['now'] += 301;
		self::method()->calculate_shipping( $package );
		$this->assertCount( 3, $GLOBALS['wp_test']['http'], 'expired after five minutes' );
	}

	public function test_a_failure_is_remembered_briefly_so_checkouts_do_not_wait_each_time() {
		update_option( 'dlv_api_base_url', 'http://127.0.0.1:9' );
		update_option( 'dlv_api_key', 'dlv_x' );
		$package = self::package( '75011', array( array( '1', 1 ) ) );
		self::method()->calculate_shipping( $package );
		self::method()->calculate_shipping( $package );
		$this->assertCount( 1, $GLOBALS['wp_test']['http'] );
		$GLOBALS['wp_test']['now'] += 31;
		self::method()->calculate_shipping( $package );
		$this->assertCount( 2, $GLOBALS['wp_test']['http'] );
	}
}
