import { describe, expect, it } from 'vitest';
import { repositoryImportsFromOutside } from './module-boundaries.js';
import { importsOf, sourceFiles } from './source-files.js';

describe('identity is reached through its service', () => {
  it('no file outside src/modules/identity imports its repositories (users, sessions, one-time links, the provider’s)', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    expect(graph.get('src/modules/admin/users/users.service.ts')).toContain('src/modules/identity/identity.service.ts');
    expect(repositoryImportsFromOutside(graph, 'src/modules/identity')).toEqual([]);
  });

  it('the check sees a module or the platform importing the repository, and lets the module and its service callers be', () => {
    const graph = new Map([
      ['src/modules/admin/users/users.service.ts', ['src/modules/identity/users.repository.ts', 'src/modules/identity/identity.service.ts']],
      ['src/platform/auth/principal-resolver.ts', ['src/modules/identity/provider/provider.repository.ts']],
      ['src/modules/identity/identity.service.ts', ['src/modules/identity/users.repository.ts']],
    ]);
    expect(repositoryImportsFromOutside(graph, 'src/modules/identity')).toEqual([
      'src/modules/admin/users/users.service.ts → src/modules/identity/users.repository.ts',
      'src/platform/auth/principal-resolver.ts → src/modules/identity/provider/provider.repository.ts',
    ]);
  });
});
