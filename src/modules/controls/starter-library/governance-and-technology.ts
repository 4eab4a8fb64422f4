import type { StarterKeyControl } from './library-types.js';
import { SCENARIO as S } from './scenario-keys.js';

/** The starter library's first half: governance, access, change, operations and third parties. Data only. */
export const GOVERNANCE_AND_TECHNOLOGY: readonly StarterKeyControl[] = [
  // Governance
  {
    theme: 'Governance',
    name: 'Risk committee oversight',
    description: 'A standing committee reviews the risk profile, the BRAs above appetite and overdue actions every quarter, and records its decisions.',
    subControls: [
      ['Committee terms of reference', 'Membership, quorum and the decisions reserved to the committee are written down and reviewed yearly.'],
      ['Quarterly risk report review', 'Minutes show the committee discussed the risks above appetite and the overdue high-priority actions.'],
      ['Action follow-up log', 'Every action the committee sets has an owner and a due date, and is tracked to closure.'],
    ],
    mitigates: [],
  },
  {
    theme: 'Governance',
    name: 'Risk appetite framework',
    description: 'The board approves appetite thresholds per risk level, and they are recorded in the service and reviewed at least once a year.',
    subControls: [
      ['Board approval of appetite', 'The thresholds in force match the ones the board last approved, with the date of approval.'],
      ['Annual appetite review', 'A dated review confirms or changes each threshold, with the reasons kept in the appetite history.'],
    ],
    mitigates: [],
  },
  {
    theme: 'Governance',
    name: 'Policy management',
    description: 'Policies have an owner, a review date and an approval trail; expired policies are escalated.',
    subControls: [
      ['Policy register', 'Every policy in force is listed with its owner, version and next review date.'],
      ['Overdue review escalation', 'Policies past their review date are reported to the risk committee.'],
      ['Staff attestation', 'Staff confirm each year that they have read the policies that apply to them.'],
    ],
    mitigates: [S.misSelling, S.harassment],
  },
  {
    theme: 'Governance',
    name: 'Segregation of duties matrix',
    description: 'Incompatible duties (initiate and approve, record and reconcile) are identified per process and never held by one person.',
    subControls: [
      ['Conflicting duties defined', 'A matrix names the pairs of duties that one person may not hold.'],
      ['Periodic conflict check', 'Role assignments are compared with the matrix each quarter and conflicts resolved.'],
      ['Documented exceptions', 'Any accepted conflict has a compensating control and a named approver.'],
    ],
    mitigates: [S.embezzlement, S.unauthorisedTrading, S.creditCollusion],
  },
  {
    theme: 'Governance',
    name: 'Risk and control self-assessment',
    description: 'Each business unit assesses its risks and controls at least yearly in a BRA, which a client admin approves.',
    subControls: [
      ['Assessment calendar', 'Each unit has a BRA planned for the period, with an assessor assigned.'],
      ['Independent challenge', 'A reviewer outside the unit challenges the ratings before approval.'],
      ['Approval within the period', 'BRAs are approved before the end of the period they assess.'],
    ],
    mitigates: [],
  },
  {
    theme: 'Governance',
    name: 'Incident and loss event reporting',
    description: 'Operational incidents and losses above a threshold are reported, analysed for root cause and linked to the scenarios they realise.',
    subControls: [
      ['Reporting threshold and channel', 'Staff know the threshold and where to report; reports arrive within two working days.'],
      ['Root cause analysis', 'Each significant incident has a written root cause and corrective actions.'],
      ['Loss data reconciliation', 'Reported losses reconcile with the general ledger each quarter.'],
    ],
    mitigates: [S.inputError, S.coreOutage],
  },
  // Access
  {
    theme: 'Access',
    name: 'User access provisioning',
    description: 'Access to systems is granted only on an approved request that names the role, and matches the person’s job.',
    subControls: [
      ['Approved access request', 'Every new access has a request approved by the line manager and the system owner.'],
      ['Role-based profiles', 'Access is granted through predefined roles rather than individual rights.'],
      ['Provisioning evidence', 'The access granted matches the access approved, checked on a sample each quarter.'],
    ],
    mitigates: [S.cyberTheft, S.embezzlement, S.confidentiality],
  },
  {
    theme: 'Access',
    name: 'Timely removal of leavers’ access',
    description: 'Access of people who leave or change role is removed within one working day of the change.',
    subControls: [
      ['HR-driven removal', 'Leavers notified by HR are disabled in every system within one working day.'],
      ['Mover review', 'Access no longer needed after a move is removed within five working days.'],
      ['Dormant account sweep', 'Accounts unused for 90 days are disabled each month.'],
    ],
    mitigates: [S.cyberTheft, S.confidentiality, S.embezzlement],
  },
  {
    theme: 'Access',
    name: 'Periodic access recertification',
    description: 'System owners confirm, at least twice a year, that every user’s access is still needed.',
    subControls: [
      ['Recertification campaign', 'Each owner receives the list of users and rights and signs it off.'],
      ['Removal of revoked rights', 'Rights the owner did not confirm are removed within ten working days.'],
    ],
    mitigates: [S.confidentiality, S.unauthorisedTrading],
  },
  {
    theme: 'Access',
    name: 'Privileged access management',
    description: 'Administrator rights are few, named, used through a controlled account and their use is logged and reviewed.',
    subControls: [
      ['Privileged account inventory', 'Every administrator account is listed with a named owner.'],
      ['Session logging', 'Privileged sessions are recorded and kept for at least a year.'],
      ['Monthly log review', 'A person without those rights reviews privileged activity every month.'],
    ],
    mitigates: [S.cyberTheft, S.ransomware],
  },
  {
    theme: 'Access',
    name: 'Strong authentication',
    description: 'Remote access, e-mail and all administrator access require multi-factor authentication.',
    subControls: [
      ['MFA coverage', 'Every remote, e-mail and administrator login requires a second factor.'],
      ['Password standard', 'Passwords meet the length and reuse rules, enforced by the systems themselves.'],
    ],
    mitigates: [S.cyberTheft, S.ransomware, S.impersonation],
  },
  {
    theme: 'Access',
    name: 'Physical access to premises',
    description: 'Entry to offices and equipment rooms is by badge, visitors are escorted, and access rights are reviewed.',
    subControls: [
      ['Badge access control', 'Doors to offices and server rooms open only with a valid badge.'],
      ['Visitor log and escort', 'Visitors sign in, wear a visitor badge and are escorted.'],
      ['Quarterly badge review', 'Badges of leavers and unused badges are cancelled each quarter.'],
    ],
    mitigates: [S.vandalism, S.safety],
  },
  // Change
  {
    theme: 'Change',
    name: 'Change approval',
    description: 'Changes to production systems are requested, assessed for impact and approved before they are made.',
    subControls: [
      ['Change request record', 'Every production change has a record with its purpose, impact and rollback plan.'],
      ['Approval before implementation', 'An approver other than the implementer signs the change off first.'],
      ['Emergency change review', 'Emergency changes are reviewed and approved within two working days after the fact.'],
    ],
    mitigates: [S.coreOutage, S.inputError],
  },
  {
    theme: 'Change',
    name: 'Testing before release',
    description: 'Changes are tested in an environment separate from production, and users accept them before release.',
    subControls: [
      ['Separate test environment', 'Tests run outside production, on data that exposes no client.'],
      ['User acceptance sign-off', 'The business owner signs off the test results before release.'],
      ['Regression tests', 'Automated checks of the main functions pass before each release.'],
    ],
    mitigates: [S.coreOutage, S.inputError],
  },
  {
    theme: 'Change',
    name: 'Separation of development and production',
    description: 'Developers cannot change production directly; releases are deployed by a controlled pipeline or a separate team.',
    subControls: [
      ['No developer write access', 'Developer accounts have no write access to production systems or data.'],
      ['Controlled deployment', 'Releases reach production only through the approved pipeline, which logs each one.'],
    ],
    mitigates: [S.embezzlement, S.coreOutage],
  },
  {
    theme: 'Change',
    name: 'Configuration baseline',
    description: 'Systems are built to a hardened baseline, and drifts from it are detected and corrected.',
    subControls: [
      ['Documented baseline', 'Each platform has a hardened configuration standard.'],
      ['Drift detection', 'Deviations from the baseline are detected automatically and ticketed.'],
      ['Remediation within target', 'Deviations are corrected or accepted within 30 days.'],
    ],
    mitigates: [S.cyberTheft, S.ransomware],
  },
  {
    theme: 'Change',
    name: 'Patch management',
    description: 'Security patches are applied within target times set by severity, with exceptions approved.',
    subControls: [
      ['Vulnerability scanning', 'Systems are scanned at least monthly and findings rated.'],
      ['Critical patches within 14 days', 'Critical and high patches are applied within 14 days of release.'],
      ['Exception approval', 'A patch not applied in time has an approved exception and a mitigation.'],
    ],
    mitigates: [S.ransomware, S.cyberTheft],
  },
  {
    theme: 'Change',
    name: 'Data migration control',
    description: 'Data moved between systems is reconciled in counts and totals, and the migration is signed off.',
    subControls: [
      ['Migration plan', 'Each migration has a plan with its checks and a rollback.'],
      ['Count and total reconciliation', 'Record counts and control totals agree between source and target.'],
    ],
    mitigates: [S.inputError],
  },
  // Operations
  {
    theme: 'Operations',
    name: 'Four-eyes check on manual entries',
    description: 'Manual transactions and master-data changes above a threshold are checked by a second person before release.',
    subControls: [
      ['Threshold defined', 'The amount above which a second check applies is written down per process.'],
      ['Second-person release', 'The system prevents the same person from entering and releasing.'],
      ['Sample review', 'A sample of released items is re-checked each month.'],
    ],
    mitigates: [S.inputError, S.embezzlement],
  },
  {
    theme: 'Operations',
    name: 'Daily reconciliations',
    description: 'Accounts, positions and cash are reconciled daily, and breaks are investigated and cleared within set times.',
    subControls: [
      ['Daily reconciliation', 'Each account in scope is reconciled every working day.'],
      ['Break ageing', 'Breaks older than five days are escalated to management.'],
      ['Independent preparer', 'The reconciler does not post to the accounts reconciled.'],
    ],
    mitigates: [S.inputError, S.embezzlement, S.unauthorisedTrading],
  },
  {
    theme: 'Operations',
    name: 'Capacity and performance monitoring',
    description: 'Critical systems are monitored for availability and capacity, with alerts to an on-call team.',
    subControls: [
      ['Availability monitoring', 'Critical services are probed continuously and outages alert on-call staff.'],
      ['Capacity review', 'Capacity trends are reviewed monthly against forecast volumes.'],
    ],
    mitigates: [S.coreOutage],
  },
  {
    theme: 'Operations',
    name: 'Job scheduling and batch control',
    description: 'Batch jobs run on a controlled schedule; failures are detected, rerun and their outputs checked.',
    subControls: [
      ['Controlled schedule', 'Changes to the batch schedule follow change approval.'],
      ['Failure alerting', 'A failed or late job alerts operations staff at once.'],
      ['Output completeness check', 'Record counts of key batch outputs are checked each day.'],
    ],
    mitigates: [S.coreOutage, S.inputError],
  },
  {
    theme: 'Operations',
    name: 'Security monitoring',
    description: 'Security events are collected centrally and reviewed, with defined response times for alerts.',
    subControls: [
      ['Central log collection', 'Logs of critical systems reach a central store that administrators cannot alter.'],
      ['Alert triage', 'Security alerts are triaged within the target time for their severity.'],
      ['Incident response plan', 'A tested plan says who does what in a cyber incident.'],
    ],
    mitigates: [S.cyberTheft, S.ransomware],
  },
  {
    theme: 'Operations',
    name: 'Workplace health and safety',
    description: 'Health and safety risks are assessed per site, staff are trained and incidents are recorded and acted on.',
    subControls: [
      ['Site risk assessment', 'Each site has a current health and safety risk assessment.'],
      ['Safety training', 'Staff complete safety training on joining and every two years.'],
      ['Incident log', 'Accidents and near misses are logged and reviewed monthly.'],
    ],
    mitigates: [S.safety],
  },
  // Third parties
  {
    theme: 'Third parties',
    name: 'Supplier due diligence',
    description: 'Before contracting, suppliers are assessed for financial strength, security and resilience in proportion to their criticality.',
    subControls: [
      ['Criticality rating', 'Each new supplier is rated for how critical the service is.'],
      ['Proportionate assessment', 'Critical suppliers complete the security and resilience questionnaire before signing.'],
      ['Approval of the assessment', 'Procurement and the business owner approve the result.'],
    ],
    mitigates: [S.providerFailure, S.vendorContract],
  },
  {
    theme: 'Third parties',
    name: 'Contract standards',
    description: 'Contracts with suppliers include service levels, audit rights, data protection and exit terms.',
    subControls: [
      ['Mandatory clauses', 'Contracts contain the required clauses, checked by legal before signature.'],
      ['Contract register', 'Every contract is registered with its owner, value and renewal date.'],
    ],
    mitigates: [S.vendorContract, S.providerFailure],
  },
  {
    theme: 'Third parties',
    name: 'Supplier performance review',
    description: 'Service levels of critical suppliers are measured and reviewed with them at least each quarter.',
    subControls: [
      ['Service level reporting', 'Critical suppliers report against their service levels monthly.'],
      ['Quarterly review meeting', 'Breaches and improvement actions are minuted each quarter.'],
      ['Escalation of repeated breaches', 'Repeated breaches are escalated to the risk committee.'],
    ],
    mitigates: [S.providerFailure, S.vendorContract],
  },
  {
    theme: 'Third parties',
    name: 'Supplier exit plans',
    description: 'Critical services have an exit plan that says how the service would be moved or brought back in.',
    subControls: [
      ['Exit plan per critical service', 'Each critical outsourced service has a written exit plan.'],
      ['Exit plan test', 'The plan is walked through at least every two years.'],
    ],
    mitigates: [S.providerFailure],
  },
  {
    theme: 'Third parties',
    name: 'Fourth-party visibility',
    description: 'Critical suppliers disclose the subcontractors they rely on, and material changes are notified.',
    subControls: [
      ['Subcontractor list', 'Critical suppliers provide their list of material subcontractors yearly.'],
      ['Change notification', 'Contracts require notice before a material subcontractor changes.'],
    ],
    mitigates: [S.providerFailure, S.confidentiality],
  },
  {
    theme: 'Third parties',
    name: 'Supplier payment verification',
    description: 'New suppliers and changes to supplier bank details are verified independently before any payment.',
    subControls: [
      ['Call-back on bank detail changes', 'Changed bank details are confirmed by calling a known number, not one in the request.'],
      ['Master-data change approval', 'A second person approves new suppliers and bank detail changes.'],
      ['First payment review', 'The first payment to new details is reviewed before release.'],
    ],
    mitigates: [S.impersonation, S.embezzlement],
  },
];
