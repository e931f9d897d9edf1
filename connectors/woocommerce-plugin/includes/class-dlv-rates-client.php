<?php
/**
 * POST /public/v1/rates, with a short timeout and a cache per request.
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

/**
 * Asks our API for the rates of one request and remembers the answer for a few minutes: WooCommerce
 * recalculates shipping on every cart change and checkout refresh, while our price for the same
 * destination and weight does not change that fast.
 */
class DLV_Rates_Client {

	/** The checkout waits at most this long for us (seconds). */
	const TIMEOUT = 2;

	/** How long an answer (rates, or "not delivered there") is reused. */
	const CACHE_SECONDS = 300;

	/**
	 * How long a failure is remembered: while our API is unreachable each recalculation would otherwise
	 * wait the whole timeout again.
	 */
	const FAILURE_CACHE_SECONDS = 30;

	const SERVICES = array( 'express', 'standard', 'economy' );

	/**
	 * The rates for a request body: a list (empty when we do not deliver there) or null on any error,
	 * meaning "show none of ours". Each rate has service, name, price_eur and price_excl_tax_eur.
	 *
	 * @param array $body The request built by DLV_Rate_Request.
	 * @return array|null
	 */
	public static function quote( $body ) {
		$api_key = DLV_Settings::api_key();
		if ( '' === $api_key ) {
			self::log( 'no API key in WooCommerce → Livraison DLV: our rates are not shown' );
			return null;
		}
		$url       = DLV_Settings::base_url() . '/public/v1/rates';
		$json      = wp_json_encode( $body );
		$cache_key = 'dlv_rates_' . md5( $url . "\n" . hash( 'sha256', $api_key ) . "\n" . $json );
		$cached    = get_transient( $cache_key );
		if ( is_array( $cached ) && array_key_exists( 'rates', $cached ) ) {
			return $cached['rates'];
		}
		$rates = self::fetch( $url, $api_key, $json );
		set_transient( $cache_key, array( 'rates' => $rates ), null === $rates ? self::FAILURE_CACHE_SECONDS : self::CACHE_SECONDS );
		return $rates;
	}

	/**
	 * One call to the API; null (and a log line, without the key) on a timeout, a non-200 answer or an
	 * answer that does not look like ours.
	 *
	 * @param string $url     The rates endpoint.
	 * @param string $api_key The brand's key.
	 * @param string $json    The request body.
	 * @return array|null
	 */
	private static function fetch( $url, $api_key, $json ) {
		$response = wp_remote_post(
			$url,
			array(
				'timeout'     => self::TIMEOUT,
				'redirection' => 0,
				'headers'     => array(
					'Authorization' => 'Bearer ' . $api_key,
					'Content-Type'  => 'application/json',
					'Accept'        => 'application/json',
					'User-Agent'    => 'livraison-dlv-woocommerce/' . DLV_PLUGIN_VERSION,
				),
				'body'        => $json,
			)
		);
		if ( is_wp_error( $response ) ) {
			self::log( 'rates request failed: ' . $response->get_error_message() );
			return null;
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		$answer = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		if ( 200 !== $status || ! is_array( $answer ) || true !== ( $answer['ok'] ?? null ) ) {
			$code = is_array( $answer ) && isset( $answer['error'] ) ? (string) $answer['error'] : 'unreadable answer';
			self::log( sprintf( 'rates request answered %d (%s)', $status, $code ) );
			return null;
		}
		if ( true !== ( $answer['available'] ?? null ) ) {
			return array();
		}
		return self::valid_rates( $answer['rates'] ?? null );
	}

	/**
	 * The answer's rates when every one is complete; null otherwise (never a rate with a guessed price).
	 *
	 * @param mixed $rates The answer's rates.
	 * @return array|null
	 */
	private static function valid_rates( $rates ) {
		if ( ! is_array( $rates ) ) {
			self::log( 'rates answer without a rates list' );
			return null;
		}
		$valid = array();
		foreach ( $rates as $rate ) {
			$ok = is_array( $rate )
				&& in_array( $rate['service'] ?? null, self::SERVICES, true )
				&& is_string( $rate['name'] ?? null )
				&& is_numeric( $rate['price_eur'] ?? null ) && $rate['price_eur'] >= 0
				&& is_numeric( $rate['price_excl_tax_eur'] ?? null ) && $rate['price_excl_tax_eur'] >= 0;
			if ( ! $ok ) {
				self::log( 'rates answer with an incomplete rate: none shown' );
				return null;
			}
			$valid[] = array(
				'service'            => $rate['service'],
				'name'               => $rate['name'],
				'price_eur'          => (float) $rate['price_eur'],
				'price_excl_tax_eur' => (float) $rate['price_excl_tax_eur'],
			);
		}
		return $valid;
	}

	/**
	 * A warning in WooCommerce → Status → Logs, source livraison-dlv.
	 *
	 * @param string $message What happened (never the API key).
	 */
	private static function log( $message ) {
		if ( function_exists( 'wc_get_logger' ) ) {
			wc_get_logger()->warning( $message, array( 'source' => 'livraison-dlv' ) );
		}
	}
}
