<?php
/**
 * Removes the plugin's settings and cached rates when it is deleted from Plugins.
 *
 * @package LivraisonDLV
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

delete_option( 'dlv_api_key' );
delete_option( 'dlv_api_base_url' );

global $wpdb;
// Cached rates are transients named dlv_rates_<hash>: there is no API to list them.
// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- one-off clean-up at uninstall.
$wpdb->query(
	$wpdb->prepare(
		"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s",
		$wpdb->esc_like( '_transient_dlv_rates_' ) . '%',
		$wpdb->esc_like( '_transient_timeout_dlv_rates_' ) . '%'
	)
);
