import { GOVERNANCE_AND_TECHNOLOGY } from './governance-and-technology.js';
import type { StarterKeyControl } from './library-types.js';
import { RESILIENCE_AND_CONDUCT } from './resilience-and-conduct.js';

export { STARTER_THEMES, type StarterKeyControl, type StarterTheme } from './library-types.js';

/** The name the starter library is recorded under when an enterprise loads it. */
export const STARTER_LIBRARY_NAME = 'starter-2026';

/**
 * The starter control library an enterprise can load once (docs/guide.md): key controls across the usual
 * themes, each with 2 to 4 sub-controls to test, linked to the catalogue scenarios they mitigate. Written
 * for this product; loaded untested (not_assessed) so that effectiveness reflects the enterprise's own tests.
 */
export const STARTER_LIBRARY: readonly StarterKeyControl[] = [...GOVERNANCE_AND_TECHNOLOGY, ...RESILIENCE_AND_CONDUCT];
