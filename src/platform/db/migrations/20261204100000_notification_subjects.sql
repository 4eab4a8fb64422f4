-- Notifications, second part (issue 49): beside the review loop's notices, the reminders about mitigation
-- actions, control tests and risk acceptances. A notification now tells of one subject (a BRA, an action,
-- a sub-control or a risk acceptance; an action's or an acceptance's BRA is kept beside it), and a reminder
-- names its period, so that it is written once per recipient, kind, subject and period however many
-- instances run the round and however often it runs.
alter table notifications
  drop constraint notifications_kind_check,
  add constraint notifications_kind_check check (kind in (
    'bra_submitted', 'bra_returned', 'bra_approved', 'bra_cancelled', 'bra_commented',
    'action_assigned', 'action_due_soon', 'action_overdue', 'control_test_due', 'acceptance_expiring')),
  alter column bra_id drop not null,
  add column mitigation_action_id uuid,
  add column sub_control_id uuid,
  add column risk_acceptance_id uuid,
  -- A reminder's period (the due date or expiry it reminds of, or the day); null for a notice of a change.
  add column period text constraint notifications_period_check check (char_length(period) between 1 and 40),
  add constraint notifications_action_fkey foreign key (enterprise_id, mitigation_action_id) references mitigation_actions (enterprise_id, id),
  add constraint notifications_sub_control_fkey foreign key (enterprise_id, sub_control_id) references sub_controls (enterprise_id, id),
  add constraint notifications_acceptance_fkey foreign key (risk_acceptance_id, enterprise_id) references risk_acceptances (id, enterprise_id),
  add constraint notifications_subject_check check (num_nonnulls(bra_id, mitigation_action_id, sub_control_id, risk_acceptance_id) >= 1);

-- Once per recipient, kind, subject and period: a second round, a restart or a second instance adds nothing.
create unique index notifications_once_per_period_key on notifications
  (enterprise_id, user_id, kind, (coalesce(risk_acceptance_id, mitigation_action_id, sub_control_id, bra_id)), period)
  where period is not null;
