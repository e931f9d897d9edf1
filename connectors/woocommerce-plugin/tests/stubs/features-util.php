<?php
/**
 * WooCommerce's feature compatibility registry, as far as plugins call it.
 *
 * @package LivraisonDLV\Tests
 */

namespace Automattic\WooCommerce\Utilities;

class FeaturesUtil {
	/** @var array Every declaration: feature, plugin file, positive. */
	public static $declarations = array();

	public static function declare_compatibility( $feature_id, $plugin_file, $positive_compatibility = true ) {
		self::$declarations[] = array( $feature_id, $plugin_file, $positive_compatibility );
		return true;
	}
}
