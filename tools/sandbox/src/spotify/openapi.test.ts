// The JSON copy of the OpenAPI document must be the YAML document (regenerate: npm run openapi:json -w tools/sandbox).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, loadOpenApi } from './openapi.ts';

describe('OpenAPI document', () => {
  it('loads the JSON copy, equal to the YAML source', () => {
    expect(loadOpenApi()).toEqual(parse(readFileSync(OPENAPI_PATH, 'utf8')));
  });
});
