import type { Caller } from '../../../platform/auth/principal.js';
import { PRIMARY_READS, type RoutedReads } from '../../../platform/db/read-routing.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { representationState, versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { invalidReference } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import { braStateAfter, lockedBra, readableBra, requireEditable, stateOfAnswer } from '../access.js';
import { recordBraChange } from '../changes.js';
import { loadBraAnswer } from '../answer/answer.js';
import { openBra } from '../history/open-bra.js';
import { toBraView } from '../answer/detail.presenter.js';
import { findBusinessUnit, findLegalEntity } from '../../legal-entities/legal-entities.repository.js';
import {
  countBras,
  listBras,
  updateBra,
  type BraChanges,
} from '../bras.repository.js';
import { braAbilities, braScopeFor, requireBraEditor, requireBraListFilter, requireBraMember } from '../bras.policy.js';
import type { BraDetailView, BraView } from '../bras.schemas.js';
import type { BraReadView, CreateBraBody, ListBrasQuery, UpdateBraBody } from './bras.schemas.js';

/**
 * Business risk assessments (2.1, 3.1, 4.2, D6). A factory bound to an executor: given a transaction,
 * every write joins it.
 */
export function createBrasService({ db, reads = PRIMARY_READS }: { db: Executor; reads?: RoutedReads }) {
  return {
    /** D5: admins see the enterprise, assessors and reviewers their assignments (a SQL predicate). */
    async list(caller: Caller, query: ListBrasQuery): Promise<Page<BraView>> {
      requireBraMember(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.legal_entity_id !== undefined) {
        if ((await findLegalEntity(db, enterpriseId, query.legal_entity_id)) === undefined) {
          throw invalidReference('legal_entity_id', 'a legal entity');
        }
        requireBraListFilter(caller, { legalEntityId: query.legal_entity_id });
      }
      if (query.business_unit_id !== undefined) {
        const unit = await findBusinessUnit(db, enterpriseId, query.business_unit_id);
        if (unit === undefined) throw invalidReference('business_unit_id', 'a business unit');
        if (query.legal_entity_id !== undefined && unit.legal_entity_id !== query.legal_entity_id) {
          throw invalidReference('business_unit_id', 'a business unit of that legal entity');
        }
        requireBraListFilter(caller, { unit: { legal_entity_id: unit.legal_entity_id, business_unit_id: unit.id } });
      }
      const filter = { status: query.status, legal_entity_id: query.legal_entity_id, business_unit_id: query.business_unit_id };
      const scope = braScopeFor(caller);
      const page = await loadPage(
        pageRequest(query),
        // The total may come from the replica (db/read-routing.ts); the rows come from the primary.
        async () => countBras(await reads.executorFor(db, caller.userId), { enterpriseId, filter, scope }),
        (limit, offset) => listBras(db, { enterpriseId, filter, scope }, { limit, offset }),
      );
      return { data: page.data.map(toBraView), pagination: page.pagination };
    },

    /**
     * 4.2 rules, through openBra (history/open-bra.ts): the entity exists and is active (400), is assigned to an assessor
     * (403), the unit belongs to it and is active (400), the name is unique (bras_name_key, 409, which also
     * settles concurrent creates). The `created` snapshot and the audit entry commit with the BRA.
     */
    async create(caller: Caller, body: CreateBraBody, terms: ChangeTerms): Promise<BraDetailView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const opened = await openBra(trx, caller, {
          name: body.name,
          description: body.description || null,
          legal_entity_id: body.legal_entity_id,
          business_unit_id: body.business_unit_id ?? null,
          period: body.period,
          assessor: body.assessor,
          start_date: body.start_date ?? null,
        });
        return opened.content;
      });
    },

    /** The BRA's data with the people it names, its comments and, approved, as approved (answer/answer.ts). */
    async get(caller: Caller, braId: string): Promise<Versioned<BraReadView>> {
      const bra = await readableBra(db, caller, braId);
      const answer = await loadBraAnswer(db, bra);
      // The state (the ETag) is the BRA's, the same for every reader and every change's answer; the abilities
      // are this caller's, added after (decisions.md, "Abilities").
      return versioned({ ...answer, abilities: braAbilities(caller, bra) }, representationState(bra.row_version, answer));
    },

    /** 4.2 rules 1–4; immutable fields never reach here (the body schema refuses them, 422). */
    async update(caller: Caller, braId: string, body: UpdateBraBody, terms: ChangeTerms) {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireEditable(bra, 'A BRA can be changed');
        const changes: BraChanges = {};
        const before: Record<string, unknown> = {};
        for (const field of ['name', 'period', 'assessor'] as const) {
          const value = body[field];
          if (value !== undefined && value !== bra[field]) {
            changes[field] = value;
            before[field] = bra[field];
          }
        }
        if (body.description !== undefined && (body.description || null) !== bra.description) {
          changes.description = body.description || null;
          before['description'] = bra.description;
        }
        if (Object.keys(changes).length === 0) return versioned(bra, await stateOfAnswer(trx, bra));
        const updated = await updateBra(trx, bra.enterprise_id, bra.id, changes);
        await recordBraChange(trx, caller, updated, { changes, previous: before });
        return versioned(updated, await braStateAfter(trx, bra));
      });
    },
  };
}

export type BrasService = ReturnType<typeof createBrasService>;
