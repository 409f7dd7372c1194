// Jobs that call Spotify: a SpotifyDeferredError re-queues the job for when work may resume.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runJob, type JobDefinition, type JobServices } from '../app/job-registry.ts';
import { SpotifyDeferredError } from './errors.ts';

const services = {} as JobServices;
const def = (handler: JobDefinition<z.ZodType>['handler']): JobDefinition<z.ZodType> => ({
  payload: z.object({ userId: z.string() }),
  queue: {},
  handler,
});

function fakeBoss() {
  const sent: { name: string; data: unknown; startAfter: unknown }[] = [];
  return {
    sent,
    send: (async (name: string, data: object, options: { startAfter?: Date } = {}) => {
      sent.push({ name, data, startAfter: options.startAfter });
      return 'job-2';
    }) as never,
  };
}

describe('runJob and Spotify deferrals', () => {
  it('re-queues the same payload to start when Spotify work resumes, without failing', async () => {
    const boss = fakeBoss();
    const resume = new Date(Date.UTC(2026, 10, 23, 4, 0));
    const outcome = await runJob(
      boss,
      'housekeeping',
      def(async () => {
        throw new SpotifyDeferredError('quota', resume);
      }),
      services,
      { userId: 'u1' },
    );
    expect(outcome).toEqual({
      status: 'skipped',
      detail: { deferredUntil: resume.toISOString(), reason: 'quota', requeuedAs: 'job-2' },
    });
    expect(boss.sent).toEqual([{ name: 'housekeeping', data: { userId: 'u1' }, startAfter: resume }]);
  });

  it('lets other errors fail the job (pg-boss retries per the queue policy)', async () => {
    const boss = fakeBoss();
    await expect(
      runJob(
        boss,
        'housekeeping',
        def(async () => {
          throw new Error('boom');
        }),
        services,
        { userId: 'u1' },
      ),
    ).rejects.toThrow('boom');
    expect(boss.sent).toEqual([]);
  });
});
