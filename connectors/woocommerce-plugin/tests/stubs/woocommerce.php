<?php
/**
 * The WooCommerce classes and functions the plugin uses, following WooCommerce's own code for the
 * behaviour the plugin relies on: WC_Shipping_Method's instance settings and add_rate() (taxes added
 * when the method is taxable), WC_Shipping_Rate's getters, wc_get_weight()'s conversions.
 *
 * @package LivraisonDLV\Tests
 */

function absint( $value ) {
	return abs( (int) $value );
}

function wc_tax_enabled() {
	return 'yes' === get_option( 'woocommerce_calc_taxes', 'no' );
}

/** WooCommerce's conversion: to kg first, then to the target unit; never negative. */
function wc_get_weight( $weight, $to_unit, $from_unit = '' ) {
	$weight  = (float) $weight;
	$to_unit = strtolower( $to_unit );
	if ( empty( $from_unit ) ) {
		$from_unit = strtolower( get_option( 'woocommerce_weight_unit' ) );
	}
	if ( $from_unit !== $to_unit ) {
		switch ( $from_unit ) {
			case 'g':
				$weight *= 0.001;
				break;
			case 'lbs':
				$weight *= 0.453592;
				break;
			case 'oz':
				$weight *= 0.0283495;
				break;
		}
		switch ( $to_unit ) {
			case 'g':
				$weight *= 1000;
				break;
			case 'lbs':
				$weight *= 2.20462;
				break;
			case 'oz':
				$weight *= 35.274;
				break;
		}
	}
	return ( $weight < 0 ) ? 0 : $weight;
}

class WC_Test_Logger {
	public function warning( $message, $context = array() ) {
		$GLOBALS['wp_test']['logs'][] = array( 'warning', $message, $context );
	}
}

function wc_get_logger() {
	return new WC_Test_Logger();
}

/** The shop's shipping tax: one rate (id 1) of 20 %, as a French shop configures it. */
class WC_Tax {
	public static function get_shipping_tax_rates() {
		return array( 1 => array( 'rate' => 20.0 ) );
	}
	public static function calc_shipping_tax( $price, $rates ) {
		$taxes = array();
		foreach ( $rates as $id => $rate ) {
			$taxes[ $id ] = $price * $rate['rate'] / 100;
		}
		return $taxes;
	}
}

class WC_Product {
	private $weight;
	private $virtual;
	public function __construct( $weight, $virtual = false ) {
		$this->weight  = $weight;
		$this->virtual = $virtual;
	}
	public function get_weight() {
		return $this->weight;
	}
	public function needs_shipping() {
		return ! $this->virtual;
	}
}

class WC_Shipping_Rate {
	private $data;
	public function __construct( $id = '', $label = '', $cost = 0, $taxes = array(), $method_id = '', $instance_id = 0 ) {
		$this->data = array(
			'id'          => $id,
			'label'       => $label,
			'cost'        => $cost,
			'taxes'       => $taxes,
			'method_id'   => $method_id,
			'instance_id' => $instance_id,
			'meta_data'   => array(),
		);
	}
	public function get_id() {
		return $this->data['id'];
	}
	public function get_label() {
		return $this->data['label'];
	}
	public function get_cost() {
		return $this->data['cost'];
	}
	public function get_taxes() {
		return $this->data['taxes'];
	}
	public function get_shipping_tax() {
		return array_sum( $this->data['taxes'] );
	}
	public function get_method_id() {
		return $this->data['method_id'];
	}
	public function get_instance_id() {
		return $this->data['instance_id'];
	}
	public function get_meta_data() {
		return $this->data['meta_data'];
	}
	public function add_meta_data( $key, $value ) {
		$this->data['meta_data'][ wp_strip_all_tags( $key ) ] = wp_strip_all_tags( $value );
	}
}

abstract class WC_Settings_API {
	public $plugin_id   = 'woocommerce_';
	public $id          = '';
	public $form_fields = array();
	public $settings    = array();

	public function get_option( $key, $empty_value = null ) {
		$value = $this->settings[ $key ] ?? ( $this->form_fields[ $key ]['default'] ?? '' );
		return ( null !== $empty_value && '' === $value ) ? $empty_value : $value;
	}

	public function process_admin_options() {
		return true;
	}
}

abstract class WC_Shipping_Method extends WC_Settings_API {
	public $supports             = array( 'settings' );
	public $method_title         = '';
	public $method_description   = '';
	public $enabled              = 'yes';
	public $title                = '';
	public $rates                = array();
	public $tax_status           = 'taxable';
	public $instance_id          = 0;
	public $instance_form_fields = array();
	public $instance_settings    = array();

	public function __construct( $instance_id = 0 ) {
		$this->instance_id = absint( $instance_id );
	}

	public function supports( $feature ) {
		return in_array( $feature, $this->supports, true );
	}

	public function calculate_shipping( $package = array() ) {}

	public function is_taxable() {
		return wc_tax_enabled() && 'taxable' === $this->tax_status;
	}

	public function get_instance_option_key() {
		return $this->instance_id ? $this->plugin_id . $this->id . '_' . $this->instance_id . '_settings' : '';
	}

	public function get_option( $key, $empty_value = null ) {
		if ( $this->instance_id && array_key_exists( $key, $this->instance_form_fields ) ) {
			$settings = get_option( $this->get_instance_option_key(), array() );
			$value    = $settings[ $key ] ?? $this->instance_form_fields[ $key ]['default'] ?? '';
			return ( null !== $empty_value && '' === $value ) ? $empty_value : $value;
		}
		return parent::get_option( $key, $empty_value );
	}

	public function get_rate_id( $suffix = '' ) {
		$rate_id = array( $this->id );
		if ( $this->instance_id ) {
			$rate_id[] = $this->instance_id;
		}
		if ( $suffix ) {
			$rate_id[] = $suffix;
		}
		return implode( ':', $rate_id );
	}

	/** As WooCommerce: taxes computed on the cost when the method is taxable, meta copied onto the rate. */
	public function add_rate( $args = array() ) {
		$args = array_merge(
			array(
				'id'        => $this->get_rate_id(),
				'label'     => '',
				'cost'      => '0',
				'taxes'     => '',
				'calc_tax'  => 'per_order',
				'meta_data' => array(),
				'package'   => false,
			),
			$args
		);
		if ( ! $args['id'] || ! $args['label'] ) {
			return;
		}
		$total_cost = is_array( $args['cost'] ) ? array_sum( $args['cost'] ) : (float) $args['cost'];
		$taxes      = $args['taxes'];
		if ( ! is_array( $taxes ) && false !== $taxes && $total_cost > 0 && $this->is_taxable() ) {
			$taxes = WC_Tax::calc_shipping_tax( $total_cost, WC_Tax::get_shipping_tax_rates() );
		}
		$rate = new WC_Shipping_Rate( $args['id'], $args['label'], $total_cost, is_array( $taxes ) ? $taxes : array(), $this->id, $this->instance_id );
		foreach ( $args['meta_data'] as $key => $value ) {
			$rate->add_meta_data( $key, $value );
		}
		$this->rates[ $args['id'] ] = $rate;
	}
}
