import { Alert, List, Text } from '@mantine/core';
import { ApiError } from '../lib/api-error';

/**
 * A failed call, readable: the answer's `error` text and each field message of a 422 (those a form
 * shows next to its fields are shown there too). Anything else thrown still gives a line, never a blank.
 */
export function ErrorDisplay({ error, title = 'That did not work' }: { error: unknown; title?: string }) {
  if (error === null || error === undefined) return null;
  const apiError = error instanceof ApiError ? error : null;
  const message = apiError?.message ?? (error instanceof Error ? error.message : String(error));
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Text size="sm">{message}</Text>
      {apiError !== null && apiError.fields.length > 0 && (
        <List size="sm" mt="xs">
          {apiError.fields.map((field) => (
            <List.Item key={`${field.field}:${field.message}`}>
              <Text span fw={600} size="sm">
                {field.field}
              </Text>
              : {field.message}
            </List.Item>
          ))}
        </List>
      )}
      {apiError?.requestId && (
        <Text size="xs" c="dimmed" mt="xs">
          Request {apiError.requestId}
        </Text>
      )}
    </Alert>
  );
}

/** The message of one field of a failed form submission, for the field's `error` prop. */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.fieldMessage(field) : undefined;
}
