<?php
/**
 * WooCommerce → Livraison DLV: the API key, the API base URL and the "Connect this shop" button.
 *
 * @package LivraisonDLV
 */

defined( 'ABSPATH' ) || exit;

/**
 * The settings page and its form handler (admin-post.php, nonce and capability checked).
 */
class DLV_Settings_Page {

	const SLUG       = 'livraison-dlv';
	const ACTION     = 'dlv_save_settings';
	const CAPABILITY = 'manage_woocommerce';

	/**
	 * Hooks the page into the admin menu and the form into admin-post.php.
	 */
	public static function register() {
		add_action( 'admin_menu', array( __CLASS__, 'add_page' ) );
		add_action( 'admin_post_' . self::ACTION, array( __CLASS__, 'save' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( DLV_PLUGIN_FILE ), array( __CLASS__, 'action_links' ) );
	}

	/**
	 * A submenu of WooCommerce, for shop managers.
	 */
	public static function add_page() {
		add_submenu_page(
			'woocommerce',
			__( 'Livraison DLV', 'livraison-dlv' ),
			__( 'Livraison DLV', 'livraison-dlv' ),
			self::CAPABILITY,
			self::SLUG,
			array( __CLASS__, 'render' )
		);
	}

	/**
	 * A "Settings" link beside the plugin in Plugins.
	 *
	 * @param array $links The plugin's links.
	 * @return array
	 */
	public static function action_links( $links ) {
		$url = admin_url( 'admin.php?page=' . self::SLUG );
		array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'livraison-dlv' ) . '</a>' );
		return $links;
	}

	/**
	 * The page. The saved key is never printed back: the field stays empty and keeps it unless a new
	 * one is typed.
	 */
	public static function render() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage these settings.', 'livraison-dlv' ), '', array( 'response' => 403 ) );
		}
		$has_key = '' !== DLV_Settings::api_key();
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- read-only notice after our own redirect.
		$status = isset( $_GET['dlv-status'] ) ? sanitize_key( wp_unslash( $_GET['dlv-status'] ) ) : '';
		?>
		<div class="wrap">
			<h1><?php esc_html_e( 'Livraison DLV', 'livraison-dlv' ); ?></h1>
			<?php if ( 'saved' === $status ) : ?>
				<div class="notice notice-success"><p><?php esc_html_e( 'Settings saved.', 'livraison-dlv' ); ?></p></div>
			<?php elseif ( 'bad-url' === $status ) : ?>
				<div class="notice notice-error"><p><?php esc_html_e( 'The API base URL must be an https address (http only for localhost). Nothing was saved.', 'livraison-dlv' ); ?></p></div>
			<?php endif; ?>
			<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
				<input type="hidden" name="action" value="<?php echo esc_attr( self::ACTION ); ?>">
				<?php wp_nonce_field( self::ACTION ); ?>
				<table class="form-table" role="presentation">
					<tr>
						<th scope="row"><label for="dlv_api_key"><?php esc_html_e( 'API key', 'livraison-dlv' ); ?></label></th>
						<td>
							<input type="password" class="regular-text" id="dlv_api_key" name="dlv_api_key" value="" autocomplete="off" placeholder="<?php echo esc_attr( $has_key ? __( 'Saved — type a new key to replace it', 'livraison-dlv' ) : 'dlv_…' ); ?>">
							<p class="description"><?php esc_html_e( 'Your brand\'s key, from your Livraison DLV account (Keys page). Used to show our rates at checkout.', 'livraison-dlv' ); ?></p>
						</td>
					</tr>
					<tr>
						<th scope="row"><label for="dlv_api_base_url"><?php esc_html_e( 'API base URL', 'livraison-dlv' ); ?></label></th>
						<td>
							<input type="url" class="regular-text" id="dlv_api_base_url" name="dlv_api_base_url" value="<?php echo esc_attr( DLV_Settings::base_url() ); ?>">
							<p class="description"><?php esc_html_e( 'Leave the default unless Livraison DLV gave you another address.', 'livraison-dlv' ); ?></p>
						</td>
					</tr>
				</table>
				<?php submit_button( __( 'Save', 'livraison-dlv' ) ); ?>
			</form>
			<h2><?php esc_html_e( 'Orders', 'livraison-dlv' ); ?></h2>
			<p><?php esc_html_e( 'Connect this shop to your Livraison DLV account so paid orders become deliveries and their tracking comes back here. You sign in to your account, then approve the access WooCommerce asks for.', 'livraison-dlv' ); ?></p>
			<p><a class="button button-primary" href="<?php echo esc_url( DLV_Settings::connect_url() ); ?>" target="_blank" rel="noopener noreferrer"><?php esc_html_e( 'Connect this shop', 'livraison-dlv' ); ?></a></p>
		</div>
		<?php
	}

	/**
	 * Saves the form: shop managers only, with the page's nonce; a bad base URL saves nothing.
	 */
	public static function save() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage these settings.', 'livraison-dlv' ), '', array( 'response' => 403 ) );
		}
		check_admin_referer( self::ACTION );
		$base_url = isset( $_POST['dlv_api_base_url'] ) ? sanitize_text_field( wp_unslash( $_POST['dlv_api_base_url'] ) ) : '';
		$api_key  = isset( $_POST['dlv_api_key'] ) ? sanitize_text_field( wp_unslash( $_POST['dlv_api_key'] ) ) : '';
		$status   = 'saved';
		$base_url = '' === $base_url ? DLV_DEFAULT_API_BASE_URL : DLV_Settings::normalize_base_url( $base_url );
		if ( '' === $base_url ) {
			$status = 'bad-url';
		} else {
			update_option( DLV_Settings::OPTION_BASE_URL, $base_url );
			if ( '' !== $api_key ) {
				update_option( DLV_Settings::OPTION_API_KEY, trim( $api_key ), false );
			}
		}
		wp_safe_redirect( add_query_arg( array( 'page' => self::SLUG, 'dlv-status' => $status ), admin_url( 'admin.php' ) ) );
		exit;
	}
}
