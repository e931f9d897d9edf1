/**
 * A memo of answers that never change for their key, bounded: past `limit` keys it forgets them
 * all at once (cheaper than tracking use, and the hot keys are learnt again at once). A computation
 * that throws stores nothing. Values are never `undefined` (that is "not known").
 */
export function boundedMemo<K, V>(limit: number): (key: K, compute: () => V) => V {
  const known = new Map<K, V>();
  return (key, compute) => {
    let value = known.get(key);
    if (value === undefined) {
      value = compute();
      if (known.size >= limit) known.clear();
      known.set(key, value);
    }
    return value;
  };
}
