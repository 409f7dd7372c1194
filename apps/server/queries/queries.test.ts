// The query snapshots (STYLE.md §14) must match what the repositories issue now; no database needed.
import { describe, expect, it } from 'vitest';
import { readSnapshots, render, unlistedRepositories } from './generate.ts';
import { repository } from './samples.ts';

const RUN = 'run `npm run db:queries` and commit apps/server/queries/*.sql';

describe('SQL snapshots of the repositories', () => {
  it('list every *.repository.ts', () => {
    expect(unlistedRepositories(), 'add these to REPOSITORIES in queries/samples.ts').toEqual([]);
  });

  it('are up to date', async () => {
    const expected = await render();
    const actual = readSnapshots();
    expect([...actual.keys()].sort(), `snapshot files differ: ${RUN}`).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) {
      expect(actual.get(name), `${name} is out of date: ${RUN}`).toBe(content);
    }
  });

  it('refuse a method without sample arguments', async () => {
    const unsampled = repository({
      source: 'example/example.repository.ts',
      name: 'ExampleRepository',
      create: () => ({ a: async () => undefined, b: async (_id: string) => undefined }),
      samples: { a: { args: [] } } as never,
    });
    await expect(render([unsampled])).rejects.toThrow('ExampleRepository: no sample arguments for b');
  });
});
