<?php
/**
 * The "Livraison DLV" shipping method: our live rates in the shop's shipping zones.
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

/**
 * Adds one rate per service we offer for the package (id dlv:<service>, meta dlv_service), or none.
 */
class DLV_Shipping_Method extends WC_Shipping_Method {

	/**
	 * One instance per shipping zone it is added to.
	 *
	 * @param int $instance_id The instance (zone method) id.
	 */
	public function __construct( $instance_id = 0 ) {
		parent::__construct( $instance_id );
		$this->id                 = 'dlv';
		$this->method_title       = __( 'Livraison DLV', 'livraison-dlv' );
		$this->method_description = __( 'Live Livraison DLV rates (express, standard, economy) for addresses in Île-de-France. The API key is set in WooCommerce → Livraison DLV.', 'livraison-dlv' );
		$this->supports           = array( 'shipping-zones', 'instance-settings', 'instance-settings-modal' );
		$this->init();
	}

	/**
	 * Loads the instance settings.
	 */
	public function init() {
		$this->instance_form_fields = array(
			'tax_status' => array(
				'title'       => __( 'Tax status', 'livraison-dlv' ),
				'type'        => 'select',
				'class'       => 'wc-enhanced-select',
				'default'     => 'none',
				'options'     => array(
					'none'    => __( 'None: the customer pays our price including VAT', 'livraison-dlv' ),
					'taxable' => __( 'Taxable: our price excluding VAT, plus the shop\'s shipping tax', 'livraison-dlv' ),
				),
				'description' => __( 'Choose "Taxable" when your shop shows shipping tax separately (tax rates configured for shipping).', 'livraison-dlv' ),
				'desc_tip'    => true,
			),
		);
		$this->title      = $this->method_title;
		$this->tax_status = $this->get_option( 'tax_status', 'none' );
		add_action( 'woocommerce_update_options_shipping_' . $this->id, array( $this, 'process_admin_options' ) );
	}

	/**
	 * Our rates for the package, or nothing at all when we cannot give the right price.
	 *
	 * @param array $package The package (contents and destination).
	 */
	public function calculate_shipping( $package = array() ) {
		$body = DLV_Rate_Request::from_package( $package );
		if ( null === $body ) {
			return; // Outside France or no postcode yet: not ours to deliver.
		}
		$rates = DLV_Rates_Client::quote( $body );
		if ( empty( $rates ) ) {
			return; // Out of zone (empty list) or an error (null): no rate of ours.
		}
		$taxed_by_shop = $this->taxed_by_shop();
		foreach ( $rates as $rate ) {
			$this->add_rate(
				array(
					'id'        => $this->id . ':' . $rate['service'],
					'label'     => $rate['name'],
					'cost'      => $taxed_by_shop ? $rate['price_excl_tax_eur'] : $rate['price_eur'],
					'package'   => $package,
					'meta_data' => array( 'dlv_service' => $rate['service'] ),
				)
			);
		}
	}

	/**
	 * Whether WooCommerce adds tax to the cost we give: then we give our price excluding VAT, else the
	 * customer would pay VAT twice. When taxes are disabled shop-wide the customer pays our price
	 * including VAT whatever this instance says.
	 *
	 * @return bool
	 */
	private function taxed_by_shop() {
		return 'taxable' === $this->tax_status && wc_tax_enabled();
	}
}
