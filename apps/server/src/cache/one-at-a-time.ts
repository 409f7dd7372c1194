// Heavy reads of one user, one at a time (eight Waiting/Skipped reads of a large library in flight
// slowed every other runner's requests twentyfold). Per process: it bounds what one user's requests cost this
// process, and holds no state a second process would need.

const noop = () => undefined;

/**
 * Runs loads one at a time per owner (a user), in arrival order. A caller whose key already has a load
 * waiting in the owner's queue shares it instead of adding one: that load starts after the caller arrived,
 * so what it reads is never older than the request. A load already running is never shared (it may have
 * read before the caller's own last change). So a burst of N reads of K keys costs at most K loads, run one
 * after the other, and a user's reads never run side by side.
 */
export function createOneAtATime<V>() {
  const tails = new Map<string, Promise<void>>();
  const waiting = new Map<string, Promise<V>>();
  return function run(owner: string, key: string, load: () => Promise<V>): Promise<V> {
    const slot = `${owner}\u0000${key}`;
    const shared = waiting.get(slot);
    if (shared) return shared;
    const before = tails.get(owner) ?? Promise.resolve();
    const p: Promise<V> = before.then(() => {
      if (waiting.get(slot) === p) waiting.delete(slot);
      return load();
    });
    waiting.set(slot, p);
    const tail = p.then(noop, noop);
    tails.set(owner, tail);
    void tail.then(() => {
      if (tails.get(owner) === tail) tails.delete(owner);
    });
    return p;
  };
}
