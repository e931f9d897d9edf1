<?php

declare(strict_types=1);

namespace Dlv\Sdk;

use Dlv\Sdk\Generated\ApiInfo;
use Dlv\Sdk\Generated\Operations;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * The Delivery Orders API client over any PSR-18 HTTP client: one method per operation
 * (generated), the key sent as a bearer token, an Idempotency-Key generated for every creation and
 * kept across its retries, retries with backoff on 429/5xx honouring Retry-After, and errors thrown
 * as ApiException (its error() the envelope's code).
 */
final class Client
{
    use Operations;

    public const SDK_VERSION = '1.0.0';
    public const API_VERSION = ApiInfo::API_VERSION;
    /** Every `error` code of the error envelope (ApiException::error() is one of them). */
    public const ERROR_CODES = ApiInfo::ERROR_CODES;
    private const RETRIED_STATUSES = [429, 500, 502, 503, 504];
    private const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT'];

    private readonly ClientInterface $http;
    private readonly RequestFactoryInterface $requests;
    private readonly StreamFactoryInterface $streams;
    private readonly string $baseUrl;

    /**
     * @param string $apiKey a dlv_… key (account area → API keys)
     * @param ?ClientInterface $http any PSR-18 client; Guzzle's when installed and none is given
     * @param ?callable(int): void $sleep how to wait between attempts, in milliseconds (tests)
     */
    public function __construct(
        private readonly string $apiKey,
        ?ClientInterface $http = null,
        ?RequestFactoryInterface $requestFactory = null,
        ?StreamFactoryInterface $streamFactory = null,
        ?string $baseUrl = null,
        private readonly int $maxRetries = 2,
        private readonly int $maxRetryDelayMs = 30000,
        private $sleep = null,
    ) {
        if ($apiKey === '') {
            throw new \InvalidArgumentException('The API key is required');
        }
        $factory = class_exists(\GuzzleHttp\Psr7\HttpFactory::class) ? new \GuzzleHttp\Psr7\HttpFactory() : null;
        $http ??= class_exists(\GuzzleHttp\Client::class) ? new \GuzzleHttp\Client(['http_errors' => false]) : null;
        $requestFactory ??= $factory;
        $streamFactory ??= $factory;
        if ($http === null || $requestFactory === null || $streamFactory === null) {
            throw new \InvalidArgumentException('Give a PSR-18 client and PSR-17 factories (or install guzzlehttp/guzzle)');
        }
        $this->http = $http;
        $this->requests = $requestFactory;
        $this->streams = $streamFactory;
        $this->baseUrl = rtrim($baseUrl ?? ApiInfo::DEFAULT_BASE_URL, '/');
    }

    /** True for a test key (dlv_test_…): what it creates is test data (livemode false). */
    public function isTestMode(): bool
    {
        return TestMode::isTestKey($this->apiKey);
    }

    /**
     * Test mode: moves a test order to $to through every step the street would take on the way
     * (simulateOrder() makes one step: 'delivered' from pending is picked up, in transit, out for
     * delivery, then delivered), each with its events, webhooks and notifications. 'returned' fails
     * at the door until the third attempt returns the parcel; $reason is the failed attempts'.
     * Returns the last step's answer; a live key gets ApiException test_mode_only (403), a step that
     * cannot follow the order's status simulation_out_of_order (409).
     *
     * @param array{headers?: array<string, string>} $options
     * @return array<string, mixed>
     */
    public function simulate(string $trackingRef, string $to, ?string $reason = null, array $options = []): array
    {
        $status = $this->getOrder($trackingRef, $options)['order']['status'];
        for ($made = 0; $made < TestMode::MAX_STEPS; $made++) {
            $step = TestMode::nextStep($status, $to);
            $body = ['to' => $step] + ($step === 'failed_attempt' && $reason !== null ? ['reason' => $reason] : []);
            $moved = $this->simulateOrder($trackingRef, $body, $options);
            $status = $moved['order']['status'];
            if ($status === $to || ($step === $to && $to !== 'returned')) {
                return $moved;
            }
        }
        throw new \RuntimeException("simulate: $trackingRef did not reach \"$to\" in " . TestMode::MAX_STEPS . ' steps');
    }

    /**
     * @param array<string, mixed>|null $query
     * @param array{idempotencyKey?: string, headers?: array<string, string>} $options
     * @return array<string, mixed>|string
     */
    protected function call(string $method, string $path, ?array $query, mixed $body, bool $idempotent, bool $file, array $options): array|string
    {
        $query = array_filter($query ?? [], static fn ($v) => $v !== null);
        $url = $this->baseUrl . $path . ($query ? '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986) : '');
        $request = $this->requests->createRequest($method, $url)
            ->withHeader('Accept', $file ? '*/*' : 'application/json')
            ->withHeader('Authorization', 'Bearer ' . $this->apiKey)
            ->withHeader('User-Agent', 'dlv-sdk-php/' . self::SDK_VERSION);
        // Generated once per call, so that every retry carries the same key: the API then replays
        // the first success instead of creating a second order.
        if ($idempotent) {
            $request = $request->withHeader('Idempotency-Key', $options['idempotencyKey'] ?? self::uuid());
        }
        foreach ($options['headers'] ?? [] as $name => $value) {
            $request = $request->withHeader($name, $value);
        }
        if ($body !== null) {
            $json = json_encode($body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
            $request = $request->withHeader('Content-Type', 'application/json')->withBody($this->streams->createStream($json));
        }
        $retryable = $idempotent || in_array($method, self::SAFE_METHODS, true);
        for ($attempt = 0; ; $attempt++) {
            try {
                $response = $this->http->sendRequest($request);
            } catch (ClientExceptionInterface $e) {
                if (!$retryable || $attempt >= $this->maxRetries) {
                    throw new ConnectionException("$method $path: " . $e->getMessage(), 0, $e);
                }
                $this->wait($this->backoff($attempt, null));
                continue;
            }
            $status = $response->getStatusCode();
            if ($status >= 200 && $status < 300) {
                $text = (string) $response->getBody();
                if ($file) {
                    return $text;
                }
                $decoded = json_decode($text, true, 512, JSON_THROW_ON_ERROR);
                assert(is_array($decoded));
                return $decoded;
            }
            $retryAfter = self::retryAfter($response);
            // A 429 was refused before anything was done: always safe to send again.
            $again = in_array($status, self::RETRIED_STATUSES, true) && ($retryable || $status === 429);
            if ($again && $attempt < $this->maxRetries) {
                $this->wait($this->backoff($attempt, $retryAfter));
                continue;
            }
            throw new ApiException($status, self::envelope($response), $retryAfter);
        }
    }

    private function backoff(int $attempt, ?int $retryAfter): int
    {
        if ($retryAfter !== null) {
            return min($retryAfter * 1000, $this->maxRetryDelayMs);
        }
        $base = min(500 * 2 ** $attempt, $this->maxRetryDelayMs);
        return intdiv($base, 2) + random_int(0, intdiv($base, 2));
    }

    private function wait(int $ms): void
    {
        if ($this->sleep !== null) {
            ($this->sleep)($ms);
        } else {
            usleep($ms * 1000);
        }
    }

    private static function retryAfter(ResponseInterface $response): ?int
    {
        $value = trim($response->getHeaderLine('Retry-After'));
        if ($value === '') {
            return null;
        }
        if (ctype_digit($value)) {
            return (int) $value;
        }
        $date = strtotime($value);
        return $date === false ? null : max(0, $date - time());
    }

    /** @return array{ok: false, error: string, message: string, request_id: string, details?: list<array{field: string, message: string}>} */
    private static function envelope(ResponseInterface $response): array
    {
        $text = (string) $response->getBody();
        $decoded = json_decode($text, true);
        if (is_array($decoded) && is_string($decoded['error'] ?? null)) {
            return ['ok' => false, 'error' => $decoded['error'], 'message' => (string) ($decoded['message'] ?? ''),
                'request_id' => (string) ($decoded['request_id'] ?? '')] + (isset($decoded['details']) ? ['details' => $decoded['details']] : []);
        }
        return [
            'ok' => false,
            'error' => $response->getStatusCode() >= 500 ? 'unavailable' : 'invalid_request',
            'message' => sprintf("HTTP %d without the API's error envelope: %s", $response->getStatusCode(), substr($text, 0, 200)),
            'request_id' => $response->getHeaderLine('X-Request-Id'),
        ];
    }

    private static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
