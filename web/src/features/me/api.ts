import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** Who is signed in, with the role and assignments from the service's records. */
export function useMe(enabled = true) {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: async () => (await unwrap(api.GET('/api/v1/me'))).data,
    enabled,
  });
}
