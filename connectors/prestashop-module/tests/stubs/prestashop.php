<?php
/**
 * The PrestaShop classes the module uses, written from PrestaShop 8's classes for the behaviour the
 * module relies on (Carrier::add() writes id_reference in the table only, Db::insert() does not
 * escape, ObjectModel ids, the hooks' parameters). Objects live in PsTest::$rows by class and id.
 *
 * @license MIT
 */
define('_PS_VERSION_', '8.1.7');
define('_DB_PREFIX_', 'ps_');
define('_MYSQL_ENGINE_', 'InnoDB');

class PsTest
{
    public static $rows = [];
    public static $nextId = [];
    public static $config = [];
    public static $logs = [];
    public static $sql = [];
    public static $tables = [];
    public static $hooks = [];

    public static function reset()
    {
        self::$rows = self::$nextId = self::$config = self::$logs = self::$sql = self::$tables = self::$hooks = [];
        self::$config['PS_WEIGHT_UNIT'] = 'kg';
        self::$config['PS_LANG_DEFAULT'] = 1;
        self::$config['PS_OS_CANCELED'] = 6;
        $_POST = $_GET = [];
    }

    /** Saves an object of a class as if it were in the database; returns its id. */
    public static function save($class, array $props)
    {
        if (empty($props['id'])) {
            self::$nextId[$class] = (self::$nextId[$class] ?? 0) + 1;
            $props['id'] = self::$nextId[$class];
        }
        self::$rows[$class][$props['id']] = $props + (self::$rows[$class][$props['id']] ?? []);

        return $props['id'];
    }
}

function pSQL($string, $htmlOK = false)
{
    $string = (string) $string;
    if (!$htmlOK) {
        $string = strip_tags($string);
    }

    return addslashes($string);
}

abstract class ObjectModel
{
    public $id;

    public function __construct($id = null)
    {
        $row = $id ? (PsTest::$rows[static::class][(int) $id] ?? null) : null;
        if ($row !== null) {
            foreach ($row as $name => $value) {
                $this->$name = $value;
            }
        }
    }

    public function add($autoDate = true, $nullValues = false)
    {
        $this->id = PsTest::save(static::class, get_object_vars($this));

        return true;
    }

    public function update($nullValues = false)
    {
        PsTest::save(static::class, get_object_vars($this));

        return true;
    }
}

class Validate
{
    public static function isLoadedObject($object)
    {
        return is_object($object) && $object->id && (int) $object->id > 0;
    }
}

class Configuration
{
    public static function get($key, $idLang = null, $idShopGroup = null, $idShop = null, $default = false)
    {
        return array_key_exists($key, PsTest::$config) ? PsTest::$config[$key] : $default;
    }

    public static function updateValue($key, $values, $html = false)
    {
        PsTest::$config[$key] = (string) $values;

        return true;
    }

    public static function deleteByName($key)
    {
        unset(PsTest::$config[$key]);

        return true;
    }
}

class Carrier extends ObjectModel
{
    const SHIPPING_METHOD_DEFAULT = 0;
    const SHIPPING_METHOD_WEIGHT = 1;
    const SHIPPING_METHOD_PRICE = 2;
    const SHIPPING_METHOD_FREE = 3;

    public $id_reference;
    public $name;
    public $url;
    public $delay = [];
    public $active = true;
    public $deleted = false;
    public $is_module = false;
    public $shipping_external = false;
    public $external_module_name;
    public $need_range = false;
    public $shipping_handling = true;
    public $shipping_method = self::SHIPPING_METHOD_DEFAULT;
    public $range_behavior;
    public $grade;
    public $zones = [];
    public $groups = [];
    /** Not a PrestaShop field: the rate its tax rules group gives (getTaxesRate()). */
    public $tax_rate = 0.0;

    /** As PrestaShop: the reference is set in the table (UPDATE … SET id_reference = id), not on $this. */
    public function add($autoDate = true, $nullValues = false)
    {
        parent::add($autoDate, $nullValues);
        PsTest::$rows['Carrier'][$this->id]['id_reference'] = $this->id;

        return true;
    }

    public function addZone($idZone)
    {
        PsTest::$rows['Carrier'][$this->id]['zones'][] = (int) $idZone;

        return true;
    }

    public function setGroups($groups, $delete = true)
    {
        PsTest::$rows['Carrier'][$this->id]['groups'] = $groups;

        return true;
    }

    public function getTaxesRate($address = null)
    {
        return (float) $this->tax_rate;
    }
}

class RangeWeight extends ObjectModel
{
    public $id_carrier;
    public $delimiter1;
    public $delimiter2;
}

class Country
{
    const ISO = [8 => 'FR', 3 => 'BE'];

    public static function getByIso($iso)
    {
        return (int) array_search(strtoupper($iso), self::ISO, true);
    }

