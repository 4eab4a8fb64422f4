import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * A temporary directory that the suite removes when it is done with it: at the end of the test that made it,
 * or of the describe block (or file) when made outside a test. A run leaves nothing in the temp directory.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  // mkdtemp makes it 0700; as root the embedded server's user must reach it too (or the service would place
  // the cluster elsewhere for it).
  chmodSync(dir, 0o755);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test: the enclosing describe block (or the file) owns it.
    afterAll(remove);
  }
  return dir;
}
