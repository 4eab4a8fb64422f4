import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';
import { mayWrite, migratedTables, ownerFolders, typedTables, writesOf } from './table-owners.js';

/** The rule and how owners are found: table-owners.ts. */
describe('every table has one owner, and only the owner writes it', () => {
  const typed = typedTables();
  const ownerOf = new Map([...typed].flatMap(([file, tables]) => tables.map((table) => [table, file] as const)));

  it('every table of the migrations is typed in exactly one table file, and nothing else is', () => {
    const all = [...typed.values()].flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...migratedTables()].sort());
  });

  it('every table file names exactly one owner folder: a module (or a part of one) or a platform area', () => {
    const owners = Object.fromEntries([...typed.keys()].map((file) => [file, ownerFolders(file)]));
    for (const [file, folders] of Object.entries(owners)) expect(folders, `tables/${file}.ts`).toHaveLength(1);
  });

  it('the owners the contract of the code names: BRAs own their control links, the catalogue its scenarios, the identity module the identities, token verification its keys', () => {
    expect(ownerOf.get('bra_controls')).toBe('bras');
    expect(ownerOf.get('risk_scenarios')).toBe('risk-scenarios');
    for (const table of ['users', 'auth_sessions', 'auth_refresh_tokens', 'auth_one_time_tokens']) expect(ownerOf.get(table)).toBe('identity');
    expect(ownerFolders('identity')).toEqual(['src/modules/identity']);
    for (const table of ['auth_signing_keys', 'platform_secrets']) expect(ownerOf.get(table)).toBe('auth');
    expect(ownerFolders('auth')).toEqual(['src/platform/auth']);
    expect(ownerFolders('risk-scenarios')).toEqual(['src/modules/risk-scenarios']);
  });

  it('no file of src/ writes a table it does not own (its module’s repositories, or its platform area)', () => {
    const tables = new Set(ownerOf.keys());
    const files = sourceFiles({ withTests: false });
    const writes = files.flatMap((file) => writesOf(file, tables).map((write) => ({ ...write, path: file.path })));
    expect(writes.length).toBeGreaterThan(40);
    const outside = writes
      .filter(({ table, path }) => {
        const owner = ownerOf.get(table);
        return owner === undefined || !mayWrite(path, ownerFolders(owner)[0]!);
      })
      .map(({ table, at }) => `${at} writes ${table} (owner: ${ownerOf.get(table) ?? 'none'})`);
    expect(outside).toEqual([]);
  });

  it('the scan sees Kysely and raw SQL writes, aliases included, and the rule places them', () => {
    const tables = new Set(['users', 'bras']);
    const text = [
      "await db.updateTable('bras as b').set({}).execute();",
      "await trx.insertInto('users').values(row).execute();",
      "await db.deleteFrom('bras').execute();",
      'await sql`update users set active = false`.execute(db);',
      "await db.selectFrom('users').selectAll().forUpdate().execute();",
      'await sql`select 1 for update`.execute(db);',
      "await updateOwnRow(db, 'bras', enterpriseId, id, { name }, ['id']);",
    ].join('\n');
    expect(writesOf({ path: 'src/modules/x/x.service.ts', text }, tables).map((write) => write.table)).toEqual(['bras', 'users', 'bras', 'users', 'bras']);
    expect(mayWrite('src/modules/bras/bras.repository.ts', 'src/modules/bras')).toBe(true);
    expect(mayWrite('src/modules/bras/bras.service.ts', 'src/modules/bras')).toBe(false);
    expect(mayWrite('src/modules/admin/users/users.repository.ts', 'src/modules/identity')).toBe(false);
    expect(mayWrite('src/modules/identity/users.repository.ts', 'src/modules/identity')).toBe(true);
    expect(mayWrite('src/modules/identity/identity.service.ts', 'src/modules/identity')).toBe(false);
    expect(mayWrite('src/platform/auth/principal-resolver.ts', 'src/modules/identity')).toBe(false);
    expect(mayWrite('src/platform/auth/secrets.ts', 'src/platform/auth')).toBe(true);
    expect(mayWrite('src/platform/startup-checks.ts', 'src/platform/auth')).toBe(false);
  });
});
