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
     * (platform/http/conditional). The service returns the state it read; the handler hands it over with `answer()`.
     */
    etag?: boolean;
    /**
     * A change of a versioned resource (PATCH, state action): If-Match is read (REQUIRE_IF_MATCH makes it
     * mandatory), handed to the service as `termsOf(request).expected` and checked under the row lock
     * (`lockForChange`); the answer carries the ETag of the state the change left.
     */
    ifMatch?: boolean;
    /**
     * A creating POST or a bulk change: an Idempotency-Key makes a retry replay the first answer instead
     * of acting twice (platform/idempotency). The service joins `termsOf(request).work` (`joinWork`).
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
