import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/platform/audit/chain-verifier.js';
import { ensureBuilt, type ServiceProcess } from '../support/service-process.js';
import { crashPlace, signIn, startOn, writeBurst, type CrashPlace } from './crash-support.js';

const ROUNDS = Number(process.env['CRASH_ROUNDS'] ?? 10);
const WORKERS = 8;

/**
 * `kill -9` of the service in the middle of a burst of writes, round after round on one persisted DATA_DIR:
 * afterwards every write the service acknowledged (201) is there, no enterprise exists without its audit
 * entry nor an entry without its enterprise, and every chain verifies.
 */
describe('kill -9 of the service mid-burst (D1: no acknowledged write lost)', () => {
  let place: CrashPlace;
  let service: ServiceProcess | null = null;
  beforeAll(async () => {
    ensureBuilt();
    place = await crashPlace();
  }, 180_000);
  afterAll(async () => {
    if (service !== null && service.child.exitCode === null && service.child.signalCode === null) await service.stop();
    await place.remove();
  }, 60_000);

  it(`${ROUNDS} rounds (embedded engine, or TEST_DATABASE_URL's server): every acknowledged write present, change and audit entry together, chains valid`, async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      service = await startOn(place);
      const token = await signIn(service);
      const current = service;
      // Killed once a number of writes (different each round) has been acknowledged, with more in flight.
      const killAfter = 10 + round * 3;
      let killed = false;
      const result = await writeBurst(current, token, WORKERS, (soFar) => {
        if (!killed && soFar >= killAfter) {
          killed = true;
          void current.kill();
        }
        return killed;
      });
      acknowledged.push(...result.acknowledged);
      await current.kill();
    }

    const database = await place.open();
    try {
      const ids = new Set((await database.db.selectFrom('enterprises').select('id').execute()).map((row) => row.id));
      const missing = acknowledged.filter((id) => !ids.has(id));
      expect(missing, 'acknowledged writes lost').toEqual([]);
      const { rows: unaudited } = await sql<{ id: string }>`
        select e.id from enterprises e where not exists (
          select 1 from audit_log a where a.entity_id = e.id and a.entity_type = 'enterprise' and a.action_type = 'create')`.execute(database.db);
      expect(unaudited, 'enterprises without their audit entry').toEqual([]);
      const { rows: orphans } = await sql<{ id: string }>`
        select a.id from audit_log a where a.entity_type = 'enterprise' and a.action_type = 'create'
          and not exists (select 1 from enterprises e where e.id = a.entity_id)`.execute(database.db);
      expect(orphans, 'audit entries without their enterprise').toEqual([]);
      expect(await verifyAuditChain(database.db, null)).toMatchObject({ valid: true });
      for (const id of ids) expect((await verifyAuditChain(database.db, id)).valid, `chain of ${id}`).toBe(true);
      process.stdout.write(`crash (${place.engine}): ${ROUNDS} rounds of kill -9, ${acknowledged.length} acknowledged writes checked, ${ids.size} enterprises\n`);
    } finally {
      await database.close();
    }
  }, 900_000);
});
