import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInfo, readCommit } from './version.ts';

describe('buildInfo', () => {
  it('is the root package.json’s semantic version, not the spec’s version string', () => {
    expect(buildInfo().version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('takes the commit from PACEBEAT_COMMIT (the image), else from git, else says unknown', () => {
    expect(readCommit({ PACEBEAT_COMMIT: ' 0123abc ' })).toBe('0123abc');
    const env = { ...process.env, PACEBEAT_COMMIT: '' };
    expect(readCommit(env)).toMatch(/^[0-9a-f]{40}$/);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-no-git-'));
    try {
      expect(readCommit({ ...env, GIT_CEILING_DIRECTORIES: os.tmpdir() }, outside)).toBe('unknown');
    } finally {
      fs.rmSync(outside, { recursive: true });
    }
  });
});
