<?php
/**
 * Install, uninstall and back-office edits of our carriers.
 *
 * @license MIT
 */
class CarriersTest extends ModuleTestCase
{
    public function testInstallCreatesOneCarrierPerServiceAndStoresTheirReferences()
    {
        $this->assertCount(3, PsTest::$rows['Carrier']);
        foreach (['express', 'standard', 'economy'] as $service) {
            $id = $this->carrierId($service);
            $carrier = new Carrier($id);
            $this->assertSame((string) $id, Configuration::get('DLV_CARRIER_REF_' . strtoupper($service)));
            $this->assertSame($id, (int) $carrier->id_reference);
            $this->assertSame('dlvshipping', $carrier->external_module_name);
            $this->assertTrue($carrier->is_module && $carrier->shipping_external && $carrier->need_range);
            $this->assertSame(Carrier::SHIPPING_METHOD_WEIGHT, $carrier->shipping_method);
            $this->assertFalse($carrier->shipping_handling, 'no handling fee added to our price');
            $this->assertSame([1], $carrier->zones, 'France\'s zone only');
            $this->assertSame([1, 2, 3], $carrier->groups);
            $this->assertCount(2, $carrier->delay, 'a delay in every language');
            $this->assertSame($service, DlvCarriers::serviceOf($id));
        }
        $ranges = array_values(PsTest::$rows['RangeWeight']);
        $this->assertCount(3, $ranges);
        $this->assertEquals(2000, $ranges[0]['delimiter2'], '2000 kg, in the shop\'s unit (kg)');
        $this->assertSame(DlvShipping::HOOKS, PsTest::$hooks);
        $this->assertArrayHasKey('ps_dlv_push_queue', PsTest::$tables);
        $this->assertSame('https://api.livraison-dlv.fr', Configuration::get('DLV_API_BASE_URL'));
    }

    public function testActionCarrierUpdateFollowsTheNewIdOfAnEditedCarrier()
    {
        $old = new Carrier($this->carrierId('standard'));
        // What the back office does on save: a copy with a new id and the same reference, the old one deleted.
        $copy = new Carrier($old->id);
        $copy->id = null;
        $copy->add();
        PsTest::$rows['Carrier'][$copy->id]['id_reference'] = $old->id_reference;
        $new = new Carrier($copy->id);
        $old->deleted = true;
        $old->update();

        $this->module->hookActionCarrierUpdate(['id_carrier' => $old->id, 'carrier' => $new]);

        $this->assertSame($new->id, $this->carrierId('standard'));
        $this->assertSame((string) $old->id, Configuration::get('DLV_CARRIER_REF_STANDARD'), 'the reference stays');
        $this->assertSame('standard', DlvCarriers::serviceOf($new->id));
        $this->assertSame('standard', DlvCarriers::serviceOf($old->id), 'orders placed before the edit keep their service');

        $this->module->hookActionCarrierUpdate(['id_carrier' => 999, 'carrier' => new Carrier($this->carrierId('express'))]);
        $this->assertSame($new->id, $this->carrierId('standard'), 'someone else\'s carrier changes nothing');
    }

    public function testAnotherModulesCarrierIsNotOurs()
    {
        $id = PsTest::save('Carrier', ['id_reference' => 77, 'external_module_name' => 'colissimo']);
        $this->assertNull(DlvCarriers::serviceOf($id));
        $this->assertNull(DlvCarriers::serviceOf(0));
    }

    public function testAShopCarrierNamedLikeOursIsNotOurs()
    {
        // The merchant's own carriers, named as ours or as our services: only the reference counts.
        foreach (['Livraison DLV Standard', 'Livraison DLV', 'Standard', 'Express'] as $name) {
            $id = PsTest::save('Carrier', ['name' => $name, 'external_module_name' => '']);
            PsTest::$rows['Carrier'][$id]['id_reference'] = $id;
            $this->assertNull(DlvCarriers::serviceOf($id), $name);
        }
        // Even one the merchant made by copying ours under its own reference.
        $ours = new Carrier($this->carrierId('express'));
        $copy = PsTest::save('Carrier', ['name' => $ours->name, 'external_module_name' => 'dlvshipping']);
        PsTest::$rows['Carrier'][$copy]['id_reference'] = $copy;
        $this->assertNull(DlvCarriers::serviceOf($copy));
    }

    public function testUninstallDeletesTheCurrentCarriersTheQueueAndTheSettings()
    {
        $express = $this->carrierId('express');
        Configuration::updateValue('DLV_SHOP_SECRET', 'secret');
        $this->assertTrue($this->module->uninstall());
        $this->assertTrue((new Carrier($express))->deleted);
        $this->assertFalse(Configuration::get('DLV_CARRIER_REF_EXPRESS'));
        $this->assertFalse(Configuration::get('DLV_SHOP_SECRET'));
        $this->assertArrayNotHasKey('ps_dlv_push_queue', PsTest::$tables);
    }
}
