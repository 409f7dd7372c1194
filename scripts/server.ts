// Runs the server (`node scripts/server.ts <all|serve|work|migrate>`) with Node's compile cache on: Node
// keeps the server's compiled code (its TypeScript already stripped) on disk, so a start after the first
// skips most of that work (about 0.3 s of the 1.7 s to ready, bench/startup). `npm start`, `npm run serve`
// and `npm run work` start the server this way.
import { enableCompileCache } from 'node:module';

enableCompileCache();

// Same process: signals reach the server directly, so it shuts down gracefully.
await import('../apps/server/src/app/main.ts');
