// Nothing secret in an image, and the image's version (docs/install.md, "Backups" and "Versions, upgrades and
// rollbacks"). In a copy of the repository, as a clone looks after `npm install && npm start` and after the
// backup steps that the docs show (their commands are read from the docs, and the files they write are made),
// this lists what `docker build .` would send (the build context, with .dockerignore's rules as Docker applies
// them: @balena/dockerignore) and what `git add -A` would take (.gitignore, by git itself): neither may hold a
// key or a dump. Then the Dockerfile's runtime stage: it copies only what runs, and everything the server, its
// backup command and its workers import is in it. Docker is not needed: the context is listed, not sent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dockerignoreModule from '@balena/dockerignore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** A key, a dump or a backup, data or settings: what must never be in an image or in git. */
const SECRET =
  /(^|\/)([^/]*\.key|[^/]*\.sql\.gz|[^/]*\.dump|pacebeat-backup-[^/]*|\.env|[^/]*secret[^/]*)$|(^|\/)(backups|data)\//;

// A CommonJS module whose types declare `export default`; it sets `.default` to itself for that.
const dockerignore = dockerignoreModule.default;

/** Every file below `dir`, as paths relative to it with `/` (symbolic links not followed). */
function walk(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? walk(dir, rel) : [rel];
  });
}

/** What `docker build dir` sends: every file that the context's .dockerignore does not leave out. */
function buildContext(dir: string): string[] {
  const rules = fs.readFileSync(path.join(dir, '.dockerignore'), 'utf8');
  return dockerignore().add(rules.split('\n')).filter(walk(dir)).sort();
}

/** What `git add -A` would add in dir, a new repository (.gitignore applied by git itself). */
function gitWouldAdd(dir: string): string[] {
  execFileSync('git', ['init', '-q', dir]);
  const out = execFileSync('git', ['-C', dir, 'add', '-A', '--dry-run'], { encoding: 'utf8' });
  return [...out.matchAll(/^add '(.+)'$/gm)].map((m) => m[1]!).sort();
}

/** The fenced `sh` blocks of one `### ` section of a doc, continuation lines joined. */
function shLines(doc: string, heading: string): string[] {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, `${heading} in the docs`).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1) >>> 0;
  const nextSub = doc.indexOf('\n### ', start + 1);
  const section = doc.slice(start, nextSub > 0 && nextSub < end ? nextSub : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!.replace(/\\\n\s*/g, ' ').split('\n'),
  );
}

/**
 * The files a documented command line writes on the host, relative to the clone: `docker compose cp
 * service:FROM TO`, a `> FILE` redirection, and `npm run backup` run on the host (its default folder is
 * `backups/`, apps/server/src/app/backup-cli.ts). Placeholders (`$(date …)`, `…`, `<…>`) become a time.
 */
