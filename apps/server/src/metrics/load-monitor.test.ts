import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Registry } from 'prom-client';
import { startLoadMonitor, type LoadMonitor } from './load-monitor.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function capture() {
  const lines: { msg: string; load?: Record<string, number> }[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines };
}

let monitor: LoadMonitor | undefined;
afterEach(() => monitor?.stop());

describe('load monitor', () => {
  it('reports an interval in which queries waited for a connection, and counts them in the gauge', async () => {
    const pool = { totalCount: 10, idleCount: 0, waitingCount: 3 };
    const registry = new Registry();
    const { log, lines } = capture();
    monitor = startLoadMonitor({ pool, poolMax: 10, log, registry, intervalMs: 150, sampleMs: 10 });
    while (!monitor.last()) await sleep(20);
    const warned = lines.find((l) => l.msg.includes('waited for a database connection'));
    expect(warned?.load).toMatchObject({ poolWaitingMax: 3, poolBusyMax: 10, poolMax: 10 });
    expect(warned!.load!['poolWaitingShare']).toBeGreaterThan(0.5);
    const text = await registry.metrics();
    expect(text).toContain('pacebeat_db_pool_connections{state="waiting"} 3');
    expect(text).toContain('pacebeat_db_pool_connections{state="busy"} 10');
  });

  it('reports an interval in which the event loop was held, and not a pool wait', async () => {
    const pool = { totalCount: 2, idleCount: 2, waitingCount: 0 };
    const { log, lines } = capture();
    monitor = startLoadMonitor({ pool, poolMax: 10, log, intervalMs: 600, sampleMs: 10, behindLoopMs: 200 });
    while (!monitor.last()) await sleep(20);
    // Nothing waited for a connection: no such line (the loop's own delay depends on the machine).
    expect(lines.filter((l) => l.msg.includes('database connection'))).toEqual([]);
    const held = Date.now() + 500;
    while (Date.now() < held); // one task holding the loop for 500 ms
    const before = monitor.last();
    while (monitor.last() === before) await sleep(20);
    const warned = lines.find((l) => l.msg.includes('event loop was held'));
    expect(warned?.load?.['loopDelayMaxMs']).toBeGreaterThanOrEqual(400);
    expect(warned?.load?.['poolWaitingMax']).toBe(0);
  });
});
