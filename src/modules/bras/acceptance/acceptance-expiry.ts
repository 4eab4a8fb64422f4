import type { Kysely } from 'kysely';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import type { DB } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { emitEvent } from '../../../platform/events/outbox.js';
import { raiseAlert } from '../../../platform/monitoring/alert-raiser.js';
import { utcToday } from '../../actions/overdue.js';
import { endAcceptance, lapsedAcceptances } from './acceptances.repository.js';

const BATCH = 200;
const SERVICE = { userId: null, email: null, fullName: null };
/** The round is no request: its entries name no address or agent. */
const NO_REQUEST = { ip: null, userAgent: null };

/**
 * The daily round (issue 48): every active acceptance past its last day is marked `expired`, audited (an
 * update by the service) and announced (`risk.acceptance_expired`), a batch per transaction; and each
 * enterprise with an acceptance that expired gets one enterprise_health alert a day (the alert's cause
 * names the day, so a second round that day adds nothing). Reads never waited for this round: an acceptance
 * is out of force the day after its last day (acceptance-rules.ts). Returns how many expired.
 */
export async function expireLapsedAcceptances(db: Kysely<DB>, now: Date): Promise<number> {
  const today = utcToday(now);
  const byEnterprise = new Map<string, string[]>();
  let expired = 0;
  for (;;) {
    const rows = await lapsedAcceptances(db, today, BATCH);
    await inTransaction(db, async ({ trx }) => {
      for (const row of rows) {
        const ended = await endAcceptance(trx, row.enterprise_id, row.id, { status: 'expired', ended_by: null, end_reason: `Expired after ${row.expires_on}` });
        if (ended === undefined) continue; // renewed or revoked meanwhile
        const named = { bra_id: row.bra_id, bra_name: row.bra_name, bra_risk_scenario_id: row.bra_risk_scenario_id, risk_scenario_id: row.risk_scenario_id, risk_scenario_name: row.scenario_name };
        await writeAudit(trx, {
          enterpriseId: row.enterprise_id,
          actor: SERVICE,
          ...NO_REQUEST,
          action: 'update',
          entityType: 'risk_acceptance',
          entityId: row.id,
          details: { ...named, status: { from: 'active', to: 'expired' }, expires_on: row.expires_on },
        });
        await emitEvent(trx, { enterpriseId: row.enterprise_id, type: 'risk.acceptance_expired', data: { risk_acceptance_id: row.id, ...named, expires_on: row.expires_on } });
        byEnterprise.set(row.enterprise_id, [...(byEnterprise.get(row.enterprise_id) ?? []), row.scenario_name]);
        expired += 1;
      }
    });
    if (rows.length < BATCH) break;
  }
  for (const [enterpriseId, names] of byEnterprise) {
    await raiseAlert(db, {
      type: 'enterprise_health',
      severity: 'warning',
      title: 'Risk acceptances expired',
      message: `${names.length} risk acceptance(s) expired on ${today} and the risks are above appetite without acceptance again: ${names.join(', ')}`,
      enterpriseId,
      cause: `risk_acceptances_expired:${today}`,
    });
  }
  return expired;
}
