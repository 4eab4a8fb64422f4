import type { TestOfDesign, TestOfEffectiveness } from '../platform/db/tables/controls.js';

/**
 * The demo's control library, as data: key controls with sub-controls that are fully tested, partly
 * tested (only the design assessed so far) or not yet tested, so that the effectiveness summary and the
 * heat map show a realistic spread. `tester` is the DemoPerson key of the assessor who records results.
 */
export interface DemoSubControl {
  name: string;
  description: string;
  results?: {
    tester: string;
    tod?: TestOfDesign;
    toe?: TestOfEffectiveness;
    testing_date: string;
    evidence_notes: string;
    tod_justification?: string;
    toe_justification?: string;
  };
}

export interface DemoKeyControl {
  name: string;
  description: string;
  subControls: readonly DemoSubControl[];
}

const BANK = 'assessor_bank';
const CLAIMS = 'assessor_claims';

export const DEMO_CONTROL_LIBRARY: readonly DemoKeyControl[] = [
  {
    name: 'Payment authorisation',
    description: 'Outgoing payments are authorised, verified and reconciled before and after release.',
    subControls: [
      {
        name: 'Dual approval of payments above £10,000',
        description: 'A second authoriser approves every payment over the threshold in the payment system.',
        results: { tester: BANK, tod: 'A', toe: '1', testing_date: '2026-09-15', evidence_notes: 'Sample of 40 payments from Q3: all carried two approvals.', tod_justification: 'System-enforced; no override role exists.', toe_justification: 'No exceptions in the sample.' },
      },
      {
        name: 'Daily reconciliation of payment files',
        description: 'Operations reconcile the released payment file against the ledger each day.',
        results: { tester: BANK, tod: 'B', toe: '3', testing_date: '2026-09-18', evidence_notes: '20 days sampled; 3 reconciliations signed off a day late.', toe_justification: 'Late sign-offs, although breaks were cleared.' },
      },
      {
        name: 'Call-back on changed supplier bank details',
        description: 'A change of supplier bank details is confirmed by telephone to a known contact.',
        results: { tester: BANK, tod: 'C', toe: '4', testing_date: '2026-10-02', evidence_notes: '4 of 15 changes had no call-back record.', tod_justification: 'Relies on a manual checklist.', toe_justification: 'Evidence missing for a quarter of the sample.' },
      },
    ],
  },
  {
    name: 'Access management',
    description: 'Access to systems is granted on need, reviewed regularly and removed promptly.',
    subControls: [
      {
        name: 'Quarterly user access review',
        description: 'System owners recertify every user and role each quarter.',
        results: { tester: BANK, tod: 'B', toe: '2', testing_date: '2026-08-29', evidence_notes: 'Q2 recertification complete for all 12 in-scope systems.' },
      },
      {
        name: 'Privileged access monitoring',
        description: 'Security operations review administrator sessions weekly.',
        results: { tester: BANK, tod: 'D', toe: '3', testing_date: '2026-09-05', evidence_notes: 'Reviews happen but are not documented for two systems.', tod_justification: 'Two systems are outside the session-logging tool.' },
      },
      {
        name: 'Leaver accounts removed within 24 hours',
        description: 'HR leaver notifications trigger account removal by the next working day.',
        results: { tester: BANK, tod: 'C', testing_date: '2026-10-12', evidence_notes: 'Design walkthrough done; operating test scheduled for Q4.', tod_justification: 'Depends on timely HR notifications.' },
      },
    ],
  },
  {
    name: 'Claims handling',
    description: 'Claims are validated, screened for fraud and paid at the right amount.',
    subControls: [
      {
        name: 'Four-eyes review of claims above £25,000',
        description: 'A senior handler reviews and approves every large claim before payment.',
        results: { tester: CLAIMS, tod: 'B', toe: '1', testing_date: '2026-09-22', evidence_notes: 'All 18 large claims of the quarter carried a senior approval.' },
      },
      {
        name: 'Fraud indicator screening',
        description: 'New claims are screened against fraud indicators and referred when flagged.',
        results: { tester: CLAIMS, tod: 'D', toe: '5', testing_date: '2026-10-06', evidence_notes: 'Screening rules not updated since 2023; flagged claims were paid without referral.', toe_justification: 'Referrals not made in 5 of 8 flagged claims.' },
      },
      {
        name: 'Repair invoice benchmarking',
        description: 'Motor repair invoices are compared with benchmark labour rates and parts prices.',
      },
    ],
  },
  {
    name: 'Business continuity',
    description: 'Critical services can be restored within their recovery objectives.',
    subControls: [
      {
        name: 'Annual disaster recovery test of core banking',
        description: 'Core banking fails over to the secondary site once a year.',
        results: { tester: BANK, tod: 'A', toe: '2', testing_date: '2026-06-20', evidence_notes: 'Fail-over completed in 3 h 10 min against a 4 h objective.' },
      },
      {
        name: 'Backup restoration test',
        description: 'A sample of backups is restored each month to prove they are usable.',
        results: { tester: CLAIMS, toe: '4', testing_date: '2026-10-09', evidence_notes: 'Two monthly tests skipped; design review pending.', toe_justification: 'Tests not run consistently.' },
      },
      {
        name: 'Third-party exit plans',
        description: 'Each critical outsourcing has a documented and tested exit plan.',
      },
    ],
  },
  {
    name: 'Regulatory reporting',
    description: 'Regulatory returns are complete, accurate and filed on time.',
    subControls: [
      {
        name: 'Maker-checker on regulatory returns',
        description: 'A second preparer checks each return against source data before submission.',
        results: { tester: BANK, tod: 'A', toe: '3', testing_date: '2026-07-31', evidence_notes: 'Checks evidenced, but two minor errors passed review.' },
      },
      {
        name: 'Reporting calendar with escalation',
        description: 'Deadlines are tracked centrally and escalated two weeks ahead.',
      },
    ],
  },
];
