<?php
/**
 * The configuration page: validation (all or nothing), secrets never printed back.
 *
 * @license MIT
 */
class ConfigFormTest extends ModuleTestCase
{
    private function submit(array $values)
    {
        $_POST = $values + ['submitDlvShipping' => '1'];

        return $this->module->getContent();
    }

    public function testSavesValidSettingsAndNeverPrintsTheKeyOrTheSecret()
    {
        $key = 'dlv_' . str_repeat('ab', 32);
        $html = $this->submit(['DLV_API_KEY' => $key, 'DLV_API_BASE_URL' => 'https://api.example.fr/',
            'DLV_CONNECTION_ID' => 'con_abc', 'DLV_SHOP_SECRET' => 'shh-secret-0123456789']);
        $this->assertStringContainsString('alert-success', $html);
        $this->assertSame($key, Configuration::get('DLV_API_KEY'));
        $this->assertSame('https://api.example.fr', Configuration::get('DLV_API_BASE_URL'));
        $this->assertSame('con_abc', Configuration::get('DLV_CONNECTION_ID'));
        $this->assertSame('shh-secret-0123456789', Configuration::get('DLV_SHOP_SECRET'));
        $this->assertStringNotContainsString($key, $html);
        $this->assertStringNotContainsString('shh-secret', $html);

        $this->submit(['DLV_API_KEY' => '', 'DLV_API_BASE_URL' => 'https://api.example.fr', 'DLV_CONNECTION_ID' => 'con_abc', 'DLV_SHOP_SECRET' => '']);
        $this->assertSame($key, Configuration::get('DLV_API_KEY'), 'an empty field keeps the saved key');
        $this->assertSame('shh-secret-0123456789', Configuration::get('DLV_SHOP_SECRET'));
    }

    public function testAnInvalidFieldSavesNothing()
    {
        $html = $this->submit(['DLV_API_KEY' => 'dlv_' . str_repeat('c', 20), 'DLV_API_BASE_URL' => 'http://api.example.fr',
            'DLV_CONNECTION_ID' => 'con_<script>', 'DLV_SHOP_SECRET' => 'short']);
        $this->assertStringContainsString('alert-danger', $html);
        $this->assertStringContainsString('https address', $html);
        $this->assertStringContainsString('con_', $html);
        $this->assertStringNotContainsString('<script>', $html);
        $this->assertFalse(Configuration::get('DLV_API_KEY'));
        $this->assertSame('https://api.livraison-dlv.fr', Configuration::get('DLV_API_BASE_URL'));
        $this->assertFalse(Configuration::get('DLV_CONNECTION_ID'));
    }

    public function testShowsHowManyEventsWait()
    {
        DlvPushQueue::add(1, 'order.paid', '{}');
        $this->assertStringContainsString('1 order event(s) are waiting', $this->module->getContent());
    }
}
