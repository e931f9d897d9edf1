<?php
/**
 * Base of the tests that talk to the real API the vitest suite started (test/php-packages.test.ts):
 * DLV_TEST_API_BASE, DLV_TEST_API_KEY and DLV_TEST_RECEIVER (a loopback server with slow and broken
 * answers) come from the environment; without them those tests are skipped.
 *
 * @package LivraisonDLV\Tests
 */

use PHPUnit\Framework\TestCase;

abstract class ApiTestCase extends TestCase {

	protected function setUp(): void {
		wp_test_reset();
		update_option( 'woocommerce_weight_unit', 'kg' );
	}

	protected static function env( $name ) {
		$value = getenv( $name );
		if ( false === $value || '' === $value ) {
			self::markTestSkipped( $name . ' is not set: run through test/php-packages.test.ts' );
		}
		return $value;
	}

	/** Settings pointing at the real API with a valid key. */
	protected function use_real_api() {
		update_option( 'dlv_api_base_url', self::env( 'DLV_TEST_API_BASE' ) );
		update_option( 'dlv_api_key', self::env( 'DLV_TEST_API_KEY' ) );
	}

	/** The API's own answer for a body, fetched without the plugin: what the plugin must show. */
	protected function api_answer( array $body ) {
		$context = stream_context_create(
			array(
				'http' => array(
					'method'        => 'POST',
					'header'        => "Authorization: Bearer " . self::env( 'DLV_TEST_API_KEY' ) . "\r\nContent-Type: application/json\r\n",
					'content'       => json_encode( $body ),
					'ignore_errors' => true,
				),
			)
		);
		return json_decode( file_get_contents( self::env( 'DLV_TEST_API_BASE' ) . '/public/v1/rates', false, $context ), true );
	}

	/** A package as WooCommerce builds it for calculate_shipping(). */
	protected static function package( $postcode, array $items, $country = 'FR' ) {
		$contents = array();
		foreach ( $items as $i => $item ) {
			$contents[ 'key' . $i ] = array(
				'data'     => new WC_Product( $item[0], $item[2] ?? false ),
				'quantity' => $item[1],
			);
		}
		return array(
			'contents'    => $contents,
			'destination' => array(
				'country'   => $country,
				'state'     => '',
				'postcode'  => $postcode,
				'city'      => 'Paris',
				'address'   => '12 rue Oberkampf',
				'address_1' => '12 rue Oberkampf',
				'address_2' => '',
			),
		);
	}

	/** A method instance of zone 3 with this tax status. */
	protected static function method( $tax_status = 'none' ) {
		update_option( 'woocommerce_dlv_3_settings', array( 'tax_status' => $tax_status ) );
		return new DLV_Shipping_Method( 3 );
	}
}
