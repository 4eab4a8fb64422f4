import type { Announce } from './secrets.js';

/**
 * How the service tells an operator about keys it generated. The JSON log stream goes to stdout and, in
 * production, to whatever collects it; a secret must never go there. So a secret is written only when
 * stdout is an interactive terminal (someone is watching it start); otherwise the notice says where to
 * read it (`npm run keys`), without it. Nothing here goes through the logger.
 */
export function terminalAnnouncer(stream: { isTTY?: boolean; write(text: string): unknown } = process.stdout): Announce {
  return (message, secret) => {
    if (secret === undefined) stream.write(`\n*** ${message}\n\n`);
    else if (stream.isTTY === true) stream.write(`\n*** ${message} (shown once; \`npm run keys\` shows it again):\n    ${secret}\n\n`);
    else stream.write(`\n*** ${message}. It is not written here, as this output is not a terminal: run \`npm run keys\` to see it.\n\n`);
  };
}
