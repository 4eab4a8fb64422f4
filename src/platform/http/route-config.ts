/** What every route may declare in its `config` (read by the platform hooks). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Reachable without a bearer token: the few routes outside the /api/v1 gate (health, the documents,
     * the identity provider). A route outside the gate without it fails the gate suite.
     */
    public?: boolean;
    /**
     * The level of the route's access line when not `info`: health checks come every few seconds from a
     * load balancer or an orchestrator, and at `info` they would drown what a person reads.
     */
    accessLogLevel?: 'debug';
  }
}

export {};
