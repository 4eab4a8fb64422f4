import { describe } from 'vitest';
import { overEveryRole } from '../../../test/support/principals.js';
import { canManageControlLibrary, canReadControls, canRecordTestResults } from './controls.policy.js';

describe('controls.policy (D5)', () => {
  overEveryRole(
    'GET controls, effectiveness, heat map: every member; super admins refused',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: true,
      assessor_of_unit_a1: true,
      assessor_elsewhere: true,
      reviewer_of_entity_a: true,
      reviewer_of_unit_a1: true,
      reviewer_elsewhere: true,
    },
    (who) => canReadControls(who),
  );

  overEveryRole(
    'POST key controls and sub-controls, PATCH key controls, archive: client admins only',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: false,
      assessor_of_unit_a1: false,
      assessor_elsewhere: false,
      reviewer_of_entity_a: false,
      reviewer_of_unit_a1: false,
      reviewer_elsewhere: false,
    },
    (who) => canManageControlLibrary(who),
  );

  overEveryRole(
    'PATCH /controls/sub-controls/{id} (test results): client admins and assessors, whatever their assignments',
    {
      super_admin: false,
      client_admin: true,
      assessor_of_entity_a: true,
      assessor_of_unit_a1: true,
      assessor_elsewhere: true,
      reviewer_of_entity_a: false,
      reviewer_of_unit_a1: false,
      reviewer_elsewhere: false,
    },
    (who) => canRecordTestResults(who),
  );
});
