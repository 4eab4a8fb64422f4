import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { scratchDir } from '../support/scratch-dir.js';

describe('the web console is served at / (outside the /api/v1 gate)', async () => {
  const ctx = await createTestContext();

  it('GET / answers the page with the provider\'s public client key filled in, never cached', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain(`<meta name="auth-anon-key" content="${ctx.secrets.anonKey}">`);
    expect(response.body).not.toContain('%AUTH_ANON_KEY%');
  });

  it('serves the hashed assets for a year, and a missing asset is a 404 in the error shape', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/index-fixture1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['cache-control']).toContain('max-age=31536000');
    const missing = await ctx.app.inject({ method: 'GET', url: '/assets/nothing-here.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a page request for a console route (a reload of /bras/<id>) gets the page; other unknown paths keep the JSON 404', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/bras/3f1d2c4e-0000-4000-8000-000000000000?tab=ratings', headers: { accept: 'text/html,*/*' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    for (const url of ['/api/v1/nothing-here', '/auth/v1/nothing-here', '/bras/x']) {
      const accept = url === '/bras/x' ? 'application/json' : 'text/html';
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept, authorization: 'Bearer x' } });
      expect(response.statusCode, url).not.toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
    const post = await ctx.app.inject({ method: 'POST', url: '/bras', headers: { accept: 'text/html' }, payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe('before the console is built', async () => {
  const ctx = await createTestContext({ consoleDir: `${scratchDir('no-console')}/` });

  it('GET / says how to build it (503), and the API still answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
