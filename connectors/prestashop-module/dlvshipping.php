<?php
/**
 * Livraison DLV for PrestaShop: one carrier per service priced live by our API, and paid orders
 * pushed to our service (signed with the shop secret) as they happen.
 *
 * @author    Livraison DLV
 * @copyright Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

require_once __DIR__ . '/classes/DlvHttp.php';
require_once __DIR__ . '/classes/DlvWeight.php';
require_once __DIR__ . '/classes/DlvApiClient.php';
require_once __DIR__ . '/classes/DlvRateQuote.php';
require_once __DIR__ . '/classes/DlvCarriers.php';
require_once __DIR__ . '/classes/DlvPushQueue.php';
require_once __DIR__ . '/classes/DlvOrderPush.php';
require_once __DIR__ . '/classes/DlvConfigForm.php';

class DlvShipping extends CarrierModule
{
    const DEFAULT_BASE_URL = 'https://api.livraison-dlv.fr';

    const HOOKS = ['actionCarrierUpdate', 'actionValidateOrder', 'actionOrderStatusPostUpdate', 'actionCronJob'];

    /** @var int set by the core to the carrier being priced before getOrderShippingCost() */
    public $id_carrier;

    /** @var callable how requests are sent: DlvHttp::post (tests wrap it to count them) */
    public $http = ['DlvHttp', 'post'];

    public function __construct()
    {
        $this->name = 'dlvshipping';
        $this->tab = 'shipping_logistics';
        $this->version = '1.0.0';
        $this->author = 'Livraison DLV';
        $this->need_instance = 0;
        $this->ps_versions_compliancy = ['min' => '8.0.0', 'max' => _PS_VERSION_];
        $this->bootstrap = true;
        parent::__construct();
        $this->displayName = $this->l('Livraison DLV');
        $this->description = $this->l('Same-day and next-day delivery in Île-de-France: live rates at checkout, paid orders sent to Livraison DLV.');
        $this->confirmUninstall = $this->l('Remove the Livraison DLV carriers and the orders still waiting to be sent?');
    }

    public function install()
    {
        return parent::install()
            && $this->registerHook(self::HOOKS)
            && DlvPushQueue::createTable()
            && Configuration::updateValue('DLV_API_BASE_URL', self::DEFAULT_BASE_URL)
            && DlvCarriers::install($this->name);
    }

    public function uninstall()
    {
        foreach (DlvConfigForm::KEYS as $key) {
            Configuration::deleteByName($key);
        }

        return DlvCarriers::uninstall() && DlvPushQueue::dropTable() && parent::uninstall();
    }

    /** A carrier edited in the back office is saved as a new id with the same reference. */
    public function hookActionCarrierUpdate($params)
    {
        if (isset($params['id_carrier'], $params['carrier']) && $params['carrier'] instanceof Carrier) {
            DlvCarriers::follow((int) $params['id_carrier'], $params['carrier']);
        }
    }

    /**
     * Our price for this carrier's service, or false to hide the carrier (out of zone, error, not ours).
     * The price excludes VAT when the carrier has a tax rule (PrestaShop then adds it), else includes it.
     *
     * @param Cart $params
     * @param float $shipping_cost the ranges' cost, ignored: the price is ours
     */
    public function getOrderShippingCost($params, $shipping_cost)
    {
        $service = DlvCarriers::serviceOf((int) $this->id_carrier);
        if ($service === null || !$params instanceof Cart) {
            return false;
        }
        $rates = DlvRateQuote::ratesFor($params, $this->client(), (string) Configuration::get('DLV_API_KEY'));
        if (empty($rates[$service])) {
            return false;
        }
        $carrier = new Carrier((int) $this->id_carrier);
        $taxed = (float) $carrier->getTaxesRate(new Address((int) $params->id_address_delivery)) > 0;

        return $taxed ? $rates[$service]['price_excl_tax_eur'] : $rates[$service]['price_eur'];
    }

    public function getOrderShippingCostExternal($params)
    {
        return $this->getOrderShippingCost($params, 0);
    }

    /** A new order: pushed when it is created paid (card payments), else when a later state is paid. */
    public function hookActionValidateOrder($params)
    {
        $order = $params['order'] ?? null;
        $state = $params['orderStatus'] ?? null;
        if ($order instanceof Order && $state instanceof OrderState && $state->paid) {
            DlvOrderPush::push($order, DlvOrderPush::PAID, $this->client());
        }
    }

    /**
     * The first paid state pushes order.paid, the shop's "cancelled" state order.cancelled; any other
     * change only sends what was waiting.
     */
    public function hookActionOrderStatusPostUpdate($params)
    {
        $state = $params['newOrderStatus'] ?? null;
        $order = new Order((int) ($params['id_order'] ?? 0));
        if (!$state instanceof OrderState || !Validate::isLoadedObject($order)) {
            return;
        }
        if ((int) $state->id === (int) Configuration::get('PS_OS_CANCELED')) {
            DlvOrderPush::push($order, DlvOrderPush::CANCELLED, $this->client());
        } elseif ($state->paid && (int) $order->hasBeenPaid() <= 1) {
            // hasBeenPaid() counts the paid states in the history, which holds this change or not yet
            // depending on the caller: <= 1 is "first paid", at worst one repeat the bridge ignores.
            DlvOrderPush::push($order, DlvOrderPush::PAID, $this->client());
        } else {
            DlvOrderPush::flush($this->client());
        }
    }

    /** The cronjobs module's hook: events that failed are retried even when no order comes in. */
    public function hookActionCronJob()
    {
        DlvOrderPush::flush($this->client());
    }

    /** For the cronjobs module: every hour. */
    public function getCronFrequency()
    {
        return ['hour' => -1, 'day' => -1, 'month' => -1, 'day_of_week' => -1];
    }

    /** Modules → Configure (the back office checked the employee's token before calling it). */
    public function getContent()
    {
        return (new DlvConfigForm($this))->handle();
    }

    public function client()
    {
        $base = (string) Configuration::get('DLV_API_BASE_URL');

        return new DlvApiClient($base !== '' ? $base : self::DEFAULT_BASE_URL, $this->http);
    }
}
