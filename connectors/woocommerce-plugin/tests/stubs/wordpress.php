<?php
/**
 * The few WordPress functions the plugin calls, written from the WordPress developer reference with
 * the same signatures and return shapes; state lives in $GLOBALS['wp_test'] so each test resets it.
 *
 * @package LivraisonDLV\Tests
 */

define( 'ABSPATH', __DIR__ . '/' );

/** What wp_die() throws instead of ending the process. */
class WP_Die_Exception extends Exception {}

/** What wp_safe_redirect() throws so the `exit` after it is never reached. */
class WP_Redirect_Exception extends Exception {}

class WP_Error {
	private $code;
	private $message;
	public function __construct( $code = '', $message = '' ) {
		$this->code    = $code;
		$this->message = $message;
	}
	public function get_error_code() {
		return $this->code;
	}
	public function get_error_message() {
		return $this->message;
	}
}

function wp_test_reset() {
	$GLOBALS['wp_test'] = array(
		'options'    => array(),
		'transients' => array(),
		'actions'    => array(),
		'http'       => array(),
		'logs'       => array(),
		'caps'       => array( 'manage_woocommerce' => true ),
		'nonce_ok'   => true,
		'now'        => time(),
	);
}
wp_test_reset();

function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}

function add_action( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	$GLOBALS['wp_test']['actions'][ $hook ][] = $callback;
	return true;
}

function add_filter( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	return add_action( $hook, $callback, $priority, $accepted_args );
}

function do_action( $hook, ...$args ) {
	foreach ( $GLOBALS['wp_test']['actions'][ $hook ] ?? array() as $callback ) {
		call_user_func_array( $callback, $args );
	}
}

function apply_filters( $hook, $value, ...$args ) {
	foreach ( $GLOBALS['wp_test']['actions'][ $hook ] ?? array() as $callback ) {
		$value = call_user_func_array( $callback, array_merge( array( $value ), $args ) );
	}
	return $value;
}

function get_option( $name, $default_value = false ) {
	return array_key_exists( $name, $GLOBALS['wp_test']['options'] ) ? $GLOBALS['wp_test']['options'][ $name ] : $default_value;
}

function update_option( $name, $value, $autoload = null ) {
	$GLOBALS['wp_test']['options'][ $name ] = $value;
	return true;
}

function delete_option( $name ) {
	unset( $GLOBALS['wp_test']['options'][ $name ] );
	return true;
}

function get_transient( $name ) {
	$entry = $GLOBALS['wp_test']['transients'][ $name ] ?? null;
	if ( null === $entry || ( $entry['expires'] && $entry['expires'] <= $GLOBALS['wp_test']['now'] ) ) {
		return false;
	}
	return $entry['value'];
}

function set_transient( $name, $value, $expiration = 0 ) {
	if ( strlen( $name ) > 172 ) {
		return false; // The documented limit: the option name must fit in 191 characters with its prefix.
	}
	$GLOBALS['wp_test']['transients'][ $name ] = array(
		'value'   => $value,
		'expires' => $expiration ? $GLOBALS['wp_test']['now'] + $expiration : 0,
	);
	return true;
}

function wp_json_encode( $data, $options = 0, $depth = 512 ) {
	return json_encode( $data, $options, $depth );
}

function wp_parse_url( $url, $component = -1 ) {
	return parse_url( $url, $component );
}

function untrailingslashit( $value ) {
	return rtrim( $value, '/\\' );
}

function home_url( $path = '' ) {
	return 'https://boutique.example.fr' . $path;
}

function admin_url( $path = '' ) {
	return 'https://boutique.example.fr/wp-admin/' . ltrim( $path, '/' );
}

function add_query_arg( $args, $url ) {
	return $url . ( false === strpos( $url, '?' ) ? '?' : '&' ) . http_build_query( $args );
}

function plugin_basename( $file ) {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}

function load_plugin_textdomain( $domain, $deprecated = false, $path = false ) {
	return true;
}

