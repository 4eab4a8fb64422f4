import type { ActiveKeyControl } from './library.repository.js';
import type { ImportRow, RowProblem } from './library-file.js';
import type { SubControlRow } from '../library/sub-controls.repository.js';

/** What an import does to one key control and its sub-controls: match by name, create what is new. */
export interface KeyControlPlan {
  row: number;
  name: string;
  existing: ActiveKeyControl | null;
  /** undefined: the file has no key_control_description column, so the description is left as it is. */
  description: string | null | undefined;
  subControls: SubControlPlan[];
}

export interface SubControlPlan {
  row: number;
  name: string;
  existing: SubControlRow | null;
  values: NonNullable<ImportRow['subControl']>['values'];
}

const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
};

/**
 * Matches the file's rows against the active library, by exact name: a key control by its name, a
 * sub-control by its name within its key control. Pure. Every problem is collected (a name that matches
 * several active records, a key control described two ways, a sub-control twice), so one answer names
 * them all and nothing is written.
 */
export function planImport(
  rows: readonly ImportRow[],
  library: { keyControls: readonly ActiveKeyControl[]; subControls: readonly SubControlRow[] },
): { plans: KeyControlPlan[]; problems: RowProblem[] } {
  const keyControlsByName = groupBy(library.keyControls, (keyControl) => keyControl.name);
  const subControlsByParent = groupBy(library.subControls, (sub) => `${sub.key_control_id}\u0000${sub.name}`);
  const plans = new Map<string, KeyControlPlan>();
  const problems: RowProblem[] = [];

  for (const row of rows) {
    let plan = plans.get(row.keyControl.name);
    if (plan === undefined) {
      const matches = keyControlsByName.get(row.keyControl.name) ?? [];
      if (matches.length > 1) {
        problems.push({ row: row.row, column: 'key_control', message: `matches ${matches.length} active key controls of that name; rename them first` });
        continue;
      }
      plan = {
        row: row.row,
        name: row.keyControl.name,
        existing: matches[0] ?? null,
        description: row.keyControl.hasDescription ? row.keyControl.description : undefined,
        subControls: [],
      };
      plans.set(row.keyControl.name, plan);
    } else if (row.keyControl.hasDescription && plan.description !== row.keyControl.description) {
      problems.push({ row: row.row, column: 'key_control_description', message: `differs from row ${plan.row} for the same key control` });
      continue;
    }
    if (row.subControl === null) continue;
    const twice = plan.subControls.find((sub) => sub.name === row.subControl!.name);
    if (twice !== undefined) {
      problems.push({ row: row.row, column: 'sub_control', message: `appears twice under this key control (rows ${twice.row} and ${row.row})` });
      continue;
    }
    const matches = plan.existing === null ? [] : (subControlsByParent.get(`${plan.existing.id}\u0000${row.subControl.name}`) ?? []);
    if (matches.length > 1) {
      problems.push({ row: row.row, column: 'sub_control', message: `matches ${matches.length} active sub-controls of that name; rename them first` });
      continue;
    }
    plan.subControls.push({ row: row.row, name: row.subControl.name, existing: matches[0] ?? null, values: row.subControl.values });
  }
  return { plans: [...plans.values()], problems };
}
