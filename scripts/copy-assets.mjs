// The build copies what tsc does not: the SQL migrations, read at run time beside their index.
import { cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/platform/db/migrations', { recursive: true });
cpSync('src/platform/db/migrations', 'dist/platform/db/migrations', {
  recursive: true,
  filter: (source) => !source.endsWith('.ts'),
});
