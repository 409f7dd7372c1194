// No module of the server or the web app imports itself back at run time (issue 25): a cycle makes the
// order of initialisation matter and hides which part depends on which. Type-only imports are erased, so
// they do not count. Plain text analysis of relative imports: enough for this codebase's import style.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RUNTIME_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^'"]*?from\s+)?['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.|test-helper/.test(e.name) ? [p] : [];
  });
}

/** The groups of modules that import one another at run time (Tarjan's strongly connected components). */
export function importCycles(dir: string): string[][] {
  const files = new Set(sourceFiles(dir));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = [...fs.readFileSync(f, 'utf8').matchAll(RUNTIME_IMPORT)]
      .map((m) => path.resolve(path.dirname(f), m[1]!))
      .filter((p) => files.has(p));
    graph.set(f, deps);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(path.relative(dir, w));
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe('import cycles', () => {
  for (const part of ['apps/server/src', 'apps/web/src', 'packages/contract/src', 'tools/sandbox/src'])
    it(`none in ${part}`, () => {
      expect(importCycles(path.join(root, part))).toEqual([]);
    });
});
