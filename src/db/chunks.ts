/** D1 binds at most 100 parameters per statement: long IN lists and multi-row inserts are cut into pieces. */
export const IN_LIST_CHUNK = 90;

export function chunks<T>(items: readonly T[], size = IN_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
