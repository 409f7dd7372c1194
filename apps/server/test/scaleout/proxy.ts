// nginx in front of several `serve` processes, as docs/operating.md's scale-out shape puts them "behind the
// proxy": one origin for the browsers, each request to the next serve process (round robin), the original
// Host and client address passed on as deploy/nginx.conf passes them. Used by bench/crowd's `--serves`.
// nginx is not a Node package: `apt-get install nginx-light` (Debian) on the machine that runs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Proxy {
  /** The origin the browsers use, e.g. http://127.0.0.1:47403. */
  url: string;
  pid(): number | undefined;
  close(): Promise<void>;
}

const NGINX = '/usr/sbin/nginx';

/** The configuration: everything nginx writes stays in `dir` (no /etc, /var), and it stays in front. */
export function nginxConfig(dir: string, port: number, upstreamPorts: readonly number[]): string {
  // As root, nginx would hand its workers to `nobody`, who may not write in `dir`.
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}worker_processes 1;
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 64k;
  upstream pacebeat {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://pacebeat;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # $http_host keeps the port (deploy/nginx.conf's $host is right on 443, where there is none).
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 120s;
    }
  }
}
`;
}

/** Starts nginx on `port` in front of `upstreamPorts`; resolves once it answers. */
export async function startNginx(
  dir: string,
  port: number,
  upstreamPorts: readonly number[],
): Promise<Proxy> {
  if (spawnSync(NGINX, ['-v']).error)
    throw new Error(`${NGINX} not found: install it (Debian: apt-get install -y nginx-light)`);
  await fs.mkdir(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(conf, nginxConfig(dir, port, upstreamPorts));
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(path.join(dir, 'nginx.out'));
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): see ${dir}/error.log`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 100) throw new Error(`nginx did not answer on ${url} in 10 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: () => (child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT'); // graceful: lets requests in flight finish
      await gone;
    },
  };
}
