<?php

declare(strict_types=1);

// The PHP SDK's tests, run against a running API (test/sdk-php.test.ts starts one and sets the
// environment): DLV_BASE_URL, DLV_API_KEY and DLV_RETRY_API_KEY (two brands' test keys, each with
// no order yet), DLV_LIVE_API_KEY (the first brand's live key) and DLV_WEBHOOK_FIXTURE (a delivery
// the API made to a test endpoint: secret, body, headers). No PHPUnit
// and no Composer download: the SDK's own autoloader and a PSR-18 client from the system (Debian's
// php-guzzlehttp-guzzle), or DLV_PSR_AUTOLOAD naming another autoloader.

require __DIR__ . '/../src/autoload.php';
require getenv('DLV_PSR_AUTOLOAD') ?: 'GuzzleHttp/autoload.php';

use Dlv\Sdk\ApiException;
use Dlv\Sdk\Client;
use Dlv\Sdk\Webhook;
use Dlv\Sdk\WebhookVerificationException;
use GuzzleHttp\Psr7\Response;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

$base = getenv('DLV_BASE_URL') ?: exit("DLV_BASE_URL is not set\n");
const ORDER = [
    'customer_email' => 'jane@example.com',
    'delivery_address' => '12 rue Oberkampf 75011 Paris',
    'delivery_recipient' => 'Jane Doe',
    'delivery_phone' => '06 12 34 56 78',
    'amount_eur' => 49.9,
];

$failures = 0;
$count = 0;
function test(string $name, callable $body): void
{
    global $failures, $count;
    $count++;
    try {
        $body();
        echo "ok $count - $name\n";
    } catch (Throwable $e) {
        $failures++;
        echo "not ok $count - $name\n  " . get_class($e) . ': ' . $e->getMessage() . "\n  at " . $e->getFile() . ':' . $e->getLine() . "\n";
    }
}
function check(bool $condition, string $what): void
{
    if (!$condition) {
        throw new RuntimeException("expected: $what");
    }
}
function apiError(callable $call): ApiException
{
    try {
        $call();
    } catch (ApiException $e) {
        return $e;
    }
    throw new RuntimeException('expected an ApiException');
}

/** The network between the SDK and the API: a 429 first, then an answer lost after the API acted. */
final class FlakyNetwork implements ClientInterface
{
    /** @var list<string> */
    public array $keys = [];

    public function __construct(private readonly ClientInterface $inner, private int $attempts = 0)
    {
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        if ($request->getMethod() === 'POST') {
            $this->keys[] = $request->getHeaderLine('Idempotency-Key');
            $this->attempts++;
            if ($this->attempts === 1) {
                return new Response(429, ['Retry-After' => '1'], '{}');
            }
            if ($this->attempts === 2) {
                $this->inner->sendRequest($request);
                return new Response(502, [], 'bad gateway');
            }
        }
        return $this->inner->sendRequest($request);
    }
}

$client = new Client((string) getenv('DLV_API_KEY'), baseUrl: $base);

test('creates, fetches, lists page after page and cancels orders with a test key', function () use ($client) {
    check($client->isTestMode(), 'a test key');
    $created = [];
    for ($i = 0; $i < 5; $i++) {
        $created[] = $client->createOrder(ORDER + ['reference' => "PHP-$i"]);
    }
    check($created[0]['order']['status'] === 'pending', 'a pending order');
    check($created[0]['order']['livemode'] === false, 'a test order (livemode false)');
    check($client->getOrder($created[0]['trackingRef'])['order']['reference'] === 'PHP-0', 'the order fetched');
    $sizes = [];
    $query = ['limit' => 2];
    do {
        $page = $client->listOrders($query);
        $sizes[] = count($page['orders']);
        $query['cursor'] = $page['next_cursor'];
    } while ($query['cursor'] !== null);
    check($sizes === [2, 2, 1], 'pages of 2, 2 and 1, got ' . json_encode($sizes));
    $references = array_map(fn ($o) => $o['reference'], iterator_to_array($client->iterateOrders(['limit' => 2])));
    sort($references);
    check($references === ['PHP-0', 'PHP-1', 'PHP-2', 'PHP-3', 'PHP-4'], 'every order walked: ' . json_encode($references));
    check($client->cancelOrder($created[1]['trackingRef'])['order']['status'] === 'cancelled', 'cancelled');
    check(str_starts_with($client->getOrderLabel($created[0]['trackingRef']), '%PDF-'), 'a PDF label');
});

