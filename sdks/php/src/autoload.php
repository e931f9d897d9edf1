<?php

declare(strict_types=1);

// For projects without Composer: `require 'path/to/sdk/src/autoload.php';` (Composer users get the
// same PSR-4 mapping from composer.json). The PSR interfaces and an HTTP client come from the project.
spl_autoload_register(static function (string $class): void {
    $prefix = 'Dlv\\Sdk\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
