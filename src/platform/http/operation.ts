/**
 * The dotted operation name of the matched route: its schema's `operationId`, written once in the route's
 * schema and read from there by logs, alerts and audit entries. null for unmatched requests (404).
 */
export function operationOf(request: { routeOptions?: { schema?: unknown } }): string | null {
  const schema = request.routeOptions?.schema as { operationId?: unknown } | undefined;
  return typeof schema?.operationId === 'string' ? schema.operationId : null;
}