test('simulates a test order: one step, the whole way to the door, a return; refused to a live key', function () use ($client, $base) {
    $ref = $client->createOrder(ORDER)['trackingRef'];
    check($client->simulateOrder($ref, ['to' => 'picked_up'])['order']['status'] === 'picked_up', 'one step');
    check($client->simulate($ref, 'delivered')['order']['status'] === 'delivered', 'walked to the door');
    $history = array_column($client->getOrder($ref)['order']['events'], 'status');
    check($history === ['pending', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered'], 'every step: ' . json_encode($history));
    $again = apiError(fn () => $client->simulate($ref, 'delivered'));
    check($again->error() === 'simulation_out_of_order' && $again->status === 409, 'a final status stays final');

    $other = $client->createOrder(ORDER)['trackingRef'];
    check($client->simulate($other, 'returned', 'refused')['order']['status'] === 'returned', 'returned');
    $failed = array_filter($client->getOrder($other)['order']['events'], fn ($e) => $e['status'] === 'failed_attempt');
    check(count($failed) === 3, 'three failed attempts: ' . count($failed));

    $live = new Client((string) getenv('DLV_LIVE_API_KEY'), baseUrl: $base);
    check(!$live->isTestMode(), 'a live key');
    $liveRef = $live->createOrder(ORDER)['trackingRef'];
    $refused = apiError(fn () => $live->simulate($liveRef, 'picked_up'));
    check($refused->error() === 'test_mode_only' && $refused->status === 403, 'a live key cannot simulate: ' . $refused->error());
    check(apiError(fn () => $client->getOrder($liveRef))->error() === 'not_found', 'a test key does not see a live order');
});

test('throws ApiException carrying the envelope’s code, request id and details', function () use ($client, $base) {
    $missing = apiError(fn () => $client->getOrder('DLV-0000000000'));
    check($missing->error() === 'not_found' && $missing->status === 404, 'a 404 not_found');
    check($missing->requestId() !== '', 'a request id');
    check(in_array($missing->error(), Client::ERROR_CODES, true), 'a documented code');
    $invalid = apiError(fn () => $client->createOrder(['customer_email' => 'not an e-mail']));
    check($invalid->error() === 'invalid_request', 'invalid_request');
    check(in_array('customer_email', array_column($invalid->details(), 'field'), true), 'the field named');
    $stranger = new Client('dlv_' . str_repeat('0', 64), baseUrl: $base);
    check(apiError(fn () => $stranger->getMe())->error() === 'unauthorized', 'unauthorized');
});

test('retries a 429 and a lost answer with the same Idempotency-Key: one order', function () use ($base) {
    $network = new FlakyNetwork(new GuzzleHttp\Client(['http_errors' => false]));
    $waits = [];
    $client = new Client((string) getenv('DLV_RETRY_API_KEY'), $network, baseUrl: $base, sleep: function (int $ms) use (&$waits) {
        $waits[] = $ms;
    });
    $created = $client->createOrder(ORDER);
    check(count($network->keys) === 3 && count(array_unique($network->keys)) === 1, 'one key on 3 attempts: ' . json_encode($network->keys));
    check(preg_match('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $network->keys[0]) === 1, 'a UUID');
    check($waits[0] === 1000, 'Retry-After honoured: ' . json_encode($waits));
    $orders = iterator_to_array($client->iterateOrders());
    check(count($orders) === 1 && $orders[0]['tracking_ref'] === $created['trackingRef'], 'exactly one order');
});

test('gives up after maxRetries with the last error', function () use ($base) {
    $busy = new class implements ClientInterface {
        public int $attempts = 0;

        public function sendRequest(RequestInterface $request): ResponseInterface
        {
            $this->attempts++;
            return new Response(429, ['Retry-After' => '0'], '{"ok":false,"error":"rate_limited","message":"Slow down","request_id":"req_1"}');
        }
    };
    $client = new Client('dlv_x', $busy, baseUrl: $base, maxRetries: 2);
    $e = apiError(fn () => $client->listOrders());
    check($e->error() === 'rate_limited' && $e->retryAfter === 0 && $busy->attempts === 3, 'three attempts then rate_limited');
});

test('verifies a test-mode webhook delivery (Standard Webhooks) and refuses a tampered one', function () {
    $fixture = json_decode((string) file_get_contents((string) getenv('DLV_WEBHOOK_FIXTURE')), true);
    $webhook = new Webhook($fixture['secret']);
    $event = $webhook->verify($fixture['body'], $fixture['headers']);
    check($event['type'] === 'order.created', 'an order.created event');
    check($event['data']['order']['livemode'] === false, 'a test order\'s event (livemode false)');
    $server = [];
    foreach ($fixture['headers'] as $name => $value) {
        $server['HTTP_' . strtoupper(str_replace('-', '_', $name))] = $value;
    }
    check($webhook->verify($fixture['body'], $server)['type'] === 'order.created', '$_SERVER headers accepted');
    foreach ([
        'tampered' => fn () => $webhook->verify(str_replace('order', 'Order', $fixture['body']), $fixture['headers']),
        'late' => fn () => $webhook->verify($fixture['body'], $fixture['headers'], time() + 600),
        'other secret' => fn () => (new Webhook('whsec_' . base64_encode(random_bytes(32))))->verify($fixture['body'], $fixture['headers']),
    ] as $case => $verify) {
        try {
            $verify();
            throw new RuntimeException("$case: accepted");
        } catch (WebhookVerificationException) {
        }
    }
});

echo $failures === 0 ? "# all $count passed\n" : "# $failures of $count failed\n";
exit($failures === 0 ? 0 : 1);
