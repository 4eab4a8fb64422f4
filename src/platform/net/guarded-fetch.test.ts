import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch.js';
import type { Resolve } from './guarded-lookup.js';

/** A resolver that answers `address` for every name (what DNS rebinding would make a name point to). */
const pointing = (address: string): Resolve => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

describe('guarded fetch (a tenant-given URL cannot reach inside)', async () => {
  const server = createServer((request, response) => {
    if (request.url === '/moved') response.writeHead(302, { location: 'http://127.0.0.1:1/' }).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a name that resolves to loopback or a private address is refused at connect time', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', 'fd00::1']) {
      const guarded = createGuardedFetch({ allowLoopback: false, resolve: pointing(address) });
      await expect(guarded(`http://idp.example.test:${port}/`), address).rejects.toThrow();
    }
  });

  it('a literal inside address is refused before anything is sent, with its reason', async () => {
    const guarded = createGuardedFetch({ allowLoopback: true });
    await expect(guarded('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(/private, link-local or reserved/);
    await expect(createGuardedFetch({ allowLoopback: false })(`http://127.0.0.1:${port}/`)).rejects.toThrow(/loopback/);
  });

  it('loopback, when allowed (development and tests), is reached; a redirect is answered, not followed', async () => {
    const guarded = createGuardedFetch({ allowLoopback: true, resolve: pointing('127.0.0.1') });
    const answered = await guarded(`http://idp.example.test:${port}/`);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ ok: true });
    const moved = await guarded(`http://127.0.0.1:${port}/moved`);
    expect(moved.status).toBe(302);
  });
});