function __( $text, $domain = 'default' ) {
	return $text;
}

function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}

function esc_attr( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}

function esc_url( $url ) {
	return htmlspecialchars( (string) $url, ENT_QUOTES, 'UTF-8' );
}

function esc_html__( $text, $domain = 'default' ) {
	return esc_html( $text );
}

function esc_html_e( $text, $domain = 'default' ) {
	echo esc_html( $text );
}

function sanitize_text_field( $text ) {
	return trim( preg_replace( '/[\r\n\t ]+/', ' ', wp_strip_all_tags( (string) $text ) ) );
}

function wp_strip_all_tags( $text ) {
	return strip_tags( $text );
}

function sanitize_key( $key ) {
	return preg_replace( '/[^a-z0-9_\-]/', '', strtolower( $key ) );
}

function wp_unslash( $value ) {
	return is_string( $value ) ? stripslashes( $value ) : $value;
}

function current_user_can( $capability ) {
	return ! empty( $GLOBALS['wp_test']['caps'][ $capability ] );
}

function wp_nonce_field( $action ) {
	echo '<input type="hidden" name="_wpnonce" value="' . esc_attr( 'nonce-' . $action ) . '">';
}

/** Dies like WordPress (a 403 "link has expired" page) when the nonce does not match. */
function check_admin_referer( $action ) {
	if ( ( $_REQUEST['_wpnonce'] ?? '' ) !== 'nonce-' . $action ) {
		wp_die( 'The link you followed has expired.', '', array( 'response' => 403 ) );
	}
	return 1;
}

function wp_die( $message = '', $title = '', $args = array() ) {
	throw new WP_Die_Exception( (string) $message, (int) ( $args['response'] ?? 500 ) );
}

function wp_safe_redirect( $location, $status = 302 ) {
	throw new WP_Redirect_Exception( $location, $status );
}

function submit_button( $text = null ) {
	echo '<button type="submit">' . esc_html( $text ) . '</button>';
}

function wp_remote_retrieve_response_code( $response ) {
	return is_wp_error( $response ) || ! isset( $response['response']['code'] ) ? '' : (int) $response['response']['code'];
}

function wp_remote_retrieve_body( $response ) {
	return is_wp_error( $response ) || ! isset( $response['body'] ) ? '' : $response['body'];
}

/**
 * A real HTTP request over PHP streams, shaped like WordPress's answer: an array with 'headers',
 * 'body' and 'response' => ['code', 'message'], or a WP_Error (http_request_failed) on a timeout or
 * a refused connection. Each call is recorded for the tests.
 */
function wp_remote_post( $url, $args = array() ) {
	$GLOBALS['wp_test']['http'][] = array(
		'url'  => $url,
		'args' => $args,
	);
	$headers = '';
	foreach ( $args['headers'] ?? array() as $name => $value ) {
		$headers .= $name . ': ' . $value . "\r\n";
	}
	$context = stream_context_create(
		array(
			'http' => array(
				'method'          => 'POST',
				'header'          => $headers,
				'content'         => $args['body'] ?? '',
				'timeout'         => (float) ( $args['timeout'] ?? 5 ),
				'ignore_errors'   => true,
				'follow_location' => 0,
			),
		)
	);
	$previous = ini_set( 'default_socket_timeout', (string) ( $args['timeout'] ?? 5 ) );
	$body     = @file_get_contents( $url, false, $context ); // phpcs:ignore
	ini_set( 'default_socket_timeout', $previous );
	if ( false === $body || empty( $http_response_header ) ) {
		$error = error_get_last();
		return new WP_Error( 'http_request_failed', $error ? $error['message'] : 'request failed' );
	}
	preg_match( '#^HTTP/\S+\s+(\d{3})\s*(.*)$#', $http_response_header[0], $status );
	return array(
		'headers'  => array_slice( $http_response_header, 1 ),
		'body'     => $body,
		'response' => array(
			'code'    => (int) $status[1],
			'message' => $status[2],
		),
	);
}
