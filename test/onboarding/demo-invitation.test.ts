import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_INVITEE } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { scratchDir } from '../support/scratch-dir.js';
import { freshDatabase } from '../support/database.js';
import { decodeQuotedPrintable, linkOf } from '../support/smtp.js';

describe('npm run demo: one invited user whose invitation sits under DATA_DIR/mail', async () => {
  const dataDir = scratchDir('risk-demo-mail');
  const database = await freshDatabase();
  const ctx = await createTestContext({ database, env: { DATA_DIR: dataDir } });
  const result = await runDemo(database, ctx.config);

  it('writes exactly the invitation of the invitee (the others have passwords), and its link works', async () => {
    // Besides the invitation, the review loop's notification mails of the demo people.
    const mails = readdirSync(join(dataDir, 'mail'))
      .filter((name) => name.endsWith('.eml'))
      .map((name) => ({ decoded: decodeQuotedPrintable(readFileSync(join(dataDir, 'mail', name), 'utf8')) }));
    const invitations = mails.filter((m) => m.decoded.includes('/auth/v1/verify'));
    expect(invitations).toHaveLength(1);
    const mail = invitations[0]!;
    expect(mail.decoded).toContain(`To: ${DEMO_INVITEE.email}`);
    expect(mail.decoded).toContain('Olivia Bennett has invited you to Harbourview Financial Group (demo)');
    expect(result.notes.join('\n')).toContain(DEMO_INVITEE.email);
    const link = linkOf(mail, ctx.config.publicUrl);
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/verify',
      headers: { apikey: ctx.secrets.anonKey },
      payload: { token_hash: link.token, type: 'invite' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
  });
});
