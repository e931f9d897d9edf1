<?php
/**
 * Db as the module calls it: execute() for its DDL, insert()/update()/delete() with the table name
 * without prefix (added, as PrestaShop does) and a `col` = N condition, executeS()/getValue() of a
 * SELECT on one table. Values arrive escaped by pSQL() and are stored unescaped, like MySQL would.
 *
 * @license MIT
 */
class Db
{
    private static $instance;

    public static function getInstance($master = true)
    {
        return self::$instance ?: (self::$instance = new self());
    }

    public function execute($sql, $useCache = true)
    {
        PsTest::$sql[] = $sql;
        if (preg_match('/CREATE TABLE IF NOT EXISTS `(\w+)`/', $sql, $m)) {
            PsTest::$tables[$m[1]] = PsTest::$tables[$m[1]] ?? [];
        } elseif (preg_match('/DROP TABLE IF EXISTS `(\w+)`/', $sql, $m)) {
            unset(PsTest::$tables[$m[1]]);
        }

        return true;
    }

    public function insert($table, $data, $nullValues = false, $useCache = true, $type = 1, $addPrefix = true)
    {
        $name = $this->table($table, $addPrefix);
        $row = array_map(function ($value) {
            return is_string($value) ? stripslashes($value) : $value;
        }, $data);
        $id = count(PsTest::$tables[$name]) ? max(array_keys(PsTest::$tables[$name])) + 1 : 1;
        $row = ['id_dlv_push' => $id] + $row;
        PsTest::$tables[$name][$id] = $row;

        return true;
    }

    public function update($table, $data, $where = '', $limit = 0, $nullValues = false, $useCache = true, $addPrefix = true)
    {
        $name = $this->table($table, $addPrefix);
        foreach ($this->matching($name, $where) as $id) {
            foreach ($data as $column => $value) {
                PsTest::$tables[$name][$id][$column] = is_string($value) ? stripslashes($value) : $value;
            }
        }

        return true;
    }

    public function delete($table, $where = '', $limit = 0, $useCache = true, $addPrefix = true)
    {
        $name = $this->table($table, $addPrefix);
        foreach ($this->matching($name, $where) as $id) {
            unset(PsTest::$tables[$name][$id]);
        }

        return true;
    }

    public function executeS($sql, $array = true, $useCache = true)
    {
        if (!preg_match('/FROM `(\w+)`.*?(?:LIMIT (\d+))?$/s', $sql, $m) || !isset(PsTest::$tables[$m[1]])) {
            throw new RuntimeException('unexpected query: ' . $sql);
        }
        $rows = PsTest::$tables[$m[1]];
        ksort($rows);

        return array_slice(array_values($rows), 0, isset($m[2]) ? (int) $m[2] : null);
    }

    public function getValue($sql, $useCache = true)
    {
        if (!preg_match('/SELECT COUNT\(\*\) FROM `(\w+)`$/', $sql, $m) || !isset(PsTest::$tables[$m[1]])) {
            throw new RuntimeException('unexpected query: ' . $sql);
        }

        return count(PsTest::$tables[$m[1]]);
    }

    private function table($table, $addPrefix)
    {
        $name = ($addPrefix ? _DB_PREFIX_ : '') . $table;
        if (!isset(PsTest::$tables[$name])) {
            throw new RuntimeException("Table '$name' doesn't exist");
        }

        return $name;
    }

    private function matching($name, $where)
    {
        if (!preg_match('/^`(\w+)` = (\d+)$/', $where, $m)) {
            throw new RuntimeException('unexpected condition: ' . $where);
        }

        return array_keys(array_filter(PsTest::$tables[$name], function ($row) use ($m) {
            return (string) $row[$m[1]] === $m[2];
        }));
    }
}
