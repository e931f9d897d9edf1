<?php

declare(strict_types=1);

namespace Dlv\Sdk;

/** The request got no answer from the API (network failure, timeout). */
final class ConnectionException extends \RuntimeException
{
}
