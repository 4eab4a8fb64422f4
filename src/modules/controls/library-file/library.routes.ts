import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../platform/auth/principal.js';
import { AppError } from '../../../platform/errors/app-error.js';
import { sendDownload } from '../../../platform/http/download.js';
import type { App } from '../../../platform/module.js';
import type { LibraryExportService } from './library-export.service.js';
import type { LibraryImportService } from './library-import.service.js';
import { CSV_TYPE, XLSX_TYPE } from './library-reader.js';
import { exportLibrarySchema, importLibrarySchema } from './library.schemas.js';

export interface LibraryServices {
  libraryExport: LibraryExportService;
  libraryImport: LibraryImportService;
}

/** An upload of up to 5,000 rows of long free text fits; more is 413 like any oversized body. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The control library as a file: export (CSV, XLSX) and import. The upload's parsers live in a plugin of
 * their own, so no other route of the API accepts a CSV or a workbook.
 */
export async function registerLibraryRoutes(app: App, { libraryExport, libraryImport }: LibraryServices): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/controls/export', { schema: exportLibrarySchema }, async (request, reply) => {
    const file = libraryExport.export(callerOf(request), request.query.format ?? 'csv');
    return sendDownload(reply, file, file.stream);
  });

  await api.register(async (scoped) => {
    scoped.addContentTypeParser(/^text\/csv(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (request, body, done) => {
      const charset = /charset=([^;\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
        return done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'A CSV upload must be UTF-8'), undefined);
      }
      done(null, body);
    });
    scoped.addContentTypeParser(XLSX_TYPE, { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));

    scoped.withTypeProvider<TypeBoxTypeProvider>().post(
      '/controls/import',
      {
        schema: {
          ...importLibrarySchema,
          body: {
            content: {
              [CSV_TYPE]: { schema: { type: 'string', description: 'The library as RFC 4180 CSV, UTF-8' } },
              [XLSX_TYPE]: { schema: { description: 'The library as an .xlsx workbook (its first sheet)' } },
            },
          },
        },
        bodyLimit: IMPORT_BODY_LIMIT,
      },
      async (request) => {
        const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const data = await libraryImport.importFile(callerOf(request), contentType, request.body as string | Buffer, request.query.dry_run === true);
        return { data, message: data.dry_run ? 'Import checked; nothing was written' : 'Control library imported' };
      },
    );
  });
}
