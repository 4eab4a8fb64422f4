import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';

/** Every string of the document a reader sees (descriptions, summaries, the introduction). */
function texts(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) for (const item of node) texts(item, out);
  else if (node !== null && typeof node === 'object') for (const value of Object.values(node)) texts(value, out);
  return out;
}

/** `D6.7` → section "## D6." of the decisions, with a numbered item "7." in it; `D5` → the section alone. */
function decisionResolves(decisions: string, code: string): boolean {
  const [section, item] = code.slice(1).split('.');
  const start = decisions.indexOf(`\n## D${section}. `);
  if (start === -1) return false;
  if (item === undefined) return true;
  const next = decisions.indexOf('\n## ', start + 1);
  const body = decisions.slice(start, next === -1 ? undefined : next);
  return new RegExp(`\\n\\s*${item}\\. `).test(body);
}

/** `4.2` → a heading "### 4.2 " (or "## 4. " for a single number) of the interface. */
function interfaceResolves(spec: string, code: string): boolean {
  return code.includes('.') ? spec.includes(`\n### ${code} `) : spec.includes(`\n## ${code}. `);
}

describe('every reference the interactive reference shows resolves inside the repository (decisions.md, First run)', async () => {
  const ctx = await createTestContext();
  const decisions = readFileSync('docs/contract/decisions.md', 'utf8');
  const spec = readFileSync('docs/contract/interface.md', 'utf8');

  it('cites decisions (D5, D6.7) that docs/contract/decisions.md defines and sections (4.2) that docs/contract/interface.md has', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const all = texts(document).join('\n');
    const decisionCodes = new Set([...all.matchAll(/\bD\d+(?:\.\d+)?\b/g)].map((match) => match[0]));
    const sectionCodes = new Set([...all.matchAll(/\((\d+\.\d+)(?:[,;)])/g)].map((match) => match[1] as string));
    expect(decisionCodes.size).toBeGreaterThan(10);
    expect([...decisionCodes].filter((code) => !decisionResolves(decisions, code))).toEqual([]);
    expect([...sectionCodes].filter((code) => !interfaceResolves(spec, code))).toEqual([]);
    // And the introduction says where they are.
    expect(document.info.description).toContain('docs/contract/decisions.md');
    expect(document.info.description).toContain('docs/contract/interface.md');
  });
});
