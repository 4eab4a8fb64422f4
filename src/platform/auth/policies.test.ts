import { describe, expect, it } from 'vitest';
import { scratchTables } from '../../../test/support/scratch-tables.js';
import { AppError } from '../errors/app-error.js';
import type { Principal } from './principal.js';
import {
  assignedScope,
  isAssigned,
  requireAssigned,
  requireMember,
  requireRole,
  seesLegalEntity,
} from './policies.js';

const ENTITY_A = '00000000-0000-4000-8000-00000000000a';
const ENTITY_B = '00000000-0000-4000-8000-00000000000b';
const UNIT_A1 = '00000000-0000-4000-8000-0000000000a1';
const UNIT_A2 = '00000000-0000-4000-8000-0000000000a2';

const principal = (role: Principal['role'], assignments: Principal['entityAssignments'] = []): Principal => ({
  userId: 'u',
  email: 'u@example.test',
  fullName: 'U',
  role,
  enterpriseId: role === 'super_admin' ? null : 'e1',
  sessionId: null,
  entityAssignments: assignments,
});

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : 'OTHER';
  }
}

describe('D5 "assigned"', () => {
  const unitOnly = principal('assessor', [{ legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 }]);
  const wholeEntity = principal('reviewer', [{ legal_entity_id: ENTITY_A, business_unit_id: null }]);

  it('an entity role with a null business unit covers the entity and all its units', () => {
    expect(isAssigned(wholeEntity, ENTITY_A, null)).toBe(true);
    expect(isAssigned(wholeEntity, ENTITY_A, UNIT_A2)).toBe(true);
    expect(isAssigned(wholeEntity, ENTITY_B, null)).toBe(false);
  });

  it('a unit role covers exactly that unit, not the entity nor its other units', () => {
    expect(isAssigned(unitOnly, ENTITY_A, UNIT_A1)).toBe(true);
    expect(isAssigned(unitOnly, ENTITY_A, UNIT_A2)).toBe(false);
    expect(isAssigned(unitOnly, ENTITY_A, null)).toBe(false);
    expect(seesLegalEntity(unitOnly, ENTITY_A)).toBe(true);
  });

  it('requireAssigned refuses with FORBIDDEN exactly where isAssigned says no', () => {
    expect(codeOf(() => requireAssigned(unitOnly, ENTITY_A, UNIT_A1))).toBeNull();
    expect(codeOf(() => requireAssigned(unitOnly, ENTITY_A, UNIT_A2))).toBe('FORBIDDEN');
    expect(codeOf(() => requireAssigned(wholeEntity, ENTITY_B, null))).toBe('FORBIDDEN');
  });

  it('client admins see every entity of their enterprise', () => {
    expect(isAssigned(principal('admin'), ENTITY_B, UNIT_A2)).toBe(true);
  });

  describe('as a SQL predicate, it selects exactly what isAssigned allows', async () => {
    const rows = [
      { le: ENTITY_A, bu: null },
      { le: ENTITY_A, bu: UNIT_A1 },
      { le: ENTITY_A, bu: UNIT_A2 },
      { le: ENTITY_B, bu: null },
    ];
    const db = await scratchTables<{ rows: { le: string; bu: string | null } }>({ rows: { columns: 'le uuid not null, bu uuid', rows } });

    for (const [name, who] of [
      ['unit assessor', unitOnly],
      ['entity reviewer', wholeEntity],
      ['admin', principal('admin')],
      ['unassigned assessor', principal('assessor')],
    ] as const) {
      it(name, async () => {
        const selected = await db.selectFrom('rows').selectAll().where(assignedScope(who, 'le', 'bu')).execute();
        const expected = rows.filter((row) => isAssigned(who, row.le, row.bu));
        expect(selected).toHaveLength(expected.length);
        expect(selected).toEqual(expect.arrayContaining(expected));
      });
    }
  });
});

describe('role policies', () => {
  it('requireRole refuses roles not listed with FORBIDDEN', () => {
    expect(codeOf(() => requireRole(principal('reviewer'), ['admin', 'assessor']))).toBe('FORBIDDEN');
    expect(codeOf(() => requireRole(principal('assessor'), ['admin', 'assessor']))).toBeNull();
  });

  it('super admins are refused enterprise risk data (D5)', () => {
    expect(codeOf(() => requireMember(principal('super_admin')))).toBe('FORBIDDEN');
    expect(codeOf(() => requireMember(principal('reviewer')))).toBeNull();
  });
});
