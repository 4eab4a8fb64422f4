/** How a SCIM resource (User, Group) reads its body as changes, applies them, and reads itself back. */
export interface ScimResourceWrites<Caller, Changes, View> {
  fromResource(body: unknown): Changes;
  fromPatch(body: unknown): Changes;
  apply(caller: Caller, id: string, changes: Changes): Promise<void>;
  read(caller: Caller, id: string): Promise<View>;
}

/**
 * PUT and PATCH of a SCIM resource (RFC 7644 §3.5): PUT reads the body as the resource as a whole (what the
 * service does not keep is ignored), PATCH as its operations; either way the changes are applied and the
 * answer is the resource as a GET gives it now.
 */
export function replaceAndPatch<Caller, Changes, View>({ fromResource, fromPatch, apply, read }: ScimResourceWrites<Caller, Changes, View>) {
  return {
    async replace(caller: Caller, id: string, body: unknown): Promise<View> {
      await apply(caller, id, fromResource(body));
      return read(caller, id);
    },
    async patch(caller: Caller, id: string, body: unknown): Promise<View> {
      await apply(caller, id, fromPatch(body));
      return read(caller, id);
    },
  };
}
