export declare const SCHEMA_HEADER: string;
/** The text of src/schema.d.ts for an OpenAPI document (the parsed JSON). */
export declare function renderSchema(document: object): Promise<string>;
