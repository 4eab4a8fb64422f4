-- What the reminders of issue 49 read. A mitigation action may name the member it is assigned to (beside
-- the free-text owner, which stays), and a sub-control how often it is tested, from which the date of its
-- next test follows.

-- The member an action is assigned to: a member of the action's enterprise (the composite key), told when
-- it is given to them and reminded of its due date.
alter table mitigation_actions
  add column owner_user_id uuid,
  add constraint mitigation_actions_owner_user_fkey foreign key (enterprise_id, owner_user_id)
    references enterprise_members (enterprise_id, user_id);
-- The list filter owner_user_id, in list order.
create index mitigation_actions_owner_user_idx on mitigation_actions (enterprise_id, owner_user_id, created_at desc, id desc)
  where owner_user_id is not null;
-- The reminder round across enterprises: the open actions that someone is assigned to, by due date.
create index mitigation_actions_owner_due_idx on mitigation_actions (due_date, enterprise_id)
  where owner_user_id is not null and status <> 'completed' and not archived;

-- How often a sub-control is tested, and when its next test is due: its last testing date plus the
-- frequency (a month's end is kept within the month: 31 January plus a month is 28 February); a sub-control
-- never tested is due from the day it was created (UTC); none without a frequency. Computed by the
-- database, so that every read and the reminder round agree.
alter table sub_controls
  add column testing_frequency text
    constraint sub_controls_testing_frequency_check check (testing_frequency in ('monthly', 'quarterly', 'semi_annual', 'annual')),
  add column next_test_due date generated always as (
    (coalesce(
      testing_date + case testing_frequency
        when 'monthly' then interval '1 month'
        when 'quarterly' then interval '3 months'
        when 'semi_annual' then interval '6 months'
        when 'annual' then interval '12 months'
      end,
      case when testing_frequency is not null then (created_at at time zone 'UTC')::date end
    ))::date
  ) stored;
-- The reminder round across enterprises: the live sub-controls with a frequency, by next test.
create index sub_controls_next_test_due_idx on sub_controls (next_test_due, enterprise_id)
  where next_test_due is not null and not archived;
