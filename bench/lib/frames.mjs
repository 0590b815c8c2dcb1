// The frames a bench's socket received, each stamped with the local clock as it arrived, and a way to
// wait for the first one that matches (bench:realtime's room sockets, bench:feed's ActionCable ones).

export function frameLog(timeoutMs, where) {
  const frames = [];
  const waiters = new Set();
  return {
    frames,
    /** Records a frame that arrived `at` (performance.now()) and wakes the waiters. */
    add(frame, at) {
      frames.push({ ...frame, at });
      for (const w of waiters) w();
    },
    /** The first frame from index `from` on for which `match` holds; fails after `timeoutMs`. */
    next(match, from = 0) {
      return new Promise((ok, fail) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(t);
          ok(found);
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`no matching frame within ${timeoutMs} ms on ${where}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
