<?php
/**
 * Plugin Name:          Livraison DLV
 * Plugin URI:           https://api.livraison-dlv.fr/docs
 * Description:          Same-day and next-day delivery in Île-de-France: live Livraison DLV rates at checkout, and a one-click connection so paid orders become deliveries.
 * Version:              1.0.0
 * Requires at least:    6.2
 * Requires PHP:         7.4
 * Requires Plugins:     woocommerce
 * WC requires at least: 8.0
 * WC tested up to:      9.4
 * Author:               Livraison DLV
 * Author URI:           https://api.livraison-dlv.fr
 * License:              GPL-2.0-or-later
 * License URI:          https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:          livraison-dlv
 * Domain Path:          /languages
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

define( 'DLV_PLUGIN_FILE', __FILE__ );
define( 'DLV_PLUGIN_VERSION', '1.0.0' );
define( 'DLV_DEFAULT_API_BASE_URL', 'https://api.livraison-dlv.fr' );

require_once __DIR__ . '/includes/class-dlv-settings.php';
require_once __DIR__ . '/includes/class-dlv-rate-request.php';
require_once __DIR__ . '/includes/class-dlv-rates-client.php';
require_once __DIR__ . '/includes/class-dlv-settings-page.php';

/**
 * Declares that the plugin works with High-Performance Order Storage (it never reads orders through
 * the posts table) and with the Cart and Checkout blocks (a shipping method needs nothing more).
 */
function dlv_declare_woocommerce_compatibility() {
	if ( class_exists( '\Automattic\WooCommerce\Utilities\FeaturesUtil' ) ) {
		\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', DLV_PLUGIN_FILE, true );
		\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', DLV_PLUGIN_FILE, true );
	}
}
add_action( 'before_woocommerce_init', 'dlv_declare_woocommerce_compatibility' );

/**
 * The shipping method class extends WC_Shipping_Method, which exists only once WooCommerce loaded
 * its shipping classes: it is required on woocommerce_shipping_init, not at plugin load.
 */
function dlv_load_shipping_method() {
	require_once __DIR__ . '/includes/class-dlv-shipping-method.php';
}
add_action( 'woocommerce_shipping_init', 'dlv_load_shipping_method' );

/**
 * Registers the method so shop managers can add it to their shipping zones.
 *
 * @param array $methods Shipping method classes by id.
 * @return array
 */
function dlv_register_shipping_method( $methods ) {
	$methods['dlv'] = 'DLV_Shipping_Method';
	return $methods;
}
add_filter( 'woocommerce_shipping_methods', 'dlv_register_shipping_method' );

/**
 * Loads the translations shipped in languages/ (French), after those of wordpress.org if any.
 */
function dlv_load_textdomain() {
	load_plugin_textdomain( 'livraison-dlv', false, dirname( plugin_basename( DLV_PLUGIN_FILE ) ) . '/languages' );
}
add_action( 'init', 'dlv_load_textdomain' );

DLV_Settings_Page::register();
