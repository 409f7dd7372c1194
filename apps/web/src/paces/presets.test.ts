import { describe, expect, it } from 'vitest';
import {
  cadenceAtPace,
  DEFAULT_REFERENCE,
  loadReference,
  paceTarget,
  parsePace,
  rangeForCadence,
  saveReference,
} from './presets.ts';

describe('cadence presets', () => {
  it('centre a 10 BPM range on the cadence, within 60–220', () => {
    expect(rangeForCadence(170)).toEqual({ min: 165, max: 175 });
    expect(rangeForCadence(172.4)).toEqual({ min: 167, max: 177 });
    expect(rangeForCadence(218)).toEqual({ min: 213, max: 220 });
    expect(rangeForCadence(62)).toEqual({ min: 60, max: 67 });
  });
});

describe('pace presets', () => {
  const ref = { paceS: 360, unit: 'km' as const, cadence: 165 };
  it('at the usual pace, the usual cadence', () => {
    expect(cadenceAtPace(360, 'km', ref)).toBeCloseTo(165, 6);
  });
  it('faster means a little higher cadence, slower a little lower', () => {
    const fast = cadenceAtPace(240, 'km', ref); // 4:00/km
    const slow = cadenceAtPace(450, 'km', ref); // 7:30/km
    expect(fast).toBeGreaterThan(165);
    expect(fast).toBeLessThan(185);
    expect(slow).toBeLessThan(165);
    expect(slow).toBeGreaterThan(150);
  });
  it('a pace per mile is the same speed as its pace per km', () => {
    expect(cadenceAtPace(360 * 1.609344, 'mile', ref)).toBeCloseTo(165, 6);
  });
  it('names the target after the pace and its range', () => {
    expect(paceTarget(330, 'km', ref)).toMatchObject({
      name: expect.stringMatching(/^Pace 5:30\/km \(\d+–\d+ BPM\)$/),
    });
    const t = paceTarget(330, 'km', ref);
    expect(t.max - t.min).toBe(10);
  });
  it('parses m:ss paces and refuses others', () => {
    expect(parsePace('5:30')).toBe(330);
    expect(parsePace(' 10:05 ')).toBe(605);
    for (const bad of ['5', '5:3', '5:60', 'abc', '0:30', '25:00']) expect(parsePace(bad)).toBeNull();
  });
  it('keeps the runner reference in storage, and falls back on a broken value', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(loadReference(storage)).toEqual(DEFAULT_REFERENCE);
    saveReference({ paceS: 300, unit: 'mile', cadence: 172 }, storage);
    expect(loadReference(storage)).toEqual({ paceS: 300, unit: 'mile', cadence: 172 });
    store.set('pacebeat.runnerReference', '{bad');
    expect(loadReference(storage)).toEqual(DEFAULT_REFERENCE);
  });
});
