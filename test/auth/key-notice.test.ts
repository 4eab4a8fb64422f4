import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { terminalAnnouncer } from '../../src/platform/auth/key-notice.js';
import { runKeysCommand } from '../../src/keys-command.js';
import { loadAuthSecrets } from '../../src/platform/auth/secrets.js';
import { freshDatabase } from '../support/database.js';

/** Generated keys are shown once on a terminal, later by `npm run keys`; never in the log stream. */
describe('generated keys and the log stream', () => {
  const capture = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, stream: { isTTY, write: (text: string) => written.push(text) } };
  };

  it('generated with stdout that is not a terminal (logs collected): the notice carries no key, `npm run keys` does', async () => {
    const database = await freshDatabase();
    try {
      const stdout = capture(false);
      const config = loadConfig({ PUBLIC_URL: 'http://service.test' });
      const secrets = await loadAuthSecrets(database.db, config, terminalAnnouncer(stdout.stream));
      const keys = [secrets.anonKey, secrets.serviceRoleKey];
      const notices = stdout.written.join('');
      for (const key of keys) expect(notices).not.toContain(key);
      expect(notices).toContain('AUTH_SERVICE_ROLE_KEY');
      expect(notices).toContain('npm run keys');
      // The operator reads them with the command.
      const printed: string[] = [];
      await runKeysCommand(database.db, config, [], (line) => printed.push(line));
      for (const key of keys) expect(printed.join('\n')).toContain(key);
    } finally {
      await database.close();
    }
  });

  it('on an interactive terminal the secret is shown, once, with the notice', () => {
    const terminal = capture(true);
    terminalAnnouncer(terminal.stream)('Generated AUTH_SERVICE_ROLE_KEY', 'service_abc123');
    expect(terminal.written.join('')).toContain('service_abc123');
    const piped = capture(false);
    terminalAnnouncer(piped.stream)('Generated AUTH_SERVICE_ROLE_KEY', 'service_abc123');
    expect(piped.written.join('')).not.toContain('service_abc123');
  });
});
