<?php
/**
 * Weights in the shop's unit (PS_WEIGHT_UNIT, free text set in Localization) to grams.
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvWeight
{
    /** Grams in one unit of each spelling shops use; anything else is taken as kilograms, the default. */
    const GRAMS_PER_UNIT = [
        'kg' => 1000.0,
        'g' => 1.0,
        'gr' => 1.0,
        'lb' => 453.59237,
        'lbs' => 453.59237,
        'oz' => 28.349523125,
    ];

    /** Grams as a float, for a weight in the shop's unit. */
    public static function grams($weight, $unit = null)
    {
        $unit = strtolower(trim((string) ($unit === null ? Configuration::get('PS_WEIGHT_UNIT') : $unit)));
        $factor = self::GRAMS_PER_UNIT[$unit] ?? 1000.0;

        return max(0.0, (float) $weight) * $factor;
    }

    /** Whole grams rounded up (a declared weight is never under-priced), milligram noise ignored. */
    public static function wholeGrams($weight, $unit = null)
    {
        return (int) ceil(round(self::grams($weight, $unit), 3));
    }

    /** Kilograms as the push body writes them: "0.450". */
    public static function kilograms($weight, $unit = null)
    {
        return number_format(self::grams($weight, $unit) / 1000, 3, '.', '');
    }
}
