import type { DemoResult } from './run-demo.js';

const ROLE_LABELS = { super_admin: 'Super admin', admin: 'Client admin', assessor: 'Assessor', reviewer: 'Reviewer' } as const;

const quoteForShell = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The text printed at the end: who can sign in, with what, where; and one sign-in to copy. */
export function formatDemoReport(result: DemoResult, where: { baseUrl: string; inMemory: boolean; serviceRunning?: boolean }): string {
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
  lines.push(
    '',
    `Web console:      ${where.baseUrl}/ (while the service runs: sign in as one of the people above)`,
    `Base URL:         ${where.baseUrl}`,
    `apikey (anon key): ${result.anonKey}`,
  );
  for (const note of result.notes) lines.push('', note);

  const example = result.credentials.find((c) => c.role === 'admin' && c.password !== null) ?? result.credentials.find((c) => c.password !== null);
  if (example !== undefined) {
    lines.push(
      '',
      where.serviceRunning === true
        ? `Try it: the service runs at ${where.baseUrl} with this apikey; paste these lines into a shell. They sign in as ${example.fullName}`
        : `Try it: start the service (npm start; the demo may run again beside it), then paste these lines into a shell. They sign in as ${example.fullName}`,
      `(${ROLE_LABELS[example.role]}) and list what the demo made. The API reference is at ${where.baseUrl}/docs.`,
      '',
      ...sessionCommands({ baseUrl: where.baseUrl, anonKey: result.anonKey, email: example.email, password: example.password as string }).map(
        (line) => `  ${line}`,
      ),
    );
  }
  if (where.inMemory) {
    lines.push('', 'Note: DATABASE_URL=memory:// keeps the data only while this process runs; use the default embedded database (DATA_DIR) or a server to keep it.');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A first session as shell commands, with the real values filled in: sign in, then three reads. Only curl
 * and node are needed (node parses the JSON, so no jq).
 */
export function sessionCommands(values: { baseUrl: string; anonKey: string; email: string; password: string }): string[] {
  const body = JSON.stringify({ email: values.email, password: values.password });
  return [
    `API=${quoteForShell(values.baseUrl)}`,
    `APIKEY=${quoteForShell(values.anonKey)}`,
    `pretty() { node -p 'JSON.stringify(JSON.parse(require("fs").readFileSync(0, "utf8")), null, 2)'; }`,
    `TOKEN=$(curl -sS --fail-with-body -X POST "$API/auth/v1/token?grant_type=password" -H "apikey: $APIKEY" -H 'Content-Type: application/json' -d ${quoteForShell(body)} | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token')`,
    `curl -sS --fail-with-body "$API/api/v1/me" -H "Authorization: Bearer $TOKEN" | pretty`,
    `curl -sS --fail-with-body "$API/api/v1/legal-entities" -H "Authorization: Bearer $TOKEN" | pretty`,
    `curl -sS --fail-with-body "$API/api/v1/risk-scenarios?page_size=5" -H "Authorization: Bearer $TOKEN" | pretty`,
  ];
}
