import { describe, expect, it } from 'vitest';
import { archiveBreachesOf, isServiceFile } from './archive-audits.js';
import { sourceFiles } from './source-files.js';

describe('archives are recorded by one place, as delete (interface 2.9)', () => {
  it('every archive of every service goes through archiveVersioned and writes no entry of its own', () => {
    const files = sourceFiles({ withTests: false }).filter((file) => isServiceFile(file.path));
    const archives = files.filter((file) => /async archive\w*\(/.test(file.text));
    expect(archives.length).toBeGreaterThanOrEqual(5);
    expect(files.flatMap(archiveBreachesOf)).toEqual([]);
  });

  it('the check finds a planted breach: an archive that records itself as an update', () => {
    const planted = {
      path: 'src/modules/planted/planted.service.ts',
      text: [
        'export function createPlantedService() {',
        '  return {',
        '    async archive(caller, id) {',
        "      await recordChange(trx, caller, { action: 'update', entityType: 'legal_entity', entityId: id, details: { change: 'archived' } });",
        '    },',
        '    async archiveAll(caller) {',
        '      await archiveVersioned(trx, caller, terms, spec);',
        '    },',
        '  };',
        '}',
      ].join('\n'),
    };
    const found = archiveBreachesOf(planted);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('archive archives without archiveVersioned');
    expect(found[1]).toContain('writes its own audit entry (recordChange)');
  });
});
