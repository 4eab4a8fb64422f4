-- Control links of BRAs (D6.6): which sub-controls of the library a BRA relies on. The effectiveness
-- summary and the heat map scoped by legal entity or business unit count the sub-controls linked to BRAs
-- of that entity or unit (D7.1). The BRA module owns the links; this is their minimal shape.
create table bra_controls (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  sub_control_id uuid not null,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  constraint bra_controls_sub_control_key unique (enterprise_id, bra_id, sub_control_id),
  constraint bra_controls_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id),
  constraint bra_controls_sub_control_fkey foreign key (enterprise_id, sub_control_id)
    references sub_controls (enterprise_id, id)
);
