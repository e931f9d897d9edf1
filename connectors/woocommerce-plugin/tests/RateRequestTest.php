<?php
/**
 * From a package to the rates request body: destination, weight conversion, what is skipped.
 *
 * @package LivraisonDLV\Tests
 */

class RateRequestTest extends ApiTestCase {

	public function test_one_parcel_of_the_total_weight_to_the_address() {
		$body = DLV_Rate_Request::from_package( self::package( '75011', array( array( '1.2', 2 ), array( '0.35', 1 ) ) ) );
		$this->assertSame(
			array(
				'delivery_zip'     => '75011',
				'unit_type'        => 'parcel',
				'quantity'         => 1,
				'delivery_address' => '12 rue Oberkampf, 75011 Paris',
				'unit_weight'      => '2750g',
			),
			$body
		);
	}

	/**
	 * @dataProvider store_units
	 */
	public function test_converts_from_the_store_weight_unit( $unit, $weight, $grams ) {
		update_option( 'woocommerce_weight_unit', $unit );
		$body = DLV_Rate_Request::from_package( self::package( '75011', array( array( $weight, 1 ) ) ) );
		$this->assertSame( $grams, $body['unit_weight'] );
	}

	public function store_units() {
		return array(
			'kg, no floating-point gram added' => array( 'kg', '2.4', '2400g' ),
			'grams'                            => array( 'g', '450', '450g' ),
			'grams, rounded up'                => array( 'g', '450.2', '451g' ),
			'pounds'                           => array( 'lbs', '2', '908g' ),
			'ounces'                           => array( 'oz', '16', '454g' ),
		);
	}

	public function test_items_without_shipping_or_weight_count_for_nothing() {
		$body = DLV_Rate_Request::from_package( self::package( '75011', array( array( '3', 1, true ), array( '', 4 ), array( '0.5', 2 ) ) ) );
		$this->assertSame( '1000g', $body['unit_weight'] );
		$weightless = DLV_Rate_Request::from_package( self::package( '75011', array( array( '', 1 ) ) ) );
		$this->assertArrayNotHasKey( 'unit_weight', $weightless, 'priced at the API default (1 kg), not 0 g' );
	}

	public function test_no_request_outside_france_or_without_postcode() {
		$this->assertNull( DLV_Rate_Request::from_package( self::package( '1000', array( array( '1', 1 ) ), 'BE' ) ) );
		$this->assertNull( DLV_Rate_Request::from_package( self::package( '', array( array( '1', 1 ) ) ) ) );
		$this->assertNull( DLV_Rate_Request::from_package( array() ) );
	}

	public function test_the_postcode_alone_when_no_street_is_known() {
		$package                                 = self::package( '92100', array( array( '1', 1 ) ) );
		$package['destination']['address_1']     = '';
		$package['destination']['address']       = '';
		$body                                    = DLV_Rate_Request::from_package( $package );
		$this->assertSame( '92100', $body['delivery_zip'] );
		$this->assertArrayNotHasKey( 'delivery_address', $body );
	}
}
