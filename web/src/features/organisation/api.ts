import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { DataOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

export type OrganisationEntity = DataOf<'/api/v1/legal-entities', 'get'>[number];
export type CatalogueScenario = DataOf<'/api/v1/risk-scenarios', 'get'>[number];
export type ImportSummary = DataOf<'/api/v1/controls/import', 'post'>;

/** Every legal entity with its units, the archived ones too when asked: the organisation screen's own list. */
export function useOrganisation(includeArchived: boolean) {
  return useQuery({
    queryKey: queryKeys.organisation(includeArchived),
    queryFn: async () => (await unwrap(api.GET('/api/v1/legal-entities', { params: { query: { include_archived: includeArchived } } }))).data,
  });
}

/** A change of the organisation moves every entity picker and list of the console. */
function useOrganisationChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.legalEntities });
}

export function useCreateEntity() {
  const changed = useOrganisationChanged();
  return useMutation({ mutationFn: (body: { name: string; description?: string | null }) => unwrap(api.POST('/api/v1/admin/legal-entities', { body })), onSuccess: changed });
}

export function useCreateUnit() {
  const changed = useOrganisationChanged();
  return useMutation({
    mutationFn: ({ entityId, name }: { entityId: string; name: string }) =>
      unwrap(api.POST('/api/v1/admin/legal-entities/{id}/business-units', { params: { path: { id: entityId } }, body: { name } })),
    onSuccess: changed,
  });
}

export function useRenameEntity() {
  const changed = useOrganisationChanged();
  return useMutation({ mutationFn: ({ id, name }: { id: string; name: string }) => unwrap(api.PATCH('/api/v1/legal-entities/{id}', { params: { path: { id } }, body: { name } })), onSuccess: changed });
}

export function useRenameUnit() {
  const changed = useOrganisationChanged();
  return useMutation({ mutationFn: ({ id, name }: { id: string; name: string }) => unwrap(api.PATCH('/api/v1/business-units/{id}', { params: { path: { id } }, body: { name } })), onSuccess: changed });
}

export function useArchiveEntity() {
  const changed = useOrganisationChanged();
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/legal-entities/{id}/archive', { params: { path: { id } } })), onSuccess: changed });
}

export function useArchiveUnit() {
  const changed = useOrganisationChanged();
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/business-units/{id}/archive', { params: { path: { id } } })), onSuccess: changed });
}

/** The scenario catalogue, archived ones on request (one page of up to 100: a catalogue is dozens). */
export function useCatalogue(includeArchived: boolean) {
  return useQuery({
    queryKey: queryKeys.riskScenarios({ include_archived: includeArchived, page_size: 100 }),
    queryFn: async () => (await unwrap(api.GET('/api/v1/risk-scenarios', { params: { query: { include_archived: includeArchived, page_size: 100 } } }))).data,
  });
}

function useCatalogueChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.riskScenariosAll });
}

export function useCreateScenario() {
  const changed = useCatalogueChanged();
  return useMutation({ mutationFn: (body: { name: string; category: string; description?: string | null }) => unwrap(api.POST('/api/v1/risk-scenarios', { body })), onSuccess: changed });
}

export function useUpdateScenario() {
  const changed = useCatalogueChanged();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name?: string; category?: string; description?: string | null }) =>
      unwrap(api.PATCH('/api/v1/risk-scenarios/{id}', { params: { path: { id } }, body })),
    onSuccess: changed,
  });
}

export function useArchiveScenario() {
  const changed = useCatalogueChanged();
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/risk-scenarios/{id}/archive', { params: { path: { id } } })), onSuccess: changed });
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The library file sent as it is (CSV or XLSX): a dry run checks and counts, an apply writes all rows or none. */
export function useImportLibrary() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, dryRun }: { file: File; dryRun: boolean }) =>
      (
        await unwrap(
          api.POST('/api/v1/controls/import', {
            params: { query: { dry_run: dryRun } },
            body: file as never,
            bodySerializer: (body: unknown) => body as Blob,
            headers: { 'content-type': file.name.toLowerCase().endsWith('.xlsx') ? XLSX : 'text/csv' },
          }),
        )
      ).data,
    onSuccess: (summary) => (summary.dry_run ? undefined : client.invalidateQueries({ queryKey: queryKeys.controls.all })),
  });
}

export function useExportLibrary() {
  return useMutation({
    mutationFn: (format: 'csv' | 'xlsx') => saveDownload(api.GET('/api/v1/controls/export', { params: { query: { format } }, parseAs: 'blob' }), `control-library.${format}`),
  });
}

export function useLoadStarterLibrary() {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/controls/starter-library')), onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.controls.all }) });
}

/** Whether the enterprise has any control yet: the starter library is offered only to one without. */
export function useHasControls() {
  return useQuery({
    queryKey: queryKeys.controls.keyControls({ page_size: 1, probe: 'any' }),
    queryFn: async () => (await unwrap(api.GET('/api/v1/controls/key-controls', { params: { query: { page_size: 1 } } }))).data.length > 0,
  });
}
