import { Code, Table, Text } from '@mantine/core';
import { ApiError } from '../../lib/api-error';

export interface RowProblem {
  row: number;
  column: string;
  message: string;
}

/** The refused cells of a dry run or an import: the service's 422 lists them in details.rows (the header is row 1). */
export function problemsOf(error: unknown): RowProblem[] {
  const rows = error instanceof ApiError ? error.details.rows : undefined;
  return Array.isArray(rows) ? rows.filter((row): row is RowProblem => typeof row?.row === 'number' && typeof row?.column === 'string' && typeof row?.message === 'string') : [];
}

/**
 * Each refusal beside the line of the file it is about, so the person sees what to correct: the file's own
 * text for a CSV (its lines as sent; a cell with a line break spans two, which only shifts what is shown), the
 * row number alone for a workbook.
 */
export function ImportRefusals({ problems, lines }: { problems: RowProblem[]; lines: string[] | null }) {
  if (problems.length === 0) return null;
  return (
    <Table withTableBorder data-testid="import-refusals">
      <Table.Caption>
        {problems.length} {problems.length === 1 ? 'cell was' : 'cells were'} refused; nothing was written. Correct the file and check it again.
      </Table.Caption>
      <Table.Thead>
        <Table.Tr><Table.Th>Row</Table.Th><Table.Th>Column</Table.Th><Table.Th>Why</Table.Th><Table.Th>The row in the file</Table.Th></Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {problems.map((problem) => (
          <Table.Tr key={`${problem.row}-${problem.column}`} data-testid="refused-row">
            <Table.Td>{problem.row}</Table.Td>
            <Table.Td><Code>{problem.column}</Code></Table.Td>
            <Table.Td>{problem.message}</Table.Td>
            <Table.Td>{lines?.[problem.row - 1] !== undefined ? <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{lines[problem.row - 1]}</Code> : <Text size="sm" c="dimmed">–</Text>}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
