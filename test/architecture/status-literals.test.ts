import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';
import { EXEMPT, HOME, isScanned, statusLiteralsOf } from './status-literals.js';

/** The rule, what counts as a status literal and why each exemption is one: status-literals.ts. */
describe('a BRA status is written in the BRA lifecycle only', () => {
  const scan = (text: string) => statusLiteralsOf({ path: 'src/modules/x/x.repository.ts', text }).map((line) => line.split(' ').slice(1).join(' '));

  it('no file of src/ outside the lifecycle (and the listed exemptions) names a status, in TypeScript or in SQL', () => {
    const outside = sourceFiles()
      .filter((file) => isScanned(file.path))
      .flatMap(statusLiteralsOf);
    expect(outside).toEqual([]);
  });

  it('the lifecycle and every exempt file exist, and the lifecycle does hold the statuses', () => {
    const files = new Map(sourceFiles().map((file) => [file.path, file]));
    for (const path of [HOME, ...Object.keys(EXEMPT)]) expect(files.has(path), path).toBe(true);
    expect(statusLiteralsOf(files.get(HOME)!).length).toBeGreaterThan(10);
  });

  it('fails on a planted breach: a status set, a comparison, a Kysely filter, an update, SQL text', () => {
    expect(scan(`const EDITABLE = new Set(['draft', 'in_progress']);`)).toEqual(["names the status 'draft'", "names the status 'in_progress'"]);
    expect(scan(`if (bra.status === 'approved') return;`)).toEqual(["names the status 'approved'"]);
    expect(scan(`db.selectFrom('bras as b').where('b.status', '=', 'approved');`)).toEqual(["names the status 'approved'"]);
    expect(scan(`await updateBra(trx, id, { status: 'in_progress' });`)).toEqual(["names the status 'in_progress'"]);
    expect(scan(`record({ status: { from: bra.status, to: 'approved' } });`)).toEqual(["names the status 'approved'"]);
    expect(scan(`requireStatus(bra, ['in_progress'], 'submitted');`)).toEqual(["names the status 'in_progress'"]);
    expect(scan('const q = sql`select 1 from bras b where b.status in (\'draft\', \'under_review\') and ${x}`;')).toEqual([
      "writes the status 'draft' in SQL",
      "writes the status 'under_review' in SQL",
    ]);
    expect(scan("const live = \"b.status <> 'cancelled'\";")).toEqual(["writes the status 'cancelled' in SQL"]);
    expect(scan(`type Open = 'draft' | 'under_review';`)).toEqual(["names the status 'draft'", "names the status 'under_review'"]);
  });

  it('leaves other vocabularies, examples and prose alone', () => {
    expect(scan(`const ActionStatus = Type.Enum(['created', 'in_progress', 'completed']);`)).toEqual([]);
    expect(scan(`const s = { status: Type.Enum(['created', 'in_progress', 'completed']) };`)).toEqual([]);
    expect(scan(`type SnapshotKind = 'created' | 'approved';`)).toEqual([]);
    expect(scan(`await takeSnapshot(trx, target, 'approved', snapshotId);`)).toEqual([]);
    expect(scan(`const schema = { examples: [{ status: 'approved' }] };`)).toEqual([]);
    expect(scan('throw invalidState(`only while the BRA is draft or in progress; it is ${bra.status}`);')).toEqual([]);
    expect(scan(`const where = sql\`a.status <> 'completed'\`;`)).toEqual([]);
  });
});
