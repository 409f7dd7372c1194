// Presentations made once per cached value and time zone; reply bodies serialised once per value.
import { describe, expect, it } from 'vitest';
import { createSerializedOnce } from '../http/serialized-once.ts';
import { createPresentedMemo } from './presented.ts';

describe('createPresentedMemo', () => {
  it('presents the same values once per time zone, and anew for new values', () => {
    const made: string[] = [];
    const memo = createPresentedMemo(
      ([rows, counts]: readonly [number[], { n: number }], tz: string | null) => {
        made.push(`${rows.length}/${counts.n}/${tz}`);
        return { text: `${rows.join(',')} of ${counts.n} in ${tz}` };
      },
    );
    const rows = [1, 2];
    const counts = { n: 5 };
    const first = memo([rows, counts], 'Europe/Paris');
    expect(memo([rows, counts], 'Europe/Paris')).toBe(first);
    expect(memo([rows, counts], null)).toEqual({ text: '1,2 of 5 in null' });
    expect(made).toEqual(['2/5/Europe/Paris', '2/5/null']);
    // The cache dropped its counts (a change, their age): a new object, a new presentation.
    expect(memo([rows, { n: 6 }], 'Europe/Paris')).toEqual({ text: '1,2 of 6 in Europe/Paris' });
    expect(memo([[1, 2], counts], 'Europe/Paris')).not.toBe(first); // equal content, another read
    expect(made).toHaveLength(4);
  });
});

describe('createSerializedOnce', () => {
  function reply() {
    const sent: Array<{ type: string; body: string }> = [];
    let serialised = 0;
    return {
      sent,
      serialised: () => serialised,
      serialize: (payload: unknown) => (serialised++, JSON.stringify(payload)),
      type: (type: string) => ({ send: (body: never) => void sent.push({ type, body }) }),
    };
  }

  it('serialises a value once with the route’s serializer and sends the string as JSON', () => {
    const send = createSerializedOnce((targets: string[]) => ({ data: { targets } }));
    const value = ['Pacebeat <170>'];
    const r = reply();
    send(r, value);
    send(r, value);
    send(r, ['other']);
    expect(r.serialised()).toBe(2);
    expect(r.sent).toEqual([
      { type: 'application/json; charset=utf-8', body: '{"data":{"targets":["Pacebeat <170>"]}}' },
      { type: 'application/json; charset=utf-8', body: '{"data":{"targets":["Pacebeat <170>"]}}' },
      { type: 'application/json; charset=utf-8', body: '{"data":{"targets":["other"]}}' },
    ]);
  });
});
