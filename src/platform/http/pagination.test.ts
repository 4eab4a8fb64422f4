import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, loadPage, pageRequest, paginationInfo } from './pagination.js';

describe('pagination (D2.5)', () => {
  it('defaults to page 1 of 25 (part 8)', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(25);
    expect(pageRequest({})).toEqual({ page: 1, pageSize: 25, offset: 0 });
    expect(pageRequest({ page: undefined, page_size: undefined })).toEqual({ page: 1, pageSize: 25, offset: 0 });
  });

  it('computes the offset from page and page_size', () => {
    expect(pageRequest({ page: 3, page_size: 10 })).toEqual({ page: 3, pageSize: 10, offset: 20 });
  });

  it('clamps page_size 500 to 100 and reports 100 as the size used (D2.5)', () => {
    expect(MAX_PAGE_SIZE).toBe(100);
    const request = pageRequest({ page: 2, page_size: 500 });
    expect(request).toEqual({ page: 2, pageSize: 100, offset: 100 });
    expect(paginationInfo(request, 250).page_size).toBe(100);
    expect(pageRequest({ page_size: 100 }).pageSize).toBe(100);
    expect(pageRequest({ page_size: 101 }).pageSize).toBe(100);
  });

  it('has total_pages 0, no next and no previous page when the list is empty (D2.5)', () => {
    expect(paginationInfo(pageRequest({}), 0)).toEqual({
      page: 1,
      page_size: 25,
      total: 0,
      total_pages: 0,
      has_next: false,
      has_prev: false,
    });
  });

  it('total_pages is ceil(total / page_size); has_next is page < total_pages; has_prev is page > 1 (D2.5)', () => {
    expect(paginationInfo(pageRequest({ page: 1, page_size: 10 }), 25)).toMatchObject({
      total_pages: 3,
      has_next: true,
      has_prev: false,
    });
    expect(paginationInfo(pageRequest({ page: 2, page_size: 10 }), 25)).toMatchObject({ has_next: true, has_prev: true });
    expect(paginationInfo(pageRequest({ page: 3, page_size: 10 }), 25)).toMatchObject({ has_next: false, has_prev: true });
    expect(paginationInfo(pageRequest({ page: 1, page_size: 10 }), 30).total_pages).toBe(3);
    expect(paginationInfo(pageRequest({ page: 1, page_size: 10 }), 31).total_pages).toBe(4);
    expect(paginationInfo(pageRequest({ page: 1, page_size: 25 }), 1)).toMatchObject({ total_pages: 1, has_next: false });
  });

  it('answers a page past the end with empty data and correct totals, without reading rows (D2.5)', async () => {
    const pageRows = vi.fn(async () => ['never']);
    const page = await loadPage(pageRequest({ page: 5, page_size: 10 }), async () => 25, pageRows);
    expect(page.data).toEqual([]);
    expect(page.pagination).toEqual({
      page: 5,
      page_size: 10,
      total: 25,
      total_pages: 3,
      has_next: false,
      has_prev: true,
    });
    expect(pageRows).not.toHaveBeenCalled();
  });

  it('asks the page query for page_size rows at the page offset', async () => {
    const pageRows = vi.fn(async (limit: number, offset: number) => [`${limit}@${offset}`]);
    const page = await loadPage(pageRequest({ page: 2, page_size: 500 }), async () => 150, pageRows);
    expect(pageRows).toHaveBeenCalledWith(100, 100);
    expect(page).toEqual({
      data: ['100@100'],
      pagination: { page: 2, page_size: 100, total: 150, total_pages: 2, has_next: false, has_prev: true },
    });
  });
});
