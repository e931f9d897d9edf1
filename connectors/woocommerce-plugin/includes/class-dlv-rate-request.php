<?php
/**
 * From a WooCommerce shipping package to the body of POST /public/v1/rates.
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

/**
 * Builds the rate request: one parcel of the cart's total weight, to the package's destination.
 */
class DLV_Rate_Request {

	/**
	 * The request body for a package, or null when we do not deliver there (outside France, no
	 * postcode yet): then no request is made at all.
	 *
	 * @param array $package A package as WooCommerce gives calculate_shipping().
	 * @return array|null
	 */
	public static function from_package( $package ) {
		$destination = isset( $package['destination'] ) && is_array( $package['destination'] ) ? $package['destination'] : array();
		$country     = isset( $destination['country'] ) ? strtoupper( (string) $destination['country'] ) : '';
		$postcode    = isset( $destination['postcode'] ) ? trim( (string) $destination['postcode'] ) : '';
		if ( 'FR' !== $country || '' === $postcode ) {
			return null;
		}
		$body = array(
			'delivery_zip' => substr( $postcode, 0, 10 ),
			'unit_type'    => 'parcel',
			'quantity'     => 1,
		);
		$address = self::address_line( $destination, $postcode );
		if ( '' !== $address ) {
			$body['delivery_address'] = $address;
		}
		$grams = self::total_grams( isset( $package['contents'] ) && is_array( $package['contents'] ) ? $package['contents'] : array() );
		// A cart whose products have no weight is quoted at the API's default unit weight (1 kg).
		if ( $grams > 0 ) {
			$body['unit_weight'] = $grams . 'g';
		}
		return $body;
	}

	/**
	 * The weight of the items that need shipping, in whole grams rounded up (a declared weight is
	 * never under-priced), converted from the store's weight unit (woocommerce_weight_unit).
	 *
	 * @param array $contents Cart items: 'data' (WC_Product) and 'quantity'.
	 * @return int
	 */
	public static function total_grams( $contents ) {
		$total = 0.0;
		foreach ( $contents as $item ) {
			$product = isset( $item['data'] ) ? $item['data'] : null;
			if ( ! is_object( $product ) || ! $product->needs_shipping() ) {
				continue;
			}
			$weight   = (float) $product->get_weight();
			$quantity = isset( $item['quantity'] ) ? max( 0, (int) $item['quantity'] ) : 1;
			if ( $weight > 0 ) {
				$total += $weight * $quantity;
			}
		}
		if ( $total <= 0 ) {
			return 0;
		}
		// Rounded to the milligram first: 2.4 kg is 2400.0000000000005 g in floating point, not 2401 g.
		return (int) ceil( round( wc_get_weight( $total, 'g' ), 3 ) );
	}

	/**
	 * The street address, complement, postcode and city as one line, as our locator reads it.
	 *
	 * @param array  $destination The package destination.
	 * @param string $postcode    Its postcode.
	 * @return string
	 */
	private static function address_line( $destination, $postcode ) {
		$street = array();
		foreach ( array( 'address_1', 'address_2' ) as $key ) {
			if ( ! empty( $destination[ $key ] ) ) {
				$street[] = trim( (string) $destination[ $key ] );
			}
		}
		if ( empty( $street ) ) {
			return '';
		}
		$city = isset( $destination['city'] ) ? trim( (string) $destination['city'] ) : '';
		$line = implode( ', ', $street ) . ', ' . trim( $postcode . ' ' . $city );
		return function_exists( 'mb_substr' ) ? mb_substr( $line, 0, 500 ) : substr( $line, 0, 500 );
	}
}
