<?php

declare(strict_types=1);

namespace Dlv\Sdk;

/** A delivery whose signature, timestamp or headers do not check out: answer 400 and drop it. */
final class WebhookVerificationException extends \RuntimeException
{
}
