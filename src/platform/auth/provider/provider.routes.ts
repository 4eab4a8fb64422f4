import type { App, Platform } from '../../../app.js';
import type { AuthSecrets } from '../secrets.js';

/** The embedded identity provider (decisions.md D3), mounted at /auth/v1. */
export async function registerIdentityProvider(app: App, platform: Platform & { secrets: AuthSecrets }): Promise<void> {
  void app;
  void platform;
}
