import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Pagination } from '../lib/api-types';
import { Pager } from './page-states';

/**
 * One page of a list as a table: its column headings, its rows, a sideways scroll below `minWidth` (so a
 * phone keeps every column), and the pager under it. The console's paginated lists are drawn through it.
 */
export function PagedTable({
  minWidth,
  columns,
  pagination,
  onPage,
  children,
  ...table
}: TableProps & { minWidth: number; columns: readonly string[]; pagination: Pagination; onPage: (page: number) => void; children: ReactNode }) {
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table {...table}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager pagination={pagination} onChange={onPage} />
    </>
  );
}
