// The floor the service is measured against (bench/experiments/gate-ratio.mjs): a bare node:http + pg server
// that runs the same SQL as the service's GET /api/v1/me and GET /api/v1/admin/enterprises and writes the same
// JSON, with nothing else: no routing table, validation, token check, rate limit, principal resolution or
// logging. The caller of /me is fixed (BENCH_ME_USER_ID); its principal is read with the service's principal
// query and kept for as long as the service keeps it (PRINCIPAL_TTL_MS), so both run the same statements.
// It imports nothing from bench/support.mjs on purpose: a floor does its work and nothing else (gate-ratio.mjs
// starts and measures it with support.mjs).
//
//   DATABASE_URL=postgres://... PORT=3101 BENCH_ME_USER_ID=<uuid> node bench/experiments/bare-handler.mjs
import { createServer } from 'node:http';
import pg from 'pg';
// The health formula and the caller's abilities are the service's own (built into dist/ by the bench's build
// step): pure, no I/O.
import { assessHealth } from '../../dist/modules/health/health-score.js';
import { enterpriseAbilities, grantableRoles } from '../../dist/modules/admin/admin.policy.js';
import { callerAbilities } from '../../dist/modules/me/caller-abilities.js';

const INT8_OID = 20;
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

const { DATABASE_URL, PORT = '3101', BENCH_ME_USER_ID } = process.env;
if (!DATABASE_URL || !BENCH_ME_USER_ID) {
  process.stderr.write('DATABASE_URL and BENCH_ME_USER_ID are required\n');
  process.exit(2);
}
// The service's pool size and tier prices (its defaults).
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const TIER_PRICES = { starter: 0, professional: 49_900, enterprise: 249_900 };
const PRINCIPAL_TTL_MS = 4_000;

// The statements as Kysely compiles them for the service (same text, same parameters).
const PRINCIPAL_SQL = `select "u"."id", "u"."email", "u"."full_name", "u"."active", "u"."is_super_admin", "m"."role", "m"."enterprise_id", (select "s"."revoked_at" is not null as "revoked" from "auth_sessions" as "s" where "s"."id" = $1 and "s"."user_id" = $2) as "session_revoked", (select coalesce(json_agg(json_build_object('legal_entity_id', r.legal_entity_id, 'business_unit_id', r.business_unit_id)), '[]'::json) as "assignments" from "entity_roles" as "r" where "r"."user_id" = "u"."id" and "r"."enterprise_id" = "m"."enterprise_id") as "assignments" from "users" as "u" left join "enterprise_members" as "m" on "m"."user_id" = "u"."id" and "m"."active" = $3 where "u"."id" = $4`;
const ENTERPRISE_NAME_SQL = `select "name" from "enterprises" where "id" = $1`;
const ASSIGNMENTS_SQL = `select "r"."legal_entity_id", "r"."business_unit_id", "le"."name", "bu"."name" as "business_unit_name" from "entity_roles" as "r" inner join "legal_entities" as "le" on "le"."id" = "r"."legal_entity_id" and "le"."enterprise_id" = "r"."enterprise_id" left join "business_units" as "bu" on "bu"."id" = "r"."business_unit_id" where "r"."enterprise_id" = $1 and "r"."user_id" = $2 order by "le"."name"`;
const COUNT_ENTERPRISES_SQL = `select count(*) as "total" from "enterprises" as "e"`;
const LIST_ENTERPRISES_SQL = `select "e".*, (select count(*) as "n" from "enterprise_members" as "m" inner join "users" as "u" on "u"."id" = "m"."user_id" where "m"."enterprise_id" = "e"."id" and "m"."active" = $1 and "u"."active" = $2) as "user_count", (select count(*) as "n" from "bras" as "b" where "b"."enterprise_id" = "e"."id" and "b"."status" <> $3) as "bra_count" from "enterprises" as "e" order by "e"."created_at" desc, "e"."id" desc limit $4 offset $5`;

const sessionId = process.env.BENCH_ME_SESSION_ID ?? null;
let principal = null;
let principalAt = 0;

async function currentPrincipal() {
  if (principal !== null && Date.now() - principalAt < PRINCIPAL_TTL_MS) return principal;
  const { rows } = await pool.query(PRINCIPAL_SQL, [sessionId, BENCH_ME_USER_ID, true, BENCH_ME_USER_ID]);
  const row = rows[0];
  principal = {
    userId: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.is_super_admin ? 'super_admin' : row.role,
    enterpriseId: row.is_super_admin ? null : row.enterprise_id,
    sessionId,
    entityAssignments: row.is_super_admin ? [] : (row.assignments ?? []),
  };
  principalAt = Date.now();
  return principal;
}

