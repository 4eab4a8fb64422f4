/** Text made safe inside HTML (element content and quoted attribute values): the mails' one escaping. */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * Fills a template file: `{{name}}` takes a value (escaped when `html`), `{{{name}}}` a fragment already
 * made safe by the caller (HTML rendered from another template). A placeholder without a value is a bug
 * of the caller, and throws rather than mail a hole.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>, html: boolean): string {
  return template.replace(/\{\{(\{?)\s*([a-z_]+)\s*\}?\}\}/g, (_match, raw: string, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`mail template value "${name}" is missing`);
    return raw === '{' || !html ? value : escapeHtml(value);
  });
}
