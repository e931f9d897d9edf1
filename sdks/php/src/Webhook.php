<?php

declare(strict_types=1);

namespace Dlv\Sdk;

/**
 * Verifies webhook deliveries as Standard Webhooks specifies (https://www.standardwebhooks.com):
 * the HMAC-SHA256 of "webhook-id.webhook-timestamp.body" under the subscription's whsec_ secret must
 * be one of the webhook-signature entries, and the timestamp within the tolerance of now.
 */
final class Webhook
{
    public function __construct(private readonly string $secret, private readonly int $toleranceSeconds = 300)
    {
    }

    /**
     * @param string $body the raw body, as received (file_get_contents('php://input'))
     * @param array<string, string|list<string>> $headers any case ($_SERVER-style HTTP_WEBHOOK_ID too)
     * @return array<string, mixed> the event
     */
    public function verify(string $body, array $headers, ?int $now = null): array
    {
        $id = self::header($headers, 'webhook-id');
        $timestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if ($id === null || $timestamp === null || $signatures === null) {
            throw new WebhookVerificationException('Missing webhook-id, -timestamp or -signature');
        }
        if (!ctype_digit($timestamp)) {
            throw new WebhookVerificationException('Invalid webhook-timestamp');
        }
        if (abs(($now ?? time()) - (int) $timestamp) > $this->toleranceSeconds) {
            throw new WebhookVerificationException('The webhook-timestamp is too far from now (a replay?)');
        }
        $expected = $this->sign($id, (int) $timestamp, $body);
        foreach (explode(' ', $signatures) as $entry) {
            [$version, $signature] = array_pad(explode(',', $entry, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, $signature)) {
                $event = json_decode($body, true, 512, JSON_THROW_ON_ERROR);
                assert(is_array($event));
                return $event;
            }
        }
        throw new WebhookVerificationException('No signature matches the secret');
    }

    /** The v1 signature of a payload (what the API sends; useful to test a receiver). */
    public function sign(string $id, int $timestamp, string $body): string
    {
        $secret = str_starts_with($this->secret, 'whsec_') ? substr($this->secret, 6) : $this->secret;
        $key = base64_decode($secret, true);
        if ($key === false) {
            throw new WebhookVerificationException('The secret is not base64');
        }
        return base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", $key, true));
    }

    /** @param array<string, string|list<string>> $headers */
    private static function header(array $headers, string $name): ?string
    {
        $server = 'HTTP_' . strtoupper(str_replace('-', '_', $name));
        foreach ($headers as $key => $value) {
            if (strtolower((string) $key) === $name || $key === $server) {
                return is_array($value) ? ($value[0] ?? null) : $value;
            }
        }
        return null;
    }
}
