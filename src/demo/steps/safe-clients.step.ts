import { AppError } from '../../platform/errors/app-error.js';
import { expectState, stateTag } from '../../platform/versions/resource-state.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/**
 * The lost update, refused: the client admin reads an in-progress BRA in two tabs, saves a change in the
 * first, and the second tab's save, made on the state it read, is refused (412) instead of silently
 * overwriting the first.
 */
export const safeClientsStep: DemoStep = {
  title: 'Safe clients: a lost update refused',
  async run(context: DemoContext) {
    const admin = need(context.actors.clientAdmin, 'the client admin');
    const bras = context.services.bras.bras;
    const page = await bras.list(admin, { status: 'in_progress', page: 1, page_size: 1 });
    const bra = need(page.data[0], 'an in-progress BRA');
    const firstTab = await bras.get(admin, bra.id);
    const secondTab = await bras.get(admin, bra.id);
    await bras.update(admin, bra.id, { description: `${bra.description ?? ''} Scope confirmed with the risk committee.`.trim() }, { expected: expectState(firstTab.state) });
    context.log(`  ${bra.name}: saved on ${stateTag(firstTab.state)}`);
    try {
      await bras.update(admin, bra.id, { period: 'FY2026 (revised)' }, { expected: expectState(secondTab.state) });
      throw new Error('the stale save was applied');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PRECONDITION_FAILED') throw error;
      context.log(`  the second tab's save on ${stateTag(secondTab.state)}: refused, ${error.code} (current ETag ${String(error.details?.['current_etag'])})`);
    }
    context.notes.push(
      `Safe clients: GET /api/v1/bras/{id} answers an ETag; send it as If-Match on a PATCH or action (412 when stale) ` +
        `and as If-None-Match on a read (304 while unchanged); an Idempotency-Key on a POST makes a retry replay the first answer.`,
    );
  },
};
