// Spotify's `fields` filter for playlists: "name,items(added_at,item(name,album(!images)))",
// dots for single nested fields, parentheses for sub-selections, "!" to exclude.

export interface Selection {
  include: Map<string, Selection | true>;
  exclude: Set<string>;
}

const empty = (): Selection => ({ include: new Map(), exclude: new Set() });

export class FieldsError extends Error {}

export function parseFields(text: string): Selection {
  let i = 0;
  const parseList = (): Selection => {
    const sel = empty();
    for (;;) {
      let negate = false;
      if (text[i] === '!') {
        negate = true;
        i++;
      }
      const start = i;
      while (i < text.length && /[A-Za-z0-9_]/.test(text[i] as string)) i++;
      const name = text.slice(start, i);
      if (!name) throw new FieldsError('Invalid fields');
      let sub: Selection | true = true;
      if (text[i] === '.') {
        i++;
        sub = parseList1();
      } else if (text[i] === '(') {
        i++;
        sub = parseList();
        if (text[i] !== ')') throw new FieldsError('Invalid fields');
        i++;
      }
      if (negate) sel.exclude.add(name);
      else sel.include.set(name, merge(sel.include.get(name), sub));
      if (text[i] === ',') {
        i++;
        continue;
      }
      return sel;
    }
  };
  // After a dot: exactly one field (which may itself continue with a dot or parentheses).
  const parseList1 = (): Selection => {
    const sel = empty();
    const start = i;
    while (i < text.length && /[A-Za-z0-9_]/.test(text[i] as string)) i++;
    const name = text.slice(start, i);
    if (!name) throw new FieldsError('Invalid fields');
    let sub: Selection | true = true;
    if (text[i] === '.') {
      i++;
      sub = parseList1();
    } else if (text[i] === '(') {
      i++;
      sub = parseList();
      if (text[i] !== ')') throw new FieldsError('Invalid fields');
      i++;
    }
    sel.include.set(name, sub);
    return sel;
  };
  const sel = parseList();
  if (i !== text.length) throw new FieldsError('Invalid fields');
  return sel;
}

function merge(a: Selection | true | undefined, b: Selection | true): Selection | true {
  if (a === undefined) return b;
  if (a === true || b === true) return true;
  const out = empty();
  for (const [k, v] of a.include) out.include.set(k, v);
  for (const [k, v] of b.include) out.include.set(k, merge(out.include.get(k), v));
  for (const k of [...a.exclude, ...b.exclude]) out.exclude.add(k);
  return out;
}

export function applyFields(value: unknown, sel: Selection | true): unknown {
  if (sel === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => applyFields(v, sel));
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (sel.include.size > 0) {
    for (const [k, sub] of sel.include) if (k in obj) out[k] = applyFields(obj[k], sub);
  } else {
    for (const [k, v] of Object.entries(obj)) if (!sel.exclude.has(k)) out[k] = v;
  }
  return out;
}
