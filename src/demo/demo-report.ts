import type { DemoResult } from './run-demo.js';

const ROLE_LABELS = { super_admin: 'Super admin', admin: 'Client admin', assessor: 'Assessor', reviewer: 'Reviewer' } as const;

const quoteForShell = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The text printed at the end: who can sign in, with what, where; and one sign-in to copy. */
export function formatDemoReport(result: DemoResult, where: { baseUrl: string; inMemory: boolean }): string {
  const lines: string[] = [];
  if (result.outcome === 'exists') {
    lines.push(
      `The demo enterprise "${result.enterprise.name}" already exists (created ${result.enterprise.created_at.toISOString()}); nothing was changed.`,
      'Its people, with the passwords the demo gave them (unless changed since):',
    );
  } else {
    lines.push(`Created the demo enterprise "${result.enterprise.name}" (${result.enterprise.id}).`, 'Sign in as:');
  }
  lines.push('');
  const passwordOf = (password: string | null) => password ?? '(its own password)';
  const emailWidth = Math.max(...result.credentials.map((c) => c.email.length), 5);
  const passwordWidth = Math.max(...result.credentials.map((c) => passwordOf(c.password).length), 8);
  for (const credential of result.credentials) {
    const password = passwordOf(credential.password).padEnd(passwordWidth);
    lines.push(`  ${ROLE_LABELS[credential.role].padEnd(13)} ${credential.email.padEnd(emailWidth)}  ${password}  ${credential.fullName}`);
    if (credential.assignments.length > 0) lines.push(`  ${''.padEnd(13)} assigned to: ${credential.assignments.join('; ')}`);
  }
  lines.push('', `Base URL:         ${where.baseUrl}`, `apikey (anon key): ${result.anonKey}`);
  for (const note of result.notes) lines.push('', note);

  const example = result.credentials.find((c) => c.role === 'admin' && c.password !== null) ?? result.credentials.find((c) => c.password !== null);
  if (example !== undefined) {
    const body = JSON.stringify({ email: example.email, password: example.password });
    lines.push(
      '',
      `Sign in (${ROLE_LABELS[example.role]}), then call the API with "Authorization: Bearer <access_token>":`,
      `  curl -s -X POST '${where.baseUrl}/auth/v1/token?grant_type=password' -H ${quoteForShell(`apikey: ${result.anonKey}`)} -H 'Content-Type: application/json' -d ${quoteForShell(body)}`,
    );
  }
  if (where.inMemory) {
    lines.push('', 'Note: DATABASE_URL=memory:// keeps the data only while this process runs; use the default embedded database (DATA_DIR) or a server to keep it.');
  }
  return `${lines.join('\n')}\n`;
}
