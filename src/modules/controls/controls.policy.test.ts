import { describe } from 'vitest';
import { byRole, overEveryRole } from '../../../test/support/principals.js';
import { canManageControlLibrary, canReadControls, canRecordTestResults } from './controls.policy.js';

describe('controls.policy (D5)', () => {
  overEveryRole(
    'GET controls, effectiveness, heat map: every member; super admins refused',
    byRole({ admin: true, assessor: true, reviewer: true }),
    (who) => canReadControls(who),
  );

  overEveryRole(
    'POST key controls and sub-controls, PATCH key controls, archive: client admins only',
    byRole({ admin: true }),
    (who) => canManageControlLibrary(who),
  );

  overEveryRole(
    'PATCH /controls/sub-controls/{id} (test results): client admins and assessors, whatever their assignments',
    byRole({ admin: true, assessor: true }),
    (who) => canRecordTestResults(who),
  );
});
