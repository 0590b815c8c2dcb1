/**
 * Chatwoot's conversation search matches the display id as text (`cast(display_id as text) ILIKE '%q%'`).
 * No text index holds display ids, but the numbers whose digits contain a digit string form a small set
 * of ranges, each one range of the (account_id, display_id) unique index: a search reads the
 * conversations it finds, not the account.
 */

/**
 * Inclusive ranges covering every whole number from 1 to `max` whose decimal digits contain `digits`
 * (ranges may overlap where a number contains it twice). For a number of n digits holding `digits` at
 * position p, the p digits before it are any prefix and the ones after any suffix: one range per prefix.
 */
export function rangesContaining(digits: string, max: number): Array<[number, number]> {
  const length = digits.length;
  const core = Number(digits);
  const ranges: Array<[number, number]> = [];
  if (max < 1 || length > String(max).length) return ranges;
  for (let n = length; n <= String(max).length; n++) {
    for (let p = 0; p + length <= n; p++) {
      // a number does not start with 0
      if (p === 0 && digits[0] === "0") continue;
      const unit = 10 ** (n - length - p);
      const first = p === 0 ? 0 : 10 ** (p - 1);
      const last = p === 0 ? 0 : 10 ** p - 1;
      for (let prefix = first; prefix <= last; prefix++) {
        const low = (prefix * 10 ** length + core) * unit;
        if (low > max) break;
        ranges.push([low, Math.min(low + unit - 1, max)]);
      }
    }
  }
  return ranges;
}
