import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The working tree as a clone would hold it (tracked and new files, nothing ignored), copied into `to`. */
export function cloneInto(to: string): void {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(file));
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(file, join(to, file));
  }
}
