<?php
/**
 * The plugin's shop-wide settings: the API key and the API base URL.
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

/**
 * Reads and validates the two options every part of the plugin needs.
 */
class DLV_Settings {

	const OPTION_API_KEY  = 'dlv_api_key';
	const OPTION_BASE_URL = 'dlv_api_base_url';

	/**
	 * The brand's API key (dlv_…), or '' when not set yet.
	 *
	 * @return string
	 */
	public static function api_key() {
		return trim( (string) get_option( self::OPTION_API_KEY, '' ) );
	}

	/**
	 * The API base URL without a trailing slash; the default when none was saved.
	 *
	 * @return string
	 */
	public static function base_url() {
		$saved = self::normalize_base_url( (string) get_option( self::OPTION_BASE_URL, '' ) );
		return '' === $saved ? DLV_DEFAULT_API_BASE_URL : $saved;
	}

	/**
	 * A base URL as the plugin stores it, or '' when it is not acceptable: https only (the API key
	 * travels in a header), except on the loopback for development against a local server.
	 *
	 * @param string $url What the shop manager typed.
	 * @return string
	 */
	public static function normalize_base_url( $url ) {
		$url   = trim( $url );
		$parts = wp_parse_url( $url );
		if ( ! is_array( $parts ) || empty( $parts['scheme'] ) || empty( $parts['host'] ) ) {
			return '';
		}
		$scheme   = strtolower( $parts['scheme'] );
		$loopback = in_array( strtolower( $parts['host'] ), array( 'localhost', '127.0.0.1', '[::1]' ), true );
		if ( 'https' !== $scheme && ! ( 'http' === $scheme && $loopback ) ) {
			return '';
		}
		if ( isset( $parts['query'] ) || isset( $parts['fragment'] ) || isset( $parts['user'] ) ) {
			return '';
		}
		return untrailingslashit( $url );
	}

	/**
	 * Where the "Connect this shop" button leads: the bridge's page that starts WooCommerce's key
	 * provisioning for this shop (the brand signs in there first).
	 *
	 * @return string
	 */
	public static function connect_url() {
		return self::base_url() . '/connectors/woocommerce/connect?shop_url=' . rawurlencode( home_url() );
	}
}
