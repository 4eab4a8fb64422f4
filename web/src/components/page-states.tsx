import { Center, Group, Loader, Pagination as MantinePagination, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Pagination } from '../lib/api-types';
import { ErrorDisplay } from './error-display';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status">
      <Loader />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}

/** What an empty list says: what is missing and what to do next. */
export function Empty({ title, next }: { title: string; next: ReactNode }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Text fw={600}>{title}</Text>
      <Text c="dimmed" size="sm" ta="center">
        {next}
      </Text>
    </Stack>
  );
}

/** A query's three states in one place: loading, failed (readable), or its content. */
export function QueryState<T>({ query, children }: { query: { isPending: boolean; error: unknown; data: T | undefined }; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorDisplay error={query.error} title="Could not load this" />;
  if (query.isPending || query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}

export function Pager({ pagination, onChange }: { pagination: Pagination; onChange: (page: number) => void }) {
  if (pagination.total_pages <= 1) return null;
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {pagination.total} in all
      </Text>
      <MantinePagination
        total={pagination.total_pages}
        value={pagination.page}
        onChange={onChange}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
      />
    </Group>
  );
}

export function ScreenTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {children}
      </Title>
      {actions}
    </Group>
  );
}
