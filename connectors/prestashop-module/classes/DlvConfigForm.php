<?php
/**
 * The configuration page: API key, API base URL, connection id and shop secret (HelperForm). The key
 * and the secret are never printed back: empty fields keep the saved values.
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvConfigForm
{
    const SUBMIT = 'submitDlvShipping';

    const KEYS = ['DLV_API_KEY', 'DLV_API_BASE_URL', 'DLV_CONNECTION_ID', 'DLV_SHOP_SECRET'];

    /** @var Module */
    private $module;

    public function __construct(Module $module)
    {
        $this->module = $module;
    }

    /** Saves a submitted form (all fields valid, or nothing saved), then renders the form. */
    public function handle()
    {
        $output = '';
        if (Tools::isSubmit(self::SUBMIT)) {
            $errors = $this->save();
            $output .= $errors
                ? $this->module->displayError($errors)
                : $this->module->displayConfirmation($this->module->l('Settings saved.'));
        }
        $waiting = DlvPushQueue::count();
        if ($waiting > 0) {
            $output .= $this->module->displayWarning(sprintf($this->module->l('%d order event(s) are waiting to be sent to Livraison DLV; they are retried on the next order and by the cron.'), $waiting));
        }

        return $output . $this->render();
    }

    /** @return string[] the errors; none means saved */
    private function save()
    {
        $apiKey = trim((string) Tools::getValue('DLV_API_KEY'));
        $baseUrl = rtrim(trim((string) Tools::getValue('DLV_API_BASE_URL')), '/');
        $connectionId = trim((string) Tools::getValue('DLV_CONNECTION_ID'));
        $secret = trim((string) Tools::getValue('DLV_SHOP_SECRET'));
        $errors = [];
        if ($apiKey !== '' && !preg_match('/^dlv_[A-Za-z0-9]{16,128}$/', $apiKey)) {
            $errors[] = $this->module->l('The API key starts with dlv_ followed by letters and digits.');
        }
        if (!self::isAcceptableBaseUrl($baseUrl)) {
            $errors[] = $this->module->l('The API base URL must be an https address (http only for localhost).');
        }
        if ($connectionId !== '' && !preg_match('/^con_[A-Za-z0-9_-]{1,100}$/', $connectionId)) {
            $errors[] = $this->module->l('The connection id starts with con_.');
        }
        if ($secret !== '' && !preg_match('/^[\x21-\x7e]{16,255}$/', $secret)) {
            $errors[] = $this->module->l('The shop secret is the 16 or more characters shown when you connected the shop.');
        }
        if ($errors) {
            return $errors;
        }
        Configuration::updateValue('DLV_API_BASE_URL', $baseUrl);
        Configuration::updateValue('DLV_CONNECTION_ID', $connectionId);
        if ($apiKey !== '') {
            Configuration::updateValue('DLV_API_KEY', $apiKey);
        }
        if ($secret !== '') {
            Configuration::updateValue('DLV_SHOP_SECRET', $secret);
        }

        return [];
    }

    /** https, or http on the loopback for development; no credentials, query or fragment. */
    public static function isAcceptableBaseUrl($url)
    {
        $parts = parse_url($url);
        if (!is_array($parts) || empty($parts['scheme']) || empty($parts['host'])
            || isset($parts['user']) || isset($parts['query']) || isset($parts['fragment'])) {
            return false;
        }
        $scheme = strtolower($parts['scheme']);
        $loopback = in_array(strtolower($parts['host']), ['localhost', '127.0.0.1', '[::1]'], true);

        return $scheme === 'https' || ($scheme === 'http' && $loopback);
    }

    private function render()
    {
        $module = $this->module;
        $helper = new HelperForm();
        $helper->module = $module;
        $helper->name_controller = $module->name;
        $helper->table = $module->name;
        $helper->identifier = 'id_module';
        $helper->submit_action = self::SUBMIT;
        $helper->token = Tools::getAdminTokenLite('AdminModules');
        $helper->currentIndex = AdminController::$currentIndex . '&configure=' . $module->name;
        $helper->default_form_language = (int) Configuration::get('PS_LANG_DEFAULT');
        $saved = function ($key) {
            return Configuration::get($key) ? $this->module->l('Saved — type a new one to replace it') : '';
        };
        $helper->fields_value = [
            'DLV_API_KEY' => '',
            'DLV_API_BASE_URL' => (string) Configuration::get('DLV_API_BASE_URL'),
            'DLV_CONNECTION_ID' => (string) Configuration::get('DLV_CONNECTION_ID'),
            'DLV_SHOP_SECRET' => '',
        ];
        $form = ['form' => [
            'legend' => ['title' => $module->l('Livraison DLV'), 'icon' => 'icon-truck'],
            'input' => [
                ['type' => 'password', 'name' => 'DLV_API_KEY', 'label' => $module->l('API key'),
                    'desc' => $saved('DLV_API_KEY') ?: $module->l('Your brand key (dlv_…), from your Livraison DLV account.')],
                ['type' => 'text', 'name' => 'DLV_API_BASE_URL', 'label' => $module->l('API base URL'), 'required' => true,
                    'desc' => $module->l('Leave the default unless Livraison DLV gave you another address.')],
                ['type' => 'text', 'name' => 'DLV_CONNECTION_ID', 'label' => $module->l('Connection id'),
                    'desc' => $module->l('con_…, shown when you connect this shop in your Livraison DLV account.')],
                ['type' => 'password', 'name' => 'DLV_SHOP_SECRET', 'label' => $module->l('Shop secret'),
                    'desc' => $saved('DLV_SHOP_SECRET') ?: $module->l('Shown once with the connection id: it signs the orders this shop sends.')],
            ],
            'submit' => ['title' => $module->l('Save')],
        ]];

        return $helper->generateForm([$form]);
    }
}
