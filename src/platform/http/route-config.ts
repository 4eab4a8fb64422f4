/** What every route may declare in its `config` (read by the platform hooks). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Reachable without a bearer token: the few routes outside the /api/v1 gate (health, the documents,
     * the identity provider). A route outside the gate without it fails the gate suite.
     */
    public?: boolean;
    /**
     * A single-resource read: its answer carries a strong ETag and If-None-Match gives 304
     * (platform/http/conditional). The service reports the version it read with `servedVersion`.
     */
    etag?: boolean;
    /**
     * A change of a versioned resource (PATCH, state action): If-Match is read (REQUIRE_IF_MATCH makes it
     * mandatory) and the service checks it under the row lock with `requireCurrentVersion`; the answer
     * carries the new ETag.
     */
    ifMatch?: boolean;
    /**
     * A creating POST or a bulk change: an Idempotency-Key makes a retry replay the first answer instead
     * of acting twice (platform/idempotency). The service opens its transaction with `joinRequestWork`.
     */
    idempotent?: boolean;
    /**
     * The level of the route's access line when not `info`: health checks come every few seconds from a
     * load balancer or an orchestrator, and at `info` they would drown what a person reads.
     */
    accessLogLevel?: 'debug';
  }
}

export {};
