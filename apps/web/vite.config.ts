import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite-precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The build hash shown in the footer: `VITE_BUILD_HASH` when the environment gives one (a build from a
 * source archive), otherwise the current git commit, otherwise `unknown`.
 */
function buildHash(): string {
  const fromEnv = process.env.VITE_BUILD_HASH?.trim();
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

// Where `vite` (dev) and `vite preview` send /api, and /demo/spotify/accounts (demo mode's simulated Spotify
// sign-in, on the app's origin): the server's default address, unless told otherwise.
const apiTarget = process.env.PACEBEAT_API_PROXY_TARGET?.trim() || 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress()],
  define: {
    'import.meta.env.VITE_BUILD_HASH': JSON.stringify(buildHash()),
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      // No zod reaches the browser: the app imports the contract's values from its zod-free entry
      // (`@pacebeat/contract/rules`, enforced by lint) and only types from the rest.
      output: {
        // The framework every page needs in one chunk: it changes less often than the app, so browsers
        // keep it cached. Everything else (MUI included) splits by use, so the parts only signed-in pages
        // and lazy widgets need (tables, menus, forms, DOMPurify, Firebase) stay out of a visitor's load.
        codeSplitting: {
          groups: [
            // The sign-in widget and its SDK load only on /login with Firebase: their own lazy chunk.
            {
              name: 'firebase',
              test: /node_modules[\\/](firebase|@firebase|firebaseui|dialog-polyfill|material-design-lite)[\\/]/,
              priority: 3,
            },
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|@tanstack)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget, '/demo/spotify/accounts': apiTarget } },
  preview: { proxy: { '/api': apiTarget, '/demo/spotify/accounts': apiTarget } },
});
