// Where the simulated Deezer keeps its synthesised previews between benchmark runs. Making one costs about
// 0.25-0.35 s of CPU (0.6-1 s before the WebAssembly encoder), two to three times what Pacebeat's estimator
// spends on it, on the same 2 cores: without the cache a benchmark's audio checks measure the stand-in's
// synthesiser (a real CDN serves a preview for nothing). The first run makes them;
// `rm -rf .cache/sandbox-previews` for a cold one.
import path from 'node:path';

export const PREVIEW_DISK_CACHE = path.join(import.meta.dirname, '..', '..', '.cache', 'sandbox-previews');
