import type { ChangeFeed, ChangeListener } from './change-feed.ts';

/** A feed the test drives: notifications, loss and return of the LISTEN connection. */
export function fakeFeed() {
  const listeners = new Set<ChangeListener>();
  const feed = {
    live: true,
    subscribe(l: ChangeListener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => undefined,
    echo: async () => undefined,
    notify: (tag: string) => listeners.forEach((l) => l.change(tag)),
    lose() {
      feed.live = false;
      listeners.forEach((l) => l.reset());
    },
  };
  return feed satisfies ChangeFeed;
}
