-- Safe clients for the organisation and the scenario catalogue: legal entities, business units and risk
-- scenarios carry a row version (If-Match on their change and archive), bumped by bump_row_version() at every
-- UPDATE of the row. Archiving a legal entity archives its units too, so their versions move with it.
alter table legal_entities add column row_version bigint not null default 1;
alter table business_units add column row_version bigint not null default 1;
alter table risk_scenarios add column row_version bigint not null default 1;

create trigger legal_entities_row_version before update on legal_entities for each row execute function bump_row_version();
create trigger business_units_row_version before update on business_units for each row execute function bump_row_version();
create trigger risk_scenarios_row_version before update on risk_scenarios for each row execute function bump_row_version();
