import { describe } from 'vitest';
import { overRoles } from '../../../test/support/principals.js';
import { canManageControlLibrary, canReadControls, canRecordTestResults } from './controls.policy.js';

describe('controls.policy (D5)', () => {
  overRoles('GET controls, effectiveness, heat map: every member; super admins refused', { admin: true, assessor: true, reviewer: true }, (who) => canReadControls(who));

  overRoles('POST key controls and sub-controls, PATCH key controls, archive: client admins only', { admin: true }, (who) => canManageControlLibrary(who));

  overRoles('PATCH /controls/sub-controls/{id} (test results): client admins and assessors, whatever their assignments', { admin: true, assessor: true }, (who) => canRecordTestResults(who));
});
