import type { App, Platform } from '../app.js';
import { registerMeRoutes } from './me/me.routes.js';

/** Every module's routes, registered in one place. */
export async function registerModules(app: App, platform: Platform): Promise<void> {
  registerMeRoutes(app, platform);
}