function hostFilesWritten(line: string): string[] {
  const command = line.replace(/#.*$/, '').replace(/\$\([^)]*\)|…|<[^>]*>/g, '20261128-031500');
  const written: string[] = [];
  for (const m of command.matchAll(/docker compose cp \S+:(\S+) (\S+)/g)) {
    const [from, to] = [m[1]!, m[2]!];
    if (from.endsWith('/.')) written.push(path.posix.join(to, 'pacebeat-backup-20261128-031500.sql.gz'));
    else written.push(to.endsWith('/') ? path.posix.join(to, path.posix.basename(from)) : to);
  }
  for (const m of command.matchAll(/(?<![0-9&])> *([^\s&|;]+)/g)) written.push(m[1]!);
  const hostBackup = /(?:^|&& |; )npm run backup(?: +(\S+))?/.exec(command);
  if (hostBackup) written.push(hostBackup[1] ?? 'backups/pacebeat-backup-20261128-031500.sql.gz');
  return written.filter((file) => !file.startsWith('/') && !file.startsWith('~'));
}

let clone: string;
let written: string[];

beforeAll(() => {
  clone = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-context-'));
  // The repository's files (tracked, and new ones not ignored), as a fresh clone has them.
  const files = execFileSync(
    'git',
    ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file && fs.existsSync(path.join(root, file)));
  for (const file of files) fs.cpSync(path.join(root, file), path.join(clone, file));
  // What `npm install && npm start` and a build leave in a clone, and the settings.
  const leftBy: Record<string, string> = {
    'node_modules/pg/package.json': '{}',
    'apps/web/dist/index.html': '<!doctype html>',
    'data/secret.key': 'a'.repeat(64),
    'data/pg/PG_VERSION': '18',
    'data/pg.password': 'x',
    '.env': 'POSTGRES_PASSWORD=0123abcd',
  };
  // The documented backup steps: the containers' and the host's (docs/install.md, docs/operating.md).
  const install = read('docs/install.md');
  written = [
    ...shLines(install, '### Backups'),
    ...shLines(install, '### Versions, upgrades and rollbacks'),
    ...shLines(read('docs/operating.md'), '## Backups'),
  ].flatMap(hostFilesWritten);
  for (const file of written) leftBy[file] = 'not for an image';
  for (const [file, text] of Object.entries(leftBy)) {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.writeFileSync(path.join(clone, file), text);
  }
});

afterAll(() => fs.rmSync(clone, { recursive: true, force: true }));

describe('nothing secret in the build context or in git, after the documented backups', () => {
  it('the documented steps write a key and dumps into the clone (so the test checks something)', () => {
    expect(written).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\.key$/),
        expect.stringMatching(/\.sql\.gz$/),
        expect.stringMatching(/\.dump$/),
      ]),
    );
    expect(written.filter((file) => SECRET.test(file))).toEqual(written);
  });

  it('the build context holds no key, dump, backup, data or .env, and no installed packages', () => {
    const context = buildContext(clone);
    expect(context.filter((file) => SECRET.test(file))).toEqual([]);
    expect(context.filter((file) => /(^|\/)node_modules\/|(^|\/)dist\//.test(file))).toEqual([]);
    // What the build needs is there: the manifests, the lock, the sources.
    expect(context).toEqual(
      expect.arrayContaining([
        'package.json',
        'package-lock.json',
        'bench/package.json',
        'apps/server/src/app/main.ts',
        'apps/web/index.html',
        'scripts/server.ts',
      ]),
    );
  });

  it('git would add no key, dump, backup, data or .env', () => {
    const added = gitWouldAdd(clone);
    expect(added.length).toBeGreaterThan(100);
    expect(added.filter((file) => SECRET.test(file))).toEqual([]);
  });
});

/** The Dockerfile's stages: name (or index) and their instructions, continuation lines joined. */
function stages(): { name: string; lines: string[] }[] {
  const text = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const result: { name: string; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const from = /^FROM \S+(?: AS (\S+))?/i.exec(line);
    if (from) result.push({ name: from[1] ?? String(result.length), lines: [] });
    else if (result.length && /^[A-Z]+ /.test(line)) result.at(-1)!.lines.push(line);
  }
  return result;
}

/** A COPY line's --from and its sources (the last word is the destination). */
function copies(lines: string[]): { from: string | undefined; sources: string[] }[] {
  return lines
    .filter((line) => line.startsWith('COPY '))
    .map((line) => {
      const words = line.split(/\s+/).slice(1);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      return { from, sources: paths.slice(0, -1) };
    });
}

/** Where a module specifier of `file` leads, in the repository (workspaces by their package.json exports). */
function resolveImport(file: string, spec: string): string | undefined {
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const ws = /^@pacebeat\/([^/]+)(\/.+)?$/.exec(spec);
  if (!ws) return undefined; // a package of node_modules: the deps stage installs them
  const dir = { contract: 'packages/contract', sandbox: 'tools/sandbox', server: 'apps/server' }[ws[1]!];
  expect(dir, spec).toBeDefined();
  const exports = JSON.parse(read(`${dir}/package.json`)).exports as Record<string, string>;
  const target = exports[`.${ws[2] ?? ''}`];
  expect(target, spec).toBeDefined();
  return path.posix.join(dir!, target!);
}

/** Every file reachable from the entry points through imports, workers and files read by URL. */
function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.ts')) continue;
    const source = read(file);
    const specs = [
      ...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+|new URL\(\s*)['"]([^'"]+)['"]/gm),
    ].map((m) => m[1]!);
    for (const spec of specs) {
      const target = resolveImport(file, spec);
      if (target) queue.push(target);
    }
  }
  return seen;
}

