import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlacementError, loadBinaries, resolveServerUser } from '../../src/platform/db/embedded/binaries.js';
import { clusterLayout } from '../../src/platform/db/embedded/cluster.js';
import { PLACEMENT_RECORD, placeServer } from '../../src/platform/db/embedded/server-placement.js';
import { scratchDir } from '../support/scratch-dir.js';

const asRoot = process.getuid?.() === 0;

/** As root, where the server's user `postgres` cannot reach DATA_DIR (decisions.md, First run). */
describe.runIf(asRoot)('placing the embedded server where its user can reach it', () => {
  const closedDataDir = () => {
    const home = scratchDir('placement-home');
    chmodSync(home, 0o700);
    return { home, dataDir: join(home, 'data') };
  };

  it('places the cluster under the place root, records it in DATA_DIR, says so once, and finds it again', async () => {
    const { home, dataDir } = closedDataDir();
    const root = join(scratchDir('placement-root'), 'risk-assurance');
    const said: string[] = [];
    const first = placeServer(dataDir, await loadBinaries(), resolveServerUser(), (line) => said.push(line), root);
    expect(first.layout.clusterDir.startsWith(root)).toBe(true);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`cannot reach ${dataDir} (it may not enter ${home}, mode 0700)`);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(root).mode & 0o777).toBe(0o755);
    const again = placeServer(dataDir, await loadBinaries(), resolveServerUser(), (line) => said.push(line), root);
    expect(again.layout).toEqual(first.layout);
    expect(said).toHaveLength(1);
    expect(statSync(join(dataDir, PLACEMENT_RECORD)).isFile()).toBe(true);
  });

  it('where the place cannot be made (a read-only disk), says to choose a reachable DATA_DIR; that advice works', async () => {
    const { dataDir } = closedDataDir();
    const file = join(scratchDir('placement-file'), 'not-a-directory');
    writeFileSync(file, '');
    const refusal = (() => {
      try {
        placeServer(dataDir, { initdb: '/bin/true', pg_ctl: '/bin/true', postgres: '/bin/true' }, resolveServerUser(), () => undefined, join(file, 'risk'));
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(PlacementError);
    expect((refusal as Error).message).toMatch(/cannot be created \(ENOTDIR\).*Set DATA_DIR to a directory that user can reach/);
    // The advice: a DATA_DIR the user reaches needs no place at all.
    const reachable = scratchDir('placement-open');
    chmodSync(reachable, 0o755);
    const placed = placeServer(join(reachable, 'data'), { initdb: '/bin/true', pg_ctl: '/bin/true', postgres: '/bin/true' }, resolveServerUser(), () => undefined, join(file, 'risk'));
    expect(placed.layout).toEqual(clusterLayout(join(reachable, 'data')));
  });

  it('leaves a place it did not make as it is: a closed one is refused with the fix', async () => {
    const { dataDir } = closedDataDir();
    const root = join(scratchDir('placement-closed'), 'risk-assurance');
    mkdirSync(root, { mode: 0o700 });
    chmodSync(root, 0o700);
    expect(() => placeServer(dataDir, { initdb: '/bin/true', pg_ctl: '/bin/true', postgres: '/bin/true' }, resolveServerUser(), () => undefined, root)).toThrow(
      /exists but does not let other users through \(mode 0700\).*chmod o\+rx/,
    );
    expect(statSync(root).mode & 0o777).toBe(0o700);
  });
});
