<?php
/**
 * Loads the stubs, then the module as PrestaShop would (its main file).
 *
 * @license MIT
 */
require __DIR__ . '/stubs/prestashop.php';
require __DIR__ . '/stubs/db.php';
require dirname(__DIR__) . '/dlvshipping.php';
require __DIR__ . '/ModuleTestCase.php';
