<?php
/**
 * The outbox of order events (table dlv_push_queue): an event is written before it is sent and
 * deleted once our side accepted it, so an event that could not be sent is sent again later, with
 * the same delivery id and the same bytes (signed again with the time of that attempt).
 *
 * @author    Livraison DLV
 * @license   MIT
 */
if (!defined('_PS_VERSION_')) {
    exit;
}

class DlvPushQueue
{
    const TABLE = 'dlv_push_queue';

    /** After this many failed sends an event is dropped (logged): the bridge's poll of the shop catches up. */
    const MAX_ATTEMPTS = 20;

    /** Events sent per flush, so an order page never waits on a long backlog. */
    const BATCH = 20;

    /** @var callable|null returns the current Unix time; null is time() (tests set a clock) */
    public static $clock;

    public static function createTable()
    {
        return Db::getInstance()->execute('CREATE TABLE IF NOT EXISTS `' . _DB_PREFIX_ . self::TABLE . '` (
            `id_dlv_push` INT UNSIGNED NOT NULL AUTO_INCREMENT,
            `delivery_id` CHAR(36) NOT NULL,
            `id_order` INT UNSIGNED NOT NULL,
            `event` VARCHAR(32) NOT NULL,
            `body` MEDIUMTEXT NOT NULL,
            `attempts` INT UNSIGNED NOT NULL DEFAULT 0,
            `last_error` VARCHAR(255) NULL,
            `next_attempt` DATETIME NOT NULL,
            `date_add` DATETIME NOT NULL,
            PRIMARY KEY (`id_dlv_push`),
            UNIQUE KEY `delivery_id` (`delivery_id`),
            KEY `id_order` (`id_order`)
        ) ENGINE=' . _MYSQL_ENGINE_ . ' DEFAULT CHARSET=utf8mb4');
    }

    public static function dropTable()
    {
        return Db::getInstance()->execute('DROP TABLE IF EXISTS `' . _DB_PREFIX_ . self::TABLE . '`');
    }

    /** Queues an event, due now. */
    public static function add($idOrder, $event, $body)
    {
        $now = self::date(self::now());

        return Db::getInstance()->insert(self::TABLE, [
            'delivery_id' => pSQL(self::uuid4()),
            'id_order' => (int) $idOrder,
            'event' => pSQL($event),
            'body' => pSQL($body, true),
            'attempts' => 0,
            'next_attempt' => $now,
            'date_add' => $now,
        ]);
    }

    /**
     * Sends what is due, oldest first; an order whose earlier event is still waiting keeps its later
     * ones waiting too (a cancellation never overtakes the payment it cancels).
     *
     * @param callable $send (row) → true | error message
     *
     * @return int events delivered
     */
    public static function flush(callable $send)
    {
        $rows = Db::getInstance()->executeS('SELECT * FROM `' . _DB_PREFIX_ . self::TABLE
            . '` ORDER BY `id_dlv_push` ASC LIMIT ' . (int) (self::BATCH * 5));
        $now = self::now();
        $blocked = [];
        $delivered = 0;
        $tried = 0;
        foreach ($rows ?: [] as $row) {
            $idOrder = (int) $row['id_order'];
            if (isset($blocked[$idOrder]) || $tried >= self::BATCH) {
                continue;
            }
            if (strtotime($row['next_attempt']) > $now) {
                $blocked[$idOrder] = true;
                continue;
            }
            ++$tried;
            $result = $send($row);
            if ($result === true) {
                self::remove($row);
                ++$delivered;
            } else {
                $blocked[$idOrder] = true;
                self::failed($row, (string) $result, $now);
            }
        }

        return $delivered;
    }

    /** Every queued row (the configuration page shows how many wait). */
    public static function count()
    {
        return (int) Db::getInstance()->getValue('SELECT COUNT(*) FROM `' . _DB_PREFIX_ . self::TABLE . '`');
    }

    private static function failed(array $row, $error, $now)
    {
        $attempts = (int) $row['attempts'] + 1;
        if ($attempts >= self::MAX_ATTEMPTS) {
            DlvApiClient::log(sprintf('order %d %s dropped after %d attempts (%s)', $row['id_order'], $row['event'], $attempts, $error));
            self::remove($row);

            return;
        }
        // 1 min, 2, 4… capped at 6 h: a shop down for a day is retried a few times an hour at most.
        $delay = min(60 * (2 ** ($attempts - 1)), 6 * 3600);
        Db::getInstance()->update(self::TABLE, [
            'attempts' => $attempts,
            'last_error' => pSQL(mb_substr($error, 0, 255)),
            'next_attempt' => self::date($now + $delay),
        ], '`id_dlv_push` = ' . (int) $row['id_dlv_push']);
    }

    private static function remove(array $row)
    {
        Db::getInstance()->delete(self::TABLE, '`id_dlv_push` = ' . (int) $row['id_dlv_push']);
    }

    /** The current Unix time (the tests' clock when set): also what a push is signed with. */
    public static function now()
    {
        return self::$clock ? (int) call_user_func(self::$clock) : time();
    }

    private static function date($timestamp)
    {
        return date('Y-m-d H:i:s', $timestamp);
    }

    /** A random (version 4) UUID: the delivery id the bridge deduplicates on. */
    public static function uuid4()
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);

        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
