import { describe, expect, it } from 'vitest';
import { domainProven, verificationRecord } from './sso-settings.service.js';

/** The DNS rule of a domain's verification, with the resolver handed in (the service's default is node:dns). */
describe('domain verification by DNS TXT record', () => {
  const token = 'Zm9yIHRoZSB0ZXN0IG9ubHkgYW5kIG5vdGhpbmcgZWxzZQ';
  const { record_name, record_value } = verificationRecord('bank.example', token);
  const zone = (records: Record<string, string[][]>) => async (name: string) => {
    const found = records[name];
    if (found === undefined) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  };

  it('names the record under the domain and its value with the token', () => {
    expect(record_name).toBe('_risk-assurance-challenge.bank.example');
    expect(record_value).toBe(`risk-assurance-domain-verification=${token}`);
  });

  it('is proven by a TXT record holding the value, among others, even split in chunks', async () => {
    expect(await domainProven(zone({ [record_name]: [['v=spf1 -all'], [record_value]] }), 'bank.example', token)).toBe(true);
    expect(await domainProven(zone({ [record_name]: [[record_value.slice(0, 20), record_value.slice(20)]] }), 'bank.example', token)).toBe(true);
  });

  it('is not proven by another value, a record at another name, or no record at all', async () => {
    expect(await domainProven(zone({ [record_name]: [['risk-assurance-domain-verification=another-token']] }), 'bank.example', token)).toBe(false);
    expect(await domainProven(zone({ 'bank.example': [[record_value]] }), 'bank.example', token)).toBe(false);
    expect(await domainProven(zone({}), 'bank.example', token)).toBe(false);
  });
});
