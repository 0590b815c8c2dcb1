/**
 * What a socket has received, and a wait for the first arrival that matches: the tests' one way to show
 * that a frame arrives (or, once the wait runs out, that it did not).
 */
export function arrivals<T>(name: string, describe: (item: T) => unknown = (item) => item) {
  const items: T[] = [];
  const waiters: Array<() => void> = [];
  return {
    items,
    add(item: T) {
      items.push(item);
      for (const w of waiters.splice(0)) w();
    },
    /** Resolves with the first arrival (past or future) for which `match` holds; rejects after `timeoutMs`. */
    next(match: (item: T) => boolean, timeoutMs = 3000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching ${name}; got ${JSON.stringify(items.map(describe))}`)), timeoutMs);
        const check = () => {
          const found = items.find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
