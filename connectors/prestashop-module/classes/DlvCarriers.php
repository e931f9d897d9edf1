<?php
/**
 * Our three carriers: created at install, one per service, and found again by their reference when
 * the back office replaces one (PrestaShop saves an edited carrier as a new id, same id_reference).
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvCarriers
{
    const SERVICES = [
        'express' => ['name' => 'Livraison DLV Express', 'delay' => 'Same day (ordered before noon)', 'grade' => 9],
        'standard' => ['name' => 'Livraison DLV Standard', 'delay' => 'Next business day', 'grade' => 6],
        'economy' => ['name' => 'Livraison DLV Economy', 'delay' => 'Within 3 business days', 'grade' => 3],
    ];

    /** Configuration key of a service's carrier reference (stable across edits). */
    public static function referenceKey($service)
    {
        return 'DLV_CARRIER_REF_' . strtoupper($service);
    }

    /** Configuration key of a service's current carrier id (follows edits). */
    public static function idKey($service)
    {
        return 'DLV_CARRIER_ID_' . strtoupper($service);
    }

    /** Creates the carriers (France's zone, one weight range, every customer group); false on failure. */
    public static function install($moduleName)
    {
        $idZone = (int) Country::getIdZone((int) Country::getByIso('FR'));
        foreach (self::SERVICES as $service => $spec) {
            $carrier = new Carrier();
            $carrier->name = $spec['name'];
            $carrier->active = true;
            $carrier->is_module = true;
            $carrier->shipping_external = true;
            $carrier->external_module_name = $moduleName;
            $carrier->need_range = true;
            $carrier->shipping_method = Carrier::SHIPPING_METHOD_WEIGHT;
            // Out of our weight range the carrier is hidden rather than priced at the last range.
            $carrier->range_behavior = 1;
            // PrestaShop's handling fee (on by default) would be added to our price: the price is ours alone.
            $carrier->shipping_handling = false;
            $carrier->grade = $spec['grade'];
            $carrier->url = '';
            foreach (Language::getLanguages(false) as $language) {
                $carrier->delay[(int) $language['id_lang']] = $spec['delay'];
            }
            if (!$carrier->add()) {
                return false;
            }
            // Carrier::add() writes id_reference = id in the table, not on the object.
            $reference = (int) $carrier->id;
            if ($idZone > 0) {
                $carrier->addZone($idZone);
            }
            $carrier->setGroups(array_map(function ($group) {
                return (int) $group['id_group'];
            }, Group::getGroups((int) Configuration::get('PS_LANG_DEFAULT'))));
            // One range of 0 to 2000 kg (our maximum) in the shop's unit; the price is ours, not the range's.
            $range = new RangeWeight();
            $range->id_carrier = (int) $carrier->id;
            $range->delimiter1 = 0;
            $range->delimiter2 = 2000000 / DlvWeight::grams(1);
            $range->add();
            Configuration::updateValue(self::referenceKey($service), $reference);
            Configuration::updateValue(self::idKey($service), (int) $carrier->id);
        }

        return true;
    }

    /** Marks our carriers deleted (orders keep pointing at them) and forgets their ids. */
    public static function uninstall()
    {
        foreach (array_keys(self::SERVICES) as $service) {
            $carrier = new Carrier((int) Configuration::get(self::idKey($service)));
            if (Validate::isLoadedObject($carrier)) {
                $carrier->deleted = true;
                $carrier->update();
            }
            Configuration::deleteByName(self::referenceKey($service));
            Configuration::deleteByName(self::idKey($service));
        }

        return true;
    }

    /** After a back-office edit: the service's current id becomes the new carrier's. */
    public static function follow($oldId, Carrier $newCarrier)
    {
        $service = self::serviceOf((int) $oldId);
        if ($service !== null && Validate::isLoadedObject($newCarrier)) {
            Configuration::updateValue(self::idKey($service), (int) $newCarrier->id);
        }
    }

    /** Our service for a carrier id (current or replaced), or null for anyone else's carrier. */
    public static function serviceOf($idCarrier)
    {
        $idCarrier = (int) $idCarrier;
        if ($idCarrier <= 0) {
            return null;
        }
        foreach (array_keys(self::SERVICES) as $service) {
            if ((int) Configuration::get(self::idKey($service)) === $idCarrier) {
                return $service;
            }
        }
        $carrier = new Carrier($idCarrier);
        if (!Validate::isLoadedObject($carrier)) {
            return null;
        }
        foreach (array_keys(self::SERVICES) as $service) {
            if ((int) Configuration::get(self::referenceKey($service)) === (int) $carrier->id_reference) {
                return $service;
            }
        }

        return null;
    }
}
