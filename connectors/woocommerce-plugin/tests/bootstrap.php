<?php
/**
 * Loads the stubs, then the plugin as WordPress would (main file, then the shipping init hook).
 *
 * @package LivraisonDLV\Tests
 */

require __DIR__ . '/stubs/wordpress.php';
require __DIR__ . '/stubs/woocommerce.php';
require __DIR__ . '/stubs/features-util.php';
require dirname( __DIR__ ) . '/livraison-dlv.php';
// What the plugin hooked at load, before any test resets the state.
$GLOBALS['wp_test_loaded_hooks'] = $GLOBALS['wp_test']['actions'];
// WooCommerce loads its shipping classes, then lets plugins load theirs.
do_action( 'woocommerce_shipping_init' );
require __DIR__ . '/ApiTestCase.php';
