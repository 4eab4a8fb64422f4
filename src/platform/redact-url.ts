/**
 * A URL fit to print (the start-up banner, the mailer's destination): the password is never shown. A leaf
 * of the platform, so that whoever prints a configured address imports nothing else for it.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(unparsable URL)';
  }
}
