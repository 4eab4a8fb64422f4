/** Rows of one multi-row INSERT by default: far under PostgreSQL's 65,535 bind parameters at a few dozen columns. */
export const INSERT_CHUNK = 500;

/**
 * Many rows in multi-row INSERTs of at most `size` rows each, one after another (an import, a batch of audit
 * entries): `insert` writes one chunk, and what the chunks return is gathered in the order given.
 */
export async function insertInChunks<Row, Out>(rows: readonly Row[], insert: (chunk: Row[]) => Promise<Out[]>, size = INSERT_CHUNK): Promise<Out[]> {
  const out: Out[] = [];
  for (let start = 0; start < rows.length; start += size) out.push(...(await insert(rows.slice(start, start + size))));
  return out;
}
