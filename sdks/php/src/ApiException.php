<?php

declare(strict_types=1);

namespace Dlv\Sdk;

/**
 * The API answered with an error. `$error` is the envelope's code (one of Client::ERROR_CODES):
 * match on it; `$requestId` is what support asks for.
 */
final class ApiException extends \RuntimeException
{
    /**
     * @param array{ok?: bool, error: string, message: string, request_id: string, details?: list<array{field: string, message: string}>} $envelope
     */
    public function __construct(
        public readonly int $status,
        public readonly array $envelope,
        public readonly ?int $retryAfter = null,
    ) {
        parent::__construct(sprintf('%s: %s (request %s)', $envelope['error'], $envelope['message'], $envelope['request_id']), $status);
    }

    public function error(): string
    {
        return $this->envelope['error'];
    }

    public function requestId(): string
    {
        return $this->envelope['request_id'];
    }

    /** @return list<array{field: string, message: string}> */
    public function details(): array
    {
        return $this->envelope['details'] ?? [];
    }
}
