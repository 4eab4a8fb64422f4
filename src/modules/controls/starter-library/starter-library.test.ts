import { describe, expect, it } from 'vitest';
import { STARTER_CATALOGUE } from '../../risk-scenarios/starter-catalogue.js';
import { STARTER_LIBRARY, STARTER_THEMES } from './starter-library.js';

describe('the starter control library (data)', () => {
  it('has at least 60 key controls with unique names, spread over every theme', () => {
    expect(STARTER_LIBRARY.length).toBeGreaterThanOrEqual(60);
    expect(new Set(STARTER_LIBRARY.map((control) => control.name)).size).toBe(STARTER_LIBRARY.length);
    for (const theme of STARTER_THEMES) expect(STARTER_LIBRARY.filter((control) => control.theme === theme).length, theme).toBeGreaterThanOrEqual(5);
  });

  it('gives every key control a description and 2 to 4 sub-controls, each described, names unique within it', () => {
    for (const control of STARTER_LIBRARY) {
      expect(control.description.length, control.name).toBeGreaterThan(40);
      expect(control.subControls.length, control.name).toBeGreaterThanOrEqual(2);
      expect(control.subControls.length, control.name).toBeLessThanOrEqual(4);
      expect(new Set(control.subControls.map(([name]) => name)).size).toBe(control.subControls.length);
      for (const [name, description] of control.subControls) {
        expect(name.length).toBeLessThanOrEqual(200);
        expect(description.length, name).toBeGreaterThan(20);
      }
    }
  });

  it('links only to scenarios of the starter catalogue, and every catalogue scenario is mitigated by some control', () => {
    const catalogue = new Set(STARTER_CATALOGUE.map((scenario) => scenario.name));
    const mitigated = new Set(STARTER_LIBRARY.flatMap((control) => control.mitigates));
    for (const name of mitigated) expect(catalogue.has(name), name).toBe(true);
    for (const name of catalogue) expect(mitigated.has(name as never), name).toBe(true);
  });
});
