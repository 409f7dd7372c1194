// Writes packages/spotify-openapi/spotify-web-api.openapi.json from the YAML copy: JSON loads in milliseconds where the
// YAML takes most of a second, and the sandbox must start in under 2 s. A test checks they agree.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI_JSON_PATH, OPENAPI_PATH } from '../src/spotify/openapi.ts';

writeFileSync(OPENAPI_JSON_PATH, JSON.stringify(parse(readFileSync(OPENAPI_PATH, 'utf8'))) + '\n');
console.log(`wrote ${OPENAPI_JSON_PATH}`);
