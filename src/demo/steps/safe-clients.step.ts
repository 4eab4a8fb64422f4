import type { Caller } from '../../platform/auth/principal.js';
import type { RequestConditions } from '../../platform/http/conditional/preconditions.js';
import { AppError } from '../../platform/http/errors.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/** What a route declaring `etag` or `ifMatch` hands the service: the demo plays the two browser tabs. */
const reading = (caller: Caller): Caller & { conditions: RequestConditions } => ({
  ...caller,
  conditions: { ifMatch: null, required: false, version: null },
});
const changingAt = (caller: Caller, version: number): Caller => ({
  ...caller,
  conditions: { ifMatch: [String(version)], required: false, version: null },
});

/**
 * The lost update, refused: the client admin reads an in-progress BRA in two tabs, saves a change in the
 * first, and the second tab's save, made on the version it read, is refused (412) instead of silently
 * overwriting the first.
 */
export const safeClientsStep: DemoStep = {
  title: 'Safe clients: a lost update refused',
  async run(context: DemoContext) {
    const admin = need(context.actors.clientAdmin, 'the client admin');
    const bras = context.services.bras.bras;
    const page = await bras.list(admin, { status: 'in_progress', page: 1, page_size: 1 });
    const bra = need(page.data[0], 'an in-progress BRA');
    const firstTab = reading(admin);
    const secondTab = reading(admin);
    await bras.get(firstTab, bra.id);
    await bras.get(secondTab, bra.id);
    const version = need(firstTab.conditions.version, 'the version read');
    await bras.update(changingAt(admin, version), bra.id, {
      description: `${bra.description ?? ''} Scope confirmed with the risk committee.`.trim(),
    });
    context.log(`  ${bra.name}: saved on version ${version}`);
    try {
      await bras.update(changingAt(admin, need(secondTab.conditions.version, 'the version read')), bra.id, { period: 'FY2026 (revised)' });
      throw new Error('the stale save was applied');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PRECONDITION_FAILED') throw error;
      context.log(`  the second tab's save on version ${version}: refused, ${error.code} (current ETag ${String(error.details?.['current_etag'])})`);
    }
    context.notes.push(
      `Safe clients: GET /api/v1/bras/{id} answers an ETag; send it as If-Match on a PATCH or action (412 when stale) ` +
        `and as If-None-Match on a read (304 while unchanged); an Idempotency-Key on a POST makes a retry replay the first answer.`,
    );
  },
};
