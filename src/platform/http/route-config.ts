/** What every route may declare in its `config` (read by the platform hooks). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Stable dotted operation name, used in logs, metrics and audit entries. */
    operation?: string;
    /** Reachable without a bearer token (health, OpenAPI, the identity provider's own checks). */
    public?: boolean;
    /** false: not counted by the rate limiter (/health). */
    rateLimited?: boolean;
  }
}

export {};
