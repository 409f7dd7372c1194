// The web app takes its values from `@pacebeat/contract/rules` so that no zod reaches the browser: every
// file that entry reaches must import nothing but other files of the entry (no zod, no schema file).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const here = import.meta.dirname;

function reached(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = fs.readFileSync(path.join(here, file), 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s(?!type\b)[^;]*?from '([^']+)'/gm)) {
    const target = m[1]!;
    if (!target.startsWith('./')) throw new Error(`${file} imports the package ${target}`);
    reached(target.slice(2), seen);
  }
  return seen;
}

it('the rules entry reaches no zod and no schema file', () => {
  const files = [...reached('rules.ts')];
  expect(files.length).toBeGreaterThan(5);
  for (const f of files) expect(f).toMatch(/^(rules|[a-z]+\.rules|endpoint-paths)\.ts$/);
});

it('the check sees a schema file: the whole contract reaches zod', () => {
  expect(() => reached('index.ts')).toThrow(/imports the package zod/);
});
