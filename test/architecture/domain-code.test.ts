import { describe, expect, it } from 'vitest';
import { httpImportsOf, isDomainFile } from './domain-code.js';
import { sourceFiles } from './source-files.js';

describe('services speak the domain: no HTTP types outside routes (STYLE.md)', () => {
  it('no service, repository, policy, presenter or demo step imports HTTP machinery', () => {
    const found = sourceFiles({ withTests: false })
      .filter((file) => isDomainFile(file.path))
      .flatMap(httpImportsOf);
    expect(found).toEqual([]);
  });

  it('the check finds a planted breach: a service that takes a request, reads If-Match or joins an idempotent request', () => {
    const planted = {
      path: 'src/modules/bras/planted.service.ts',
      text: [
        "import type { FastifyRequest, FastifyBaseLogger } from 'fastify';",
        "import { termsOf } from '../../platform/http/conditional/answers.js';",
        "import { IDEMPOTENCY_TTL_MS } from '../../platform/idempotency/idempotent-routes.js';",
        "import { loadPage } from '../../platform/http/pagination.js';",
      ].join('\n'),
    };
    expect(isDomainFile(planted.path)).toBe(true);
    const found = httpImportsOf(planted);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('FastifyRequest');
    expect(found[0]).not.toContain('FastifyBaseLogger');
    expect(isDomainFile('src/modules/bras/bras.routes.ts')).toBe(false);
  });
});
