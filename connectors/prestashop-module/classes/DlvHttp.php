<?php
/**
 * One HTTP POST with a timeout, through curl (a PrestaShop requirement) or, where it is missing,
 * PHP's own HTTP streams.
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvHttp
{
    /**
     * @param string $url
     * @param array<string, string> $headers
     * @param string $body
     * @param int $timeout seconds, connection and answer together
     *
     * @return array{status: int, body: string}|array{error: string}
     */
    public static function post($url, array $headers, $body, $timeout)
    {
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }

        return function_exists('curl_init')
            ? self::withCurl($url, $lines, $body, $timeout)
            : self::withStreams($url, $lines, $body, $timeout);
    }

    public static function withCurl($url, array $lines, $body, $timeout)
    {
        $curl = curl_init($url);
        curl_setopt_array($curl, [
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => $body,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_CONNECTTIMEOUT => $timeout,
            CURLOPT_TIMEOUT => $timeout,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
        ]);
        $answer = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $error = curl_error($curl);
        curl_close($curl);
        if ($answer === false || $status === 0) {
            return ['error' => $error !== '' ? $error : 'no answer'];
        }

        return ['status' => $status, 'body' => (string) $answer];
    }

    public static function withStreams($url, array $lines, $body, $timeout)
    {
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => implode("\r\n", $lines),
            'content' => $body,
            'timeout' => (float) $timeout,
            'ignore_errors' => true,
            'follow_location' => 0,
        ]]);
        $previous = ini_set('default_socket_timeout', (string) $timeout);
        $answer = @file_get_contents($url, false, $context);
        ini_set('default_socket_timeout', (string) $previous);
        if ($answer === false || empty($http_response_header)
            || !preg_match('#^HTTP/\S+\s+(\d{3})#', $http_response_header[0], $status)) {
            $last = error_get_last();

            return ['error' => $last ? $last['message'] : 'no answer'];
        }

        return ['status' => (int) $status[1], 'body' => $answer];
    }
}
