-- Safe clients for memberships: a member's role changes by PATCH with If-Match, so the membership carries a
-- row version, bumped by bump_row_version() at every UPDATE of the row (a role change, a deactivation, a
-- reactivation, a directory's change alike).
alter table enterprise_members add column row_version bigint not null default 1;

create trigger enterprise_members_row_version before update on enterprise_members for each row execute function bump_row_version();
