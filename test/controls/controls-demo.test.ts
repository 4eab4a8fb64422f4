import { describe, expect, it } from 'vitest';
import { DEMO_CONTROL_LIBRARY } from '../../src/demo/demo-controls.js';
import { STARTER_LIBRARY } from '../../src/modules/controls/starter-library/starter-library.js';
import { DEMO_MEMBERS } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { bearer } from '../support/factories.js';
import { freshDatabase } from '../support/database.js';

const LIBRARY_NAMES = [...DEMO_CONTROL_LIBRARY.map((k) => k.name), ...STARTER_LIBRARY.map((k) => k.name)];
const SUB_CONTROL_COUNT = DEMO_CONTROL_LIBRARY.flatMap((k) => k.subControls).length + STARTER_LIBRARY.flatMap((k) => k.subControls).length;

/** `npm run demo` builds a control library with tested, partly tested and untested sub-controls, beside the starter library. */
describe('npm run demo: the control library', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const result = await runDemo(database, ctx.config);
  const clientAdmin = DEMO_MEMBERS.find((member) => member.role === 'admin')!;
  const signedIn = await ctx.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
    payload: { email: clientAdmin.email, password: clientAdmin.password },
  });
  const headers = bearer(signedIn.json().access_token);
  const get = (url: string) => ctx.app.inject({ method: 'GET', url: `/api/v1/controls${url}`, headers });

  it('lists every key control of the demo library and of the starter library, with its sub-controls', async () => {
    expect(result.outcome).toBe('created');
    const response = await get('/key-controls?page_size=100');
    expect(response.statusCode, response.body).toBe(200);
    const library = response.json().data as Array<{ name: string; sub_controls: unknown[] }>;
    expect(library.map((k) => k.name).sort()).toEqual([...LIBRARY_NAMES].sort());
    expect(library.flatMap((k) => k.sub_controls)).toHaveLength(SUB_CONTROL_COUNT);
  });

  it('has tested, partly tested and untested sub-controls, recorded by the assessors', async () => {
    const subs = (await get('/sub-controls')).json().data as Array<{ tod: string | null; toe: string | null; tested_by: string | null; total_effectiveness: string | null }>;
    const tested = subs.filter((s) => s.total_effectiveness !== null);
    const partly = subs.filter((s) => s.total_effectiveness === null && (s.tod !== null || s.toe !== null));
    const untested = subs.filter((s) => s.tod === null && s.toe === null);
    expect(tested.length).toBeGreaterThan(0);
    expect(partly.length).toBeGreaterThan(0);
    expect(untested.length).toBeGreaterThan(0);
    const assessors = DEMO_MEMBERS.filter((member) => member.role === 'assessor').map((member) => member.fullName);
    for (const sub of [...tested, ...partly]) expect(assessors).toContain(sub.tested_by);
  });

  it('gives the summary and the heat map something real to show', async () => {
    const summary = (await get('/effectiveness')).json().data;
    expect(summary.total).toBe(SUB_CONTROL_COUNT);
    // The starter library's sub-controls are all untested.
    expect(summary.not_assessed).toBeGreaterThanOrEqual(STARTER_LIBRARY.flatMap((k) => k.subControls).length);
    const labelled = summary.highly_effective + summary.effective + summary.moderately_effective + summary.less_effective + summary.not_effective;
    expect(labelled + summary.not_assessed).toBe(summary.total);
    expect(new Set(Object.entries(summary).filter(([key, n]) => key !== 'total' && key !== 'not_assessed' && (n as number) > 0)).size).toBeGreaterThanOrEqual(4);
    const map = (await get('/heat-map')).json().data;
    expect(map.total_assessed).toBe(labelled);
  });
  it('retests one sub-control, so its history holds both tests and its detail the previous result', async () => {
    const subs = (await get('/sub-controls')).json().data as Array<{ id: string; name: string }>;
    const retested = subs.find((sub) => sub.name === 'Daily reconciliation of payment files')!;
    const history = (await get(`/sub-controls/${retested.id}/tests`)).json().data;
    expect(history.map((record: { source: string; tod: string; toe: string }) => [record.source, `${record.tod}${record.toe}`])).toEqual([
      ['test', 'B2'],
      ['update', 'B3'],
    ]);
    const detail = (await get(`/sub-controls/${retested.id}`)).json().data;
    expect(detail).toMatchObject({ tod: 'B', toe: '2', total_effectiveness: 'Effective' });
    expect(detail.previous_result).toMatchObject({ tod: 'B', toe: '3', evidence_notes: '20 days sampled; 3 reconciliations signed off a day late.' });
    expect(result.notes.some((note) => note.includes(`/controls/sub-controls/${retested.id}/tests`))).toBe(true);
  });
});
