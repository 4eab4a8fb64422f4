// The build copies what tsc does not: the SQL migrations, read at run time beside their index, and the
// notification mail's templates, read beside notification-mail.ts.
import { cpSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function copyAssets() {
  mkdirSync('dist/platform/db/migrations', { recursive: true });
  cpSync('src/platform/db/migrations', 'dist/platform/db/migrations', {
    recursive: true,
    filter: (source) => !source.endsWith('.ts'),
  });
  mkdirSync('dist/modules/notifications/templates', { recursive: true });
  cpSync('src/modules/notifications/templates', 'dist/modules/notifications/templates', { recursive: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) copyAssets();
