// The daily digest of notifications (issue 49) for one enterprise of 2,000 people and 50,000 mitigation actions
// (the action count of the medium scale's larger tenants), each action with a reminder waiting for its owner's
// digest: how many statements the digest takes, how long, and the process's peak memory; then what rendering
// the 2,000 digests costs when the outbox sends them (a mailer that discards, so SMTP is not measured).
//
//   node --import tsx bench/notification-digest.mjs [--database-url URL] [--existing] [--users 2000] [--actions 50000]
//
// Without --existing the database (default postgres://postgres@127.0.0.1:5432/bench_notification_digest) is
// dropped, created and migrated; with it, the enterprise is added to what is there (bench_medium after
// `npm run bench:data -- --scale medium`, whose other tenants then sit beside it). Statements are counted by
// Kysely's query log on the connection the round runs on. Times its own calls in its own process, as the
// experiments that time queries do: nothing of bench/support.mjs but the options.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { options } from './support.mjs';
import { freshServerDatabase, migrated } from './data.mjs';

const option = options();
const url = option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_notification_digest');
const USERS = Number(option('users', '2000'));
const ACTIONS = Number(option('actions', '50000'));
const log = (line) => console.log(line);

if (option('existing', null) === null) {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  await freshServerDatabase(server.toString(), name);
  const { close } = await migrated({ kind: 'postgres', url });
  await close();
}

const { insertNotifications } = await import('../src/modules/notifications/notifications.repository.ts');
const { runDailyDigest } = await import('../src/modules/notifications/digest.ts');
const { notificationMailTemplates } = await import('../src/modules/notifications/notification-mail.ts');
const { createMailDelivery, dispatchByTemplate } = await import('../src/platform/mail/delivery.ts');

let statements = 0;
const pool = new pg.Pool({ connectionString: url, max: 4 });
const db = new Kysely({ dialect: new PostgresDialect({ pool }), log: () => void (statements += 1) });
const counted = async (what, work) => {
  statements = 0;
  const started = performance.now();
  const result = await work();
  log(`${what}: ${statements} statements, ${(performance.now() - started).toFixed(0)} ms`);
  return result;
};

// The enterprise: its people (active members with accounts) and its actions, in SQL.
const enterpriseId = (await sql`insert into enterprises (name, country) values (${`Digest bench ${Date.now()}`}, 'GB') returning id`.execute(db)).rows[0].id;
await sql`insert into users (email, full_name)
  select 'digest-' || i || '-' || ${enterpriseId}::text || '@bench.test', 'Person ' || i from generate_series(1, ${USERS}) i`.execute(db);
await sql`insert into enterprise_members (enterprise_id, user_id, role)
  select ${enterpriseId}, id, 'assessor' from users where email like ${`digest-%-${enterpriseId}@bench.test`}`.execute(db);
await sql`insert into mitigation_actions (enterprise_id, action, owner, priority, action_type, due_date)
  select ${enterpriseId}, 'Action ' || i, 'Person ' || (i % ${USERS} + 1), 'medium', 'Process', current_date + (i % 60 - 30)
  from generate_series(1, ${ACTIONS}) i`.execute(db);
// Fresh rows: the planner is told of them, as autovacuum would be by the time a day's round runs.
await sql`analyze`.execute(db);

// One reminder per action to its owner, through the one notification statement (as the daily rounds write them).
const written = await counted(`${ACTIONS} reminders written`, () =>
  insertNotifications(db, sql`
    select m.enterprise_id, m.user_id, case when a.due_date < current_date then 'action_overdue' else 'action_due_soon' end,
           null::uuid, a.id, null::uuid, null::uuid, a.due_date::text, a.action || case when a.due_date < current_date then ' is overdue' else ' is due soon' end, null, null::uuid
      from mitigation_actions a
      join users u on u.full_name = a.owner and u.email like ${`digest-%-${enterpriseId}@bench.test`}
      join enterprise_members m on m.user_id = u.id and m.enterprise_id = a.enterprise_id and m.active
     where a.enterprise_id = ${enterpriseId}`),
);

await sql`analyze notifications`.execute(db);
const rssBefore = process.memoryUsage().rss;
const queued = await counted('daily digest (claim, mark and queue, in one transaction)', () => runDailyDigest(db, new Date(), 0));
log(`  ${written} reminders → ${queued} digests (one per person); RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
const again = await counted('the same day again (another instance, a restart)', () => runDailyDigest(db, new Date(), 0));
log(`  → ${again === null ? 'nothing: the day is claimed' : `${again} digests`}`);

// Sending: each digest rendered from its notifications as they are then, to a mailer that discards.
const config = { publicUrl: 'https://risk.example.test', mail: { locale: 'en-GB', timeZone: 'UTC' } };
const mailer = { destination: 'nowhere', send: async () => undefined, close: () => undefined };
const delivery = createMailDelivery({
  db,
  mailer,
  prepare: dispatchByTemplate(notificationMailTemplates(db, config)),
  log: { warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) },
  domain: 'risk.example.test',
});
const sent = await counted('sending the digests (render and mark, per mail)', () => delivery.deliverDue());
log(`  ${JSON.stringify(sent)}`);
log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
await db.destroy();
