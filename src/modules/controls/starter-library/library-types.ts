import type { ScenarioName } from './scenario-keys.js';

export const STARTER_THEMES = [
  'Governance',
  'Access',
  'Change',
  'Operations',
  'Third parties',
  'Continuity',
  'Data protection',
  'Financial reporting',
  'Fraud',
  'Compliance',
] as const;

export type StarterTheme = (typeof STARTER_THEMES)[number];

/** [name, description] of a sub-control: what is tested. */
export type StarterSubControl = readonly [name: string, description: string];

export interface StarterKeyControl {
  theme: StarterTheme;
  name: string;
  description: string;
  subControls: readonly StarterSubControl[];
  /** Catalogue scenarios the control mitigates (none for a control that supports the framework as a whole). */
  mitigates: readonly ScenarioName[];
}
