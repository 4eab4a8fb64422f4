import type { paths } from '@risk-assurance/client';

/** The `data` of a path's successful answer, straight from the generated schema. */
type Success<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;

export type ResponseOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? Success<R> : never;

export type DataOf<P extends keyof paths, M extends keyof paths[P]> = ResponseOf<P, M> extends { data: infer D } ? D : never;

export type QueryOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type BodyOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;

export type Pagination = { page: number; page_size: number; total: number; total_pages: number; has_next: boolean; has_prev: boolean };