describe('the runtime stage of the Dockerfile copies only what runs', () => {
  const all = stages();
  const runtime = all.at(-1)!;
  const runtimeCopies = copies(runtime.lines);

  it('copies from the other stages only: the deps stage (manifests and node_modules) and named sources', () => {
    expect(runtimeCopies.every((c) => c.from !== undefined)).toBe(true);
    const deps = all.find((s) => s.name === 'deps')!;
    // The deps stage installs from the manifests alone, before any source.
    for (const c of copies(deps.lines)) {
      for (const source of c.sources) expect(source).toMatch(/(^|\/)package(-lock)?\.json$/);
    }
    expect(runtimeCopies.filter((c) => c.from === 'deps')).toEqual([{ from: 'deps', sources: ['/app'] }]);
    const fromBuild = runtimeCopies.filter((c) => c.from === 'build').flatMap((c) => c.sources);
    expect(fromBuild.sort()).toEqual(
      [
        '/app/apps/server/drizzle',
        '/app/apps/server/src',
        '/app/apps/web/dist',
        '/app/packages/contract/src',
        '/app/packages/spotify-openapi',
        '/app/scripts/server.ts',
        '/app/tools/sandbox/src',
      ].sort(),
    );
  });

  it('holds no test, doc, benchmark, key or dump, and everything the server, its backup and workers import', () => {
    const context = buildContext(clone);
    const fromBuild = runtimeCopies
      .filter((c) => c.from === 'build')
      .flatMap((c) => c.sources.map((s) => s.replace(/^\/app\//, '')));
    const inImage = new Set([
      // the deps stage: the manifests it copies
      ...copies(all.find((s) => s.name === 'deps')!.lines).flatMap((c) => c.sources),
      ...context.filter((file) => fromBuild.some((p) => file === p || file.startsWith(`${p}/`))),
    ]);
    const listed = [...inImage];
    expect(listed.filter((file) => SECRET.test(file))).toEqual([]);
    expect(
      listed.filter((file) => /\.test(-helper)?\.tsx?$|^(docs|e2e|bench\/(?!package\.json))/.test(file)),
    ).toEqual([]);
    // `node scripts/server.ts all` (CMD), `npm run backup`/`restore` and `npm run migrate` (root package.json).
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    const entries = [
      'scripts/server.ts',
      ...['backup', 'restore', 'migrate'].map((s) => scripts[s]!.split(' ')[1]!),
    ];
    const missing = [...reachable(entries)].filter((file) => !inImage.has(file));
    expect(missing).toEqual([]);
  });
});

describe('the version: one release in package.json, the image and compose.yaml', () => {
  const version = JSON.parse(read('package.json')).version as string;

  it('is a semantic version, the same in every workspace, the Dockerfile, compose.yaml and CHANGELOG.md', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const ws of JSON.parse(read('package.json')).workspaces as string[]) {
      expect(JSON.parse(read(`${ws}/package.json`)).version, ws).toBe(version);
    }
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.version).toBe(version);
    expect(read('Dockerfile')).toMatch(
      new RegExp(`^ARG PACEBEAT_VERSION=${version.replaceAll('.', '\\.')}$`, 'm'),
    );
    const compose = YAML.parse(read('compose.yaml')) as { services: Record<string, { image?: string }> };
    expect(compose.services.pacebeat!.image).toBe(`pacebeat:${version}`);
    expect(read('CHANGELOG.md')).toMatch(
      new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d\\d-\\d\\d$`, 'm'),
    );
  });

  it('the image carries it as OCI labels, and the commit for /readyz', () => {
    const runtime = read('Dockerfile').slice(read('Dockerfile').lastIndexOf('\nFROM '));
    for (const label of ['version', 'revision', 'created', 'source']) {
      expect(runtime).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${label}="\\$\\{PACEBEAT_`));
    }
    expect(runtime).toMatch(/PACEBEAT_COMMIT=\$\{PACEBEAT_COMMIT\}/);
    expect(read('Dockerfile')).toMatch(/^# syntax=docker\/dockerfile:1\n/);
    expect(read('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:\d+\.\d+\.\d+-bookworm-slim$/m);
  });

  it('.env.example names every variable the compose files read', () => {
    const example = read('.env.example');
    const used = new Set(
      ['compose.yaml', 'compose.caddy.yaml'].flatMap((file) =>
        [...read(file).matchAll(/\$\{(\w+)/g)].map((m) => m[1]!),
      ),
    );
    expect([...used].filter((name) => !new RegExp(`^#?${name}=`, 'm').test(example))).toEqual([]);
  });
});
