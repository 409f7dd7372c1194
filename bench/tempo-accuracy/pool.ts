// A minimal worker-thread work queue for the benchmark: one task at a time per worker, results in
// task order.
import { Worker } from 'node:worker_threads';

export async function runPool<T, R>(
  file: URL,
  tasks: T[],
  jobs: number,
  onResult: (result: R, index: number) => void,
): Promise<R[]> {
  const results: R[] = new Array(tasks.length);
  let next = 0;
  const n = Math.max(1, Math.min(jobs, tasks.length));
  await Promise.all(
    Array.from({ length: n }, async () => {
      const worker = new Worker(file);
      try {
        while (next < tasks.length) {
          const i = next++;
          const result = await new Promise<R>((resolve, reject) => {
            const onError = (err: Error) => reject(err);
            worker.once('error', onError);
            worker.once('message', (r: R) => {
              worker.off('error', onError);
              resolve(r);
            });
            worker.postMessage(tasks[i]);
          });
          results[i] = result;
          onResult(result, i);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return results;
}
