// Turns the service's OpenAPI document into the client's TypeScript types. Shared by the generator
// (`npm run client:generate`) and the drift test, so both produce byte-for-byte the same text.
import openapiTS, { astToString } from 'openapi-typescript';

export const SCHEMA_HEADER = `/**
 * Generated from the Risk Assurance Service's OpenAPI document (GET /api/v1/openapi.json) by
 * \`npm run client:generate\`. Do not edit: a test fails when this file and the served document disagree.
 */

`;

export async function renderSchema(document) {
  const ast = await openapiTS(document, { alphabetize: true, rootTypes: false });
  return SCHEMA_HEADER + astToString(ast);
}