async function me() {
  const caller = await currentPrincipal();
  const enterpriseId = caller.enterpriseId;
  let enterpriseName = null;
  let assignments = [];
  if (enterpriseId !== null) {
    // Both at once, as the service's me service does.
    const [names, roles] = await Promise.all([
      pool.query(ENTERPRISE_NAME_SQL, [enterpriseId]),
      pool.query(ASSIGNMENTS_SQL, [enterpriseId, caller.userId]),
    ]);
    enterpriseName = names.rows[0]?.name ?? null;
    assignments = roles.rows;
  }
  return {
    data: {
      user_id: caller.userId,
      email: caller.email,
      full_name: caller.fullName,
      role: caller.role,
      enterprise_id: enterpriseId,
      enterprise_name: enterpriseName,
      entity_assignments: assignments.map((a) => ({
        legal_entity_id: a.legal_entity_id,
        business_unit_id: a.business_unit_id,
        name: a.name,
        business_unit_name: a.business_unit_name,
      })),
      abilities: callerAbilities(caller),
      grantable_roles: grantableRoles(caller),
      kind: 'user',
    },
    message: 'Current user',
  };
}

// The health signals of the page's enterprises, one statement (src/modules/health/health.repository.ts).
const HEALTH_SQL = `select e.id as enterprise_id,
  (select count(*) from mitigation_actions a where a.enterprise_id = e.id and not a.archived and a.status <> 'completed'
    and a.priority in ('high', 'critical') and a.due_date < $1::date)::int as overdue_urgent_actions,
  (select count(*) from bras b
    join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
    join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_risk_scenario_id = l.id and r.rating_type = 'residual' and r.superseded_at is null
    where b.enterprise_id = e.id and b.status <> 'cancelled'
      and r.risk_score > (select p.threshold_value from risk_appetites p where p.enterprise_id = b.enterprise_id
        and ((p.legal_entity_id is null and p.business_unit_id is null) or (p.legal_entity_id = b.legal_entity_id and p.business_unit_id is null)
          or (p.legal_entity_id = b.legal_entity_id and p.business_unit_id = b.business_unit_id))
        order by (p.business_unit_id is not null)::int + (p.legal_entity_id is not null)::int desc limit 1))::int as scenarios_above_appetite,
  (select count(*) from bras b where b.enterprise_id = e.id and b.status in ('draft', 'in_progress', 'under_review')
    and coalesce(b.start_date, (b.created_at at time zone 'UTC')::date) < $1::date - $2::int)::int as bras_past_period,
  (select count(*) from sub_controls s where s.enterprise_id = e.id and not s.archived)::int as sub_controls,
  (select count(*) from sub_controls s where s.enterprise_id = e.id and not s.archived
    and (s.total_effectiveness is null or s.total_effectiveness = 'Not Effective'))::int as weak_sub_controls,
  (select count(*) from audit_log g where g.enterprise_id = e.id and g.action_type = 'login' and g.status = 'failed'
    and g.created_at >= now() - $3::interval)::int as failed_sign_ins
from enterprises e where e.id = any($4::uuid[])`;

async function healthOf(ids) {
  const today = new Date().toISOString().slice(0, 10);
  const { rows } = await pool.query(HEALTH_SQL, [today, 365, '7 days', ids]);
  return new Map(rows.map(({ enterprise_id, ...signals }) => [enterprise_id, assessHealth(signals)]));
}

// The enterprise list's caller: a super admin (the bare server checks no token; the service's run sends one).
const SUPER_ADMIN_CALLER = { userId: 'bench', email: 'bench', fullName: 'bench', role: 'super_admin', enterpriseId: null, sessionId: null, entityAssignments: [] };

async function enterprises() {
  const page = 1;
  const pageSize = 25;
  const total = (await pool.query(COUNT_ENTERPRISES_SQL)).rows[0].total;
  const rows = total > 0 ? (await pool.query(LIST_ENTERPRISES_SQL, [true, true, 'cancelled', pageSize, 0])).rows : [];
  const totalPages = total === 0 ? 0 : Math.ceil(total / pageSize);
  const health = rows.length === 0 ? new Map() : await healthOf(rows.map((row) => row.id));
  return {
    data: rows.map((row) => ({
      id: row.id,
      name: row.name,
      country: row.country,
      registration_number: row.registration_number,
      status: row.status,
      subscription_tier: row.subscription_tier,
      mrr_cents: row.status === 'active' ? TIER_PRICES[row.subscription_tier] : 0,
      user_count: Number(row.user_count ?? 0),
      bra_count: Number(row.bra_count ?? 0),
      health_score: health.get(row.id).score,
      health_status: health.get(row.id).status,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      abilities: enterpriseAbilities(SUPER_ADMIN_CALLER),
    })),
    pagination: { page, page_size: pageSize, total, total_pages: totalPages, has_next: page < totalPages, has_prev: page > 1 },
  };
}

const ROUTES = { '/api/v1/me': me, '/api/v1/admin/enterprises': enterprises };

const server = createServer(async (request, response) => {
  const handler = request.method === 'GET' ? ROUTES[request.url] : undefined;
  if (handler === undefined) {
    response.writeHead(404).end();
    return;
  }
  try {
    const body = JSON.stringify(await handler());
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  } catch (error) {
    process.stderr.write(`${error.stack}\n`);
    response.writeHead(500).end();
  }
});
server.keepAliveTimeout = 72_000;
server.listen(Number(PORT), '127.0.0.1', () => process.stdout.write(`bare handler listening on ${PORT}\n`));
const stop = () => {
  server.close(() => pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
