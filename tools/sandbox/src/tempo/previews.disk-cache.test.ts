// Previews kept on disk across runs (config `previews.diskCacheDir`): the second sandbox serves the first
// one's file, byte for byte, without synthesising it again; another sound (another encoding) is not served
// from it.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../index.ts';
import { http } from '../test-support.ts';

describe('previews on disk', () => {
  const open: Sandbox[] = [];
  let dir = '';
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function previewOf(previews: SandboxOptions['previews']): Promise<{ sb: Sandbox; mp3: Buffer }> {
    const sb = await startSandbox({ size: 'small', seed: 33, deezer: { rateLimit: false }, previews });
    open.push(sb);
    // The first catalog track with a preview.
    for (let g = 0; g < 200; g++) {
      const d = await http<{ preview?: string }>(
        `${sb.baseUrls.deezer}/track/isrc:${sb.world.catalog.track(g).isrc}`,
      );
      if (!d.body.preview) continue;
      const res = await fetch(d.body.preview);
      expect(res.status).toBe(200);
      return { sb, mp3: Buffer.from(await res.arrayBuffer()) };
    }
    throw new Error('no track with a preview');
  }

  it(
    'serves a preview made by an earlier run from the disk, the same bytes',
    { timeout: 60_000 },
    async () => {
      dir = await mkdtemp(join(tmpdir(), 'pacebeat-previews-'));
      const first = await previewOf({ diskCacheDir: dir });
      expect(first.sb.previewStats).toEqual({ generated: 1, fromDisk: 0 });
      expect((await readdir(dir)).filter((f) => f.endsWith('.mp3'))).toHaveLength(1);

      const second = await previewOf({ diskCacheDir: dir });
      expect(second.sb.previewStats).toEqual({ generated: 0, fromDisk: 1 });
      expect(second.mp3.equals(first.mp3)).toBe(true);

      // Another bit rate is another sound: made anew, kept beside the first.
      const other = await previewOf({ diskCacheDir: dir, kbps: 64 });
      expect(other.sb.previewStats).toEqual({ generated: 1, fromDisk: 0 });
      expect((await readdir(dir)).filter((f) => f.endsWith('.mp3'))).toHaveLength(2);
    },
  );
});
