import { configuredOrExit } from './startup-gate.js';

/**
 * `npm start`'s first step when a build is due (scripts/preflight.mjs runs it from the sources): the
 * start-up checks, so that a bad setting or an unreachable directory is refused in a moment rather than
 * after the build. The service checks again when it starts; what passes here changes nothing there.
 */
await configuredOrExit();