    public static function getIdZone($idCountry)
    {
        return $idCountry === 8 ? 1 : 9;
    }

    public static function getIsoById($idCountry)
    {
        return self::ISO[(int) $idCountry] ?? false;
    }
}

class Language
{
    public static function getLanguages($active = true)
    {
        return [['id_lang' => 1, 'iso_code' => 'fr'], ['id_lang' => 2, 'iso_code' => 'en']];
    }
}

class Group
{
    public static function getGroups($idLang)
    {
        return [['id_group' => 1], ['id_group' => 2], ['id_group' => 3]];
    }
}

class Address extends ObjectModel
{
    public $id_country;
    public $company = '';
    public $firstname;
    public $lastname;
    public $address1;
    public $address2 = '';
    public $postcode;
    public $city;
    public $phone = '';
    public $phone_mobile = '';
}

class Cart extends ObjectModel
{
    public $id_address_delivery;
    /** Not a field: what getTotalWeight() answers, in PS_WEIGHT_UNIT. */
    public $total_weight = 0;

    public function getTotalWeight($products = null)
    {
        return $this->total_weight;
    }
}

class Customer extends ObjectModel
{
    public $email;
    public $firstname;
    public $lastname;
}

class Currency extends ObjectModel
{
    public $iso_code;
}

class OrderState extends ObjectModel
{
    public $paid = false;
}

class Order extends ObjectModel
{
    public $reference;
    public $id_carrier;
    public $id_customer;
    public $id_address_delivery;
    public $id_currency;
    public $current_state;
    public $total_paid_tax_incl;
    public $date_upd;
    /** Not fields: what getProducts() and hasBeenPaid() answer. */
    public $lines = [];
    public $paid_states = 0;

    public function getProducts($products = false, $selectedProducts = false, $selectedQty = false, $fullInfos = true)
    {
        return $this->lines;
    }

    public function hasBeenPaid()
    {
        return $this->paid_states;
    }
}

class PrestaShopLogger
{
    public static function addLog($message, $severity = 1, $errorCode = null, $objectType = null, $objectId = null, $allowDuplicate = false, $idEmployee = null)
    {
        PsTest::$logs[] = [$severity, $message];

        return true;
    }
}

class TestShop
{
    public function getBaseURL($autoSsl = false, $addBaseUri = true)
    {
        return 'https://boutique.example.fr/';
    }
}

class Context
{
    public $shop;
    private static $instance;

    public static function getContext()
    {
        if (!self::$instance) {
            self::$instance = new self();
            self::$instance->shop = new TestShop();
        }

        return self::$instance;
    }
}

class Tools
{
    public static function getValue($key, $defaultValue = false)
    {
        return $_POST[$key] ?? $_GET[$key] ?? $defaultValue;
    }

    public static function isSubmit($submit)
    {
        return isset($_POST[$submit]) || isset($_GET[$submit]);
    }

    public static function getAdminTokenLite($tab)
    {
        return 'token-' . $tab;
    }
}

class AdminController
{
    public static $currentIndex = 'index.php?controller=AdminModules';
}

/** Renders what it was given, escaped as the Smarty template escapes it. */
class HelperForm
{
    public $module;
    public $name_controller;
    public $table;
    public $identifier;
    public $submit_action;
    public $token;
    public $currentIndex;
    public $default_form_language;
    public $fields_value = [];

    public function generateForm($forms)
    {
        return '<form>' . htmlspecialchars(json_encode(['forms' => $forms, 'values' => $this->fields_value]), ENT_QUOTES) . '</form>';
    }
}

abstract class Module
{
    public $name;
    public $tab;
    public $version;
    public $author;
    public $need_instance;
    public $ps_versions_compliancy;
    public $bootstrap;
    public $displayName;
    public $description;
    public $confirmUninstall;

    public function __construct()
    {
    }

    public function install()
    {
        return true;
    }

    public function uninstall()
    {
        return true;
    }

    public function registerHook($hookName)
    {
        foreach ((array) $hookName as $hook) {
            PsTest::$hooks[] = $hook;
        }

        return true;
    }

    public function l($string, $specific = false, $locale = null)
    {
        return $string;
    }

    public function displayError($error)
    {
        return '<div class="alert alert-danger">' . htmlspecialchars(implode(' ', (array) $error)) . '</div>';
    }

    public function displayConfirmation($string)
    {
        return '<div class="alert alert-success">' . htmlspecialchars($string) . '</div>';
    }

    public function displayWarning($warning)
    {
        return '<div class="alert alert-warning">' . htmlspecialchars(implode(' ', (array) $warning)) . '</div>';
    }
}

abstract class CarrierModule extends Module
{
    abstract public function getOrderShippingCost($params, $shipping_cost);

    abstract public function getOrderShippingCostExternal($params);
}
