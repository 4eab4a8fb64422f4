import { createContext, useContext } from 'react';
import type { DataOf } from '../../lib/api-types';

export type Me = DataOf<'/api/v1/me', 'get'>;

export const CallerContext = createContext<Me | null>(null);

/** The signed-in caller; the screens behind sign-in are drawn only once it is known. */
export function useCaller(): Me {
  const me = useContext(CallerContext);
  if (me === null) throw new Error('useCaller outside the signed-in layout');
  return me;
}
