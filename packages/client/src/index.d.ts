import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** Every path, method, parameter, body and response of the API, typed from its OpenAPI document. */
export type RiskClient = Client<paths>;

/** A client for a Risk Assurance Service at `options.baseUrl` (the origin, e.g. `https://risk.example.com`). */
export declare function createClient(options?: ClientOptions): RiskClient;

/** The error body every failure carries (decisions.md D2). */
export type ErrorBody = components['schemas']['ErrorBody'];
