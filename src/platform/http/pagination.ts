/** Pagination per decisions.md D2.5. Pure: the maths is unit-tested on its own. */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

export interface PaginationInfo {
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
  has_next: boolean;
  has_prev: boolean;
}

export function pageRequest(query: { page?: number | undefined; page_size?: number | undefined }): PageRequest {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function paginationInfo(request: PageRequest, total: number): PaginationInfo {
  const totalPages = total === 0 ? 0 : Math.ceil(total / request.pageSize);
  return {
    page: request.page,
    page_size: request.pageSize,
    total,
    total_pages: totalPages,
    has_next: request.page < totalPages,
    has_prev: request.page > 1,
  };
}

export interface Page<T> {
  data: T[];
  pagination: PaginationInfo;
}

/**
 * Runs a list's count and page queries. Callers build both from the same filtered query so the totals
 * and the rows always agree; the page query orders newest first (created_at desc, id desc).
 */
export async function loadPage<T>(
  request: PageRequest,
  countRows: () => Promise<number>,
  pageRows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const total = await countRows();
  const data = request.offset < total ? await pageRows(request.pageSize, request.offset) : [];
  return { data, pagination: paginationInfo(request, total) };
}
