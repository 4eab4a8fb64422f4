import { Type } from 'typebox';
import { DataResponse, Timestamp, errorResponses } from '../../../platform/http/schemas.js';

export const LoadedLibraryView = Type.Object({
  library: Type.String({ description: 'The library loaded', examples: ['starter-2026'] }),
  key_controls: Type.Integer({ description: 'Key controls created', examples: [60] }),
  sub_controls: Type.Integer({ description: 'Sub-controls created, untested (they count as not_assessed until tested)', examples: [159] }),
  risk_scenario_links: Type.Integer({ description: 'Links from key controls to the catalogue scenarios they mitigate' }),
  loaded_at: Timestamp(),
});

export const loadStarterLibrarySchema = {
  summary: 'Load the starter control library',
  description:
    'Client admin only, once per enterprise (409 INVALID_STATE after). Creates at least 60 key controls across governance, access, ' +
    'change, operations, third parties, continuity, data protection, financial reporting, fraud and compliance, each with 2 to 4 ' +
    'untested sub-controls, linked to the catalogue scenarios they mitigate. No body.',
  operationId: 'controls.starter_library.load',
  tags: ['controls'],
  response: { 201: DataResponse(LoadedLibraryView), ...errorResponses([409]) },
};
