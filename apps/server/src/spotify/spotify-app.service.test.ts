// Which Spotify is in force: SPOTIFY_CLIENT_ID wins, else the saved client id, else demo mode;
// read once per process and read again when the change feed says it changed, or every 5 s without a feed.
import { describe, expect, it } from 'vitest';
import { fakeFeed } from '../cache/fake-feed.test-helper.ts';
import { createSpotifyAppSettings } from './spotify-app.service.ts';

const DEMO = {
  clientId: 'pacebeat-demo',
  accountsUrl: 'http://127.0.0.1:1/a',
  apiUrl: 'http://127.0.0.1:1/v1',
  demo: true,
};
const CONFIG = {
  SPOTIFY_ACCOUNTS_URL: 'https://accounts.example/',
  SPOTIFY_API_URL: 'https://api.example/v1',
};

function setup(o: { env?: string; feed?: ReturnType<typeof fakeFeed> } = {}) {
  let saved: { clientId: string; setAt: Date } | undefined;
  const reads = { n: 0 };
  let t = 0;
  const settings = createSpotifyAppSettings({
    repo: {
      get: async () => {
        reads.n++;
        return saved;
      },
      save: async (clientId) => void (saved = { clientId, setAt: new Date() }),
    },
    config: { ...CONFIG, SPOTIFY_CLIENT_ID: o.env },
    demo: DEMO,
    changes: o.feed,
    now: () => t,
  });
  return {
    settings,
    reads,
    advance: (ms: number) => (t += ms),
    saveElsewhere: (clientId: string) => (saved = { clientId, setAt: new Date() }),
  };
}

describe('the Spotify app settings', () => {
  it('demo mode until a client id is saved; then the real URLs of the settings with it', async () => {
    const { settings } = setup({ feed: fakeFeed() });
    expect(await settings.current()).toEqual({ ...DEMO, source: 'demo' });
    await settings.save('abcdef123456', 'admin');
    expect(await settings.current()).toEqual({
      clientId: 'abcdef123456',
      accountsUrl: 'https://accounts.example',
      apiUrl: 'https://api.example/v1',
      demo: false,
      source: 'database',
    });
  });

  it('SPOTIFY_CLIENT_ID wins over a saved one, without reading the database', async () => {
    const { settings, reads } = setup({ env: 'envClient123' });
    await settings.save('savedClient1', 'admin');
    expect(await settings.current()).toMatchObject({ clientId: 'envClient123', source: 'env', demo: false });
    expect(reads.n).toBe(0);
    expect(settings.envClientId).toBe('envClient123');
    expect(await settings.saved()).toBe('savedClient1');
  });

  it('another process’s save: seen when the feed reports it (served from the cache until then)', async () => {
    const feed = fakeFeed();
    const { settings, reads, saveElsewhere } = setup({ feed });
    expect((await settings.current()).source).toBe('demo');
    expect((await settings.current()).source).toBe('demo');
    expect(reads.n).toBe(1);
    saveElsewhere('otherProcess1');
    expect((await settings.current()).source).toBe('demo');
    feed.notify('spotify_app:spotify');
    expect(await settings.current()).toMatchObject({ clientId: 'otherProcess1', source: 'database' });
  });

  it('without a feed (a `work` process): read again after 5 s', async () => {
    const { settings, saveElsewhere, advance } = setup();
    expect((await settings.current()).source).toBe('demo');
    saveElsewhere('otherProcess1');
    advance(4_000);
    expect((await settings.current()).source).toBe('demo');
    advance(1_001);
    expect((await settings.current()).source).toBe('database');
  });
});
