/**
 * A module is reached through its service, never its repository: the repository is the module's SQL, and a
 * caller that writes through it skips the rules the service keeps (an identity deactivated without its
 * sessions ended, say). The imports of `module`'s repositories from files outside the module, as
 * `importer → repository`.
 */
export function repositoryImportsFromOutside(graph: ReadonlyMap<string, readonly string[]>, module: string): string[] {
  return [...graph].flatMap(([file, targets]) =>
    file.startsWith(`${module}/`)
      ? []
      : targets.filter((target) => target.startsWith(`${module}/`) && target.endsWith('.repository.ts')).map((target) => `${file} → ${target}`),
  );
}
