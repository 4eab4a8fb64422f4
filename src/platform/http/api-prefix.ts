/**
 * Where the gated API lives: every module route is declared relative to it, inside the /api/v1 gate
 * (app.ts mounts them there), and the rules that hold for every API route (strict-inputs.ts) recognise
 * them by it.
 */
export const API_PREFIX = '/api/v1';
