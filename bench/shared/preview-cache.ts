// Where the simulated Deezer keeps its synthesised previews between benchmark runs. Making one costs about
// 0.6 s of CPU, four to five times what Pacebeat's estimator spends on it, on the same 2 cores: without the
// cache a benchmark's audio checks measure the stand-in's MP3 encoder (a real CDN serves a preview for
// nothing). The first run makes them; `rm -rf .cache/sandbox-previews` for a cold one.
import path from 'node:path';

export const PREVIEW_DISK_CACHE = path.join(import.meta.dirname, '..', '..', '.cache', 'sandbox-previews');
