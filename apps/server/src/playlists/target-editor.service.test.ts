// A double click on "Add": the same add request twice, one after the other or both at once,
// makes one target and answers it both times; another request with that name is still a conflict.
import { randomUUID } from 'node:crypto';
import type { NewTargetBody } from '@pacebeat/contract';
import { describe, expect, it } from 'vitest';
import type { TargetRow } from './playlists.repository.ts';
import { createTargetEditor, REPEATED_ADD_MS, type TargetEditorDeps } from './target-editor.service.ts';

/** The repository's target methods in memory, with the unique live name of the real table. */
function memoryRepo(delayMs = 0) {
  const rows: TargetRow[] = [];
  const repo = {
    listTargets: async (userId: string) => rows.filter((r) => r.userId === userId),
    statsOf: async () => new Map(),
    addTarget: async (userId: string, t: Partial<TargetRow> & { name: string }) => {
      await new Promise((r) => setTimeout(r, delayMs));
      if (rows.some((r) => r.userId === userId && r.name === t.name))
        throw Object.assign(new Error('duplicate key'), { code: '23505' });
      const row = {
        id: randomUUID(),
        userId,
        noExplicit: false,
        likedOnly: false,
        minDurationMs: null,
        maxDurationMs: null,
        lastJobFinishedAt: null,
        publicUrl: null,
        createdAt: new Date(),
        ...t,
      } as unknown as TargetRow;
      rows.push(row);
      return row;
    },
    getTarget: async (userId: string, id: string) => rows.find((r) => r.userId === userId && r.id === id),
    editTarget: async (userId: string, id: string, patch: Partial<TargetRow>) => {
      const row = rows.find((r) => r.userId === userId && r.id === id);
      return row && Object.assign(row, patch);
    },
  };
  return { rows, repo: repo as unknown as TargetEditorDeps['repo'] };
}

const body: NewTargetBody = {
  name: '🏃‍♀️ Tempo',
  min_bpm: 160,
  max_bpm: 170,
  filters: { no_explicit: true },
};

describe('adding a target', () => {
  it('answers a repeated request with the target it made, not a conflict', async () => {
    const { rows, repo } = memoryRepo();
    const triggers: string[] = [];
    const editor = createTargetEditor({ repo, trigger: async (u) => void triggers.push(u) });
    const first = await editor.add('u1', body, null);
    const again = await editor.add('u1', body, null);
    expect(again.target_id).toBe(first.target_id);
    expect(rows).toHaveLength(1);
    expect(triggers).toEqual(['u1']);
  });

  it('makes one target of two requests at once', async () => {
    const { rows, repo } = memoryRepo(5);
    const editor = createTargetEditor({ repo, trigger: async () => undefined });
    const [a, b] = await Promise.all([editor.add('u1', body, null), editor.add('u1', body, null)]);
    expect(a.target_id).toBe(b.target_id);
    expect(rows).toHaveLength(1);
  });

  it('is still a conflict for another request with that name, or the same one much later', async () => {
    const { rows, repo } = memoryRepo();
    const editor = createTargetEditor({ repo, trigger: async () => undefined });
    await editor.add('u1', body, null);
    await expect(editor.add('u1', { ...body, max_bpm: 175 }, null)).rejects.toMatchObject({
      code: 'TargetNameTaken',
    });
    await expect(editor.add('u1', { ...body, filters: { no_explicit: false } }, null)).rejects.toMatchObject({
      code: 'TargetNameTaken',
    });
    rows[0]!.createdAt = new Date(Date.now() - REPEATED_ADD_MS - 1000);
    await expect(editor.add('u1', body, null)).rejects.toMatchObject({ code: 'TargetNameTaken' });
  });
});

describe('what the tempo lookups are told', () => {
  it('a pace added or its range edited may take other tempos; a new name alone does not', async () => {
    const { repo } = memoryRepo();
    const told: string[] = [];
    const editor = createTargetEditor({
      repo,
      trigger: async () => undefined,
      onWantedTemposChanged: async (u) => void told.push(u),
    });
    const t = await editor.add('u1', body, null);
    expect(told).toEqual(['u1']);
    await editor.edit('u1', t.target_id, { name: 'Easy' }, null);
    expect(told).toEqual(['u1']);
    await editor.edit('u1', t.target_id, { max_bpm: 190 }, null);
    expect(told).toEqual(['u1', 'u1']);
  });
});
