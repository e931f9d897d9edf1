<?php
/**
 * What the main file registers: HPOS and Checkout Blocks compatibility, the shipping method; the
 * settings and their form (capability, nonce, escaping).
 *
 * @package LivraisonDLV\Tests
 */

use Automattic\WooCommerce\Utilities\FeaturesUtil;

class PluginTest extends ApiTestCase {

	public function test_declares_hpos_and_checkout_blocks_compatibility_before_woocommerce_init() {
		$GLOBALS['wp_test']['actions'] = $GLOBALS['wp_test_loaded_hooks'];
		FeaturesUtil::$declarations    = array();
		do_action( 'before_woocommerce_init' );
		$main = realpath( dirname( __DIR__ ) . '/livraison-dlv.php' );
		$this->assertSame(
			array( array( 'custom_order_tables', $main, true ), array( 'cart_checkout_blocks', $main, true ) ),
			array_map(
				function ( $d ) {
					return array( $d[0], realpath( $d[1] ), $d[2] );
				},
				FeaturesUtil::$declarations
			)
		);
	}

	public function test_registers_the_method_under_its_id() {
		$GLOBALS['wp_test']['actions'] = $GLOBALS['wp_test_loaded_hooks'];
		$methods                       = apply_filters( 'woocommerce_shipping_methods', array( 'flat_rate' => 'WC_Shipping_Flat_Rate' ) );
		$this->assertSame( array( 'flat_rate' => 'WC_Shipping_Flat_Rate', 'dlv' => 'DLV_Shipping_Method' ), $methods );
	}

	public function test_the_connect_button_leads_to_the_bridge_with_the_shop_url() {
		update_option( 'dlv_api_base_url', 'https://api.example.fr/' );
		$this->assertSame(
			'https://api.example.fr/connectors/woocommerce/connect?shop_url=https%3A%2F%2Fboutique.example.fr',
			DLV_Settings::connect_url()
		);
		wp_test_reset();
		$this->assertStringStartsWith( 'https://api.livraison-dlv.fr/connectors/', DLV_Settings::connect_url() );
	}

	public function test_base_urls_must_be_https_except_on_the_loopback() {
		$this->assertSame( 'https://api.example.fr', DLV_Settings::normalize_base_url( ' https://api.example.fr/ ' ) );
		$this->assertSame( 'http://127.0.0.1:3000', DLV_Settings::normalize_base_url( 'http://127.0.0.1:3000' ) );
		foreach ( array( 'http://api.example.fr', 'javascript:alert(1)', 'api.example.fr', 'https://u:p@api.example.fr', 'https://api.example.fr/?x=1' ) as $bad ) {
			$this->assertSame( '', DLV_Settings::normalize_base_url( $bad ), $bad );
		}
	}

	public function test_the_page_escapes_what_it_prints_and_never_prints_the_key() {
		update_option( 'dlv_api_key', 'dlv_secret_key_value' );
		$GLOBALS['wp_test']['options']['dlv_api_base_url'] = 'https://api.example.fr/"><script>';
		ob_start();
		DLV_Settings_Page::render();
		$html = ob_get_clean();
		$this->assertStringNotContainsString( 'dlv_secret_key_value', $html );
		$this->assertStringNotContainsString( '<script>', $html );
		$this->assertStringContainsString( 'name="_wpnonce" value="nonce-dlv_save_settings"', $html );
		$this->assertStringContainsString( 'target="_blank" rel="noopener noreferrer"', $html );
	}

	public function test_saving_needs_the_capability_and_the_nonce() {
		$_POST = $_REQUEST = array(
			'dlv_api_key'      => 'dlv_new',
			'dlv_api_base_url' => 'https://api.example.fr',
			'_wpnonce'         => 'nonce-dlv_save_settings',
		);
		$GLOBALS['wp_test']['caps'] = array();
		$this->assertDies( 403 );
		$GLOBALS['wp_test']['caps'] = array( 'manage_woocommerce' => true );
		$_REQUEST['_wpnonce']       = 'forged';
		$this->assertDies( 403 );
		$this->assertFalse( get_option( 'dlv_api_key' ) );

		$_REQUEST['_wpnonce'] = 'nonce-dlv_save_settings';
		$this->assertRedirectsWith( 'dlv-status=saved' );
		$this->assertSame( 'dlv_new', get_option( 'dlv_api_key' ) );
		$this->assertSame( 'https://api.example.fr', get_option( 'dlv_api_base_url' ) );
	}

	public function test_an_empty_key_keeps_the_saved_one_and_a_bad_url_saves_nothing() {
		update_option( 'dlv_api_key', 'dlv_kept' );
		$_POST = $_REQUEST = array(
			'dlv_api_key'      => '',
			'dlv_api_base_url' => 'https://api.example.fr',
			'_wpnonce'         => 'nonce-dlv_save_settings',
		);
		$this->assertRedirectsWith( 'dlv-status=saved' );
		$this->assertSame( 'dlv_kept', get_option( 'dlv_api_key' ) );

		$_POST['dlv_api_key']      = 'dlv_other';
		$_POST['dlv_api_base_url'] = 'http://evil.example';
		$this->assertRedirectsWith( 'dlv-status=bad-url' );
		$this->assertSame( 'dlv_kept', get_option( 'dlv_api_key' ) );
		$this->assertSame( 'https://api.example.fr', get_option( 'dlv_api_base_url' ) );
	}

	private function assertDies( $status ) {
		try {
			DLV_Settings_Page::save();
			$this->fail( 'saved without the capability or the nonce' );
		} catch ( WP_Die_Exception $e ) {
			$this->assertSame( $status, $e->getCode() );
		}
	}

	private function assertRedirectsWith( $fragment ) {
		try {
			DLV_Settings_Page::save();
			$this->fail( 'no redirect' );
		} catch ( WP_Redirect_Exception $e ) {
			$this->assertStringContainsString( $fragment, $e->getMessage() );
		}
	}

	protected function tearDown(): void {
		$_POST = $_REQUEST = array();
	}
}
