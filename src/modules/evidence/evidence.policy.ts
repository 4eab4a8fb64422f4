import { permits, requireMember } from '../../platform/auth/policies.js';
import type { Principal } from '../../platform/auth/principal.js';
import { forbidden, invalidState } from '../../platform/errors/app-error.js';
import { requireActionEditor, requireActionReader } from '../actions/actions.policy.js';
import { EDITABLE, hasStatus } from '../bras/bras.lifecycle.js';
import { requireBraEditor, requireBraReader } from '../bras/bras.policy.js';
import { requireControlsReader, requireTestRecorder } from '../controls/controls.policy.js';
import type { RecordPlace } from './evidence-records.repository.js';

/**
 * Who may see and attach evidence (issue 48): exactly who may read, and who may change, the record it is
 * attached to, by that record's own policy, so a file is never easier to reach than its record (an assessor
 * of another entity is refused a BRA's file as the BRA). The record's state comes after (409).
 */

type Member = Principal & { enterpriseId: string };

/** Reaching evidence at all: members of an enterprise (super admins hold no risk data). */
export function requireEvidenceMember(caller: Principal): asserts caller is Member {
  requireMember(caller);
}

type BraRecord = Extract<RecordPlace, { bra: unknown }>['bra'];
type Right = 'read' | 'change';

/** Each record's own policy: who reads it and who changes it (D5), as its module words them. */
const RECORD_POLICIES: {
  bra: Record<Right, (caller: Principal, bra: BraRecord) => void>;
  mitigation_action: Record<Right, (caller: Principal) => void>;
  sub_control_test: Record<Right, (caller: Principal) => void>;
} = {
  bra: { read: requireBraReader, change: requireBraEditor },
  mitigation_action: { read: requireActionReader, change: requireActionEditor },
  sub_control_test: { read: requireControlsReader, change: requireTestRecorder },
};

/** The record's policy for the right asked; an action also needs to be in the caller's scope. */
function requireRecordRight(caller: Principal, place: RecordPlace, right: Right): void {
  switch (place.type) {
    case 'bra':
    case 'bra_scenario':
      return RECORD_POLICIES.bra[right](caller, place.bra);
    case 'mitigation_action':
      RECORD_POLICIES.mitigation_action[right](caller);
      if (!place.action.in_scope) throw forbidden('This mitigation action is outside your assigned entities');
      return;
    case 'sub_control_test':
      return RECORD_POLICIES.sub_control_test[right](caller);
  }
}

/** Listing and downloading a record's files: whoever reads the record. */
export function requireEvidenceReader(caller: Principal, place: RecordPlace): void {
  requireRecordRight(caller, place, 'read');
}

/** Attaching and removing a record's files: whoever may change the record (its state is checked apart: requireChangeableRecord). */
export function requireEvidenceWriter(caller: Principal, place: RecordPlace): void {
  requireRecordRight(caller, place, 'change');
}

/**
 * Why the record's files cannot change now, or null. A BRA's and its scenarios' evidence is part of the
 * assessment, so it changes while the BRA may (draft, in progress); an action's while it is not archived;
 * a test's while its sub-control is not archived.
 */
function frozenBecause(place: RecordPlace): string | null {
  switch (place.type) {
    case 'bra':
    case 'bra_scenario':
      return hasStatus(place.bra, EDITABLE) ? null : 'The evidence of a BRA can change only while it is draft or in progress';
    case 'mitigation_action':
      return place.action.archived ? 'An archived mitigation action cannot be changed' : null;
    case 'sub_control_test':
      return place.subControl.archived ? 'The evidence of an archived sub-control cannot change' : null;
  }
}

/** 409 INVALID_STATE when the record's files cannot change now. */
export function requireChangeableRecord(place: RecordPlace): void {
  const why = frozenBecause(place);
  if (why !== null) throw invalidState(why);
}

/** What the caller may do with a record's files now (the list's `abilities`): the checks above, as answers. */
export function evidenceAbilities(caller: Principal, place: RecordPlace) {
  const attach = frozenBecause(place) === null && permits(() => requireEvidenceWriter(caller, place));
  return { attach, remove: attach };
}
