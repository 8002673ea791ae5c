import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Issue 23, item 9: a fresh clone installs with `npm ci` and runs on the Node the README names. */

// semver is a transitive dependency without types here; the two functions used are typed below.
const semver = require('semver') as { minVersion(range: string): { version: string } | null; satisfies(version: string, range: string): boolean };

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: unknown; optional?: boolean; dev?: boolean }>;
};

describe('fresh install', () => {
  const floor = semver.minVersion(pkg.engines.node)!.version;

  it('promises the Node floor the README names', () => {
    expect(floor).toBe('20.19.0');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/Node(\.js)? 20\.19 or newer/);
  });

  it('locks no package whose engines exclude that floor (content-disposition 3 wants Node 22)', () => {
    const excluded = Object.entries(lock.packages)
      .filter(([path, meta]) => path !== '' && typeof meta.engines === 'object' && meta.engines !== null)
      .map(([path, meta]) => ({ path, range: (meta.engines as { node?: unknown }).node }))
      .filter(({ range }) => typeof range === 'string' && !semver.satisfies(floor, range))
      .map(({ path, range }) => `${path} (node ${String(range)})`);
    expect(excluded).toEqual([]);
    expect(lock.packages['node_modules/content-disposition']?.version).toMatch(/^[0-2]\./);
  });

  it("lists other platforms' optional packages, so npm ci on another machine does not rewrite the lockfile", () => {
    for (const name of ['@swc/core-darwin-arm64', '@swc/core-linux-x64-gnu', '@swc/core-win32-x64-msvc']) {
      expect(lock.packages[`node_modules/${name}`]).toEqual(expect.objectContaining({ optional: true, version: expect.any(String) }));
    }
  });
});
