import { loadBinaries, resolveServerUser } from './binaries.js';
import { placeServer } from './server-placement.js';

/**
 * The start-up's reachability check of the embedded engine: the server's user exists (created when
 * missing) and reaches the programs and the cluster of DATA_DIR, placed where it can when needed. It
 * throws PlacementError, with what to do, when that cannot be; `say` hears of a placement made.
 */
export async function prepareEmbeddedServer(dataDir: string, say: (message: string) => void): Promise<void> {
  placeServer(dataDir, await loadBinaries(), resolveServerUser(), say);
}
