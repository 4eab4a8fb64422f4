import type { StarterKeyControl } from './library-types.js';
import { SCENARIO as S } from './scenario-keys.js';

/**
 * The starter library's second half: continuity, data protection, financial reporting, fraud and
 * compliance. Data only.
 */
export const RESILIENCE_AND_CONDUCT: readonly StarterKeyControl[] = [
  // Continuity
  {
    theme: 'Continuity',
    name: 'Business impact analysis',
    description: 'Critical processes are identified with their maximum tolerable outage and the resources they need.',
    subControls: [
      ['Critical process list', 'Each business unit lists its critical processes with recovery time objectives.'],
      ['Yearly refresh', 'The analysis is reviewed each year and after major changes.'],
    ],
    mitigates: [S.coreOutage, S.fireFlood, S.providerFailure],
  },
  {
    theme: 'Continuity',
    name: 'Business continuity plans',
    description: 'Each critical process has a plan for working through the loss of a site, system, supplier or staff.',
    subControls: [
      ['Plan per critical process', 'Plans exist, name their owners and cover each loss scenario.'],
      ['Plan exercise', 'Each plan is exercised at least yearly and lessons recorded.'],
      ['Call tree', 'Contact lists are tested twice a year.'],
    ],
    mitigates: [S.fireFlood, S.vandalism, S.coreOutage],
  },
  {
    theme: 'Continuity',
    name: 'Disaster recovery of systems',
    description: 'Critical systems can be recovered at a second site within their recovery time objective, as shown by tests.',
    subControls: [
      ['Recovery site', 'Critical systems have a recovery environment in a second location.'],
      ['Recovery test', 'A full recovery is tested yearly and the time achieved recorded.'],
      ['Gaps remediated', 'Objectives missed in a test lead to tracked actions.'],
    ],
    mitigates: [S.coreOutage, S.fireFlood, S.ransomware],
  },
  {
    theme: 'Continuity',
    name: 'Backups',
    description: 'Data is backed up on a schedule, a copy is kept offline or immutable, and restores are tested.',
    subControls: [
      ['Backup schedule and success', 'Backups of critical data complete daily; failures are rerun the same day.'],
      ['Offline or immutable copy', 'At least one copy cannot be altered or deleted from the network.'],
      ['Restore test', 'A restore of critical data is tested each quarter.'],
    ],
    mitigates: [S.ransomware, S.coreOutage, S.fireFlood],
  },
  {
    theme: 'Continuity',
    name: 'Crisis management',
    description: 'A crisis team with clear authority is convened on defined triggers and communicates with staff, clients and regulators.',
    subControls: [
      ['Crisis team and triggers', 'Members, deputies and the triggers for convening are written down.'],
      ['Communication templates', 'Pre-approved messages exist for staff, clients and regulators.'],
    ],
    mitigates: [S.vandalism, S.fireFlood, S.ransomware],
  },
  {
    theme: 'Continuity',
    name: 'Premises protection',
    description: 'Sites have fire detection and suppression, flood protection for equipment rooms, and these are maintained.',
    subControls: [
      ['Fire detection and suppression', 'Systems are installed and serviced on schedule.'],
      ['Equipment room protection', 'Server rooms are above flood level or protected, with environmental alarms.'],
      ['Evacuation drill', 'Each site holds an evacuation drill at least yearly.'],
    ],
    mitigates: [S.fireFlood, S.vandalism, S.safety],
  },
  // Data protection
  {
    theme: 'Data protection',
    name: 'Data classification',
    description: 'Information is classified by sensitivity, and handling rules follow the class.',
    subControls: [
      ['Classification scheme', 'A scheme defines the classes and the handling rules for each.'],
      ['Labelling of client data', 'Systems and documents holding client data are labelled with their class.'],
    ],
    mitigates: [S.confidentiality, S.cyberTheft],
  },
  {
    theme: 'Data protection',
    name: 'Encryption of data',
    description: 'Confidential data is encrypted in transit and at rest, with keys managed apart from the data.',
    subControls: [
      ['Encryption in transit', 'External connections carrying confidential data use current TLS.'],
      ['Encryption at rest', 'Databases, laptops and backups holding confidential data are encrypted.'],
      ['Key management', 'Keys are stored separately from the data and rotated on schedule.'],
    ],
    mitigates: [S.cyberTheft, S.confidentiality],
  },
  {
    theme: 'Data protection',
    name: 'Data loss prevention',
    description: 'Outbound e-mail, uploads and removable media are monitored for confidential data leaving the organisation.',
    subControls: [
      ['Outbound content rules', 'Rules detect client data in outbound e-mail and uploads.'],
      ['Removable media control', 'Removable media are blocked unless an exception is approved.'],
      ['Alert review', 'Alerts are reviewed within two working days.'],
    ],
    mitigates: [S.confidentiality, S.cyberTheft],
  },
  {
    theme: 'Data protection',
    name: 'Personal data processing register',
    description: 'Processing of personal data is recorded with its purpose, legal basis and retention, and reviewed yearly.',
    subControls: [
      ['Processing register', 'Each processing activity is recorded with purpose, basis and retention.'],
      ['Impact assessments', 'High-risk processing has a data protection impact assessment before it starts.'],
    ],
    mitigates: [S.confidentiality],
  },
  {
    theme: 'Data protection',
    name: 'Data retention and disposal',
    description: 'Data is kept no longer than its retention period and disposed of securely, with evidence.',
    subControls: [
      ['Retention schedule', 'Retention periods are defined per record type.'],
      ['Secure disposal', 'Media and paper are destroyed by an approved method with a certificate.'],
    ],
    mitigates: [S.confidentiality],
  },
  {
    theme: 'Data protection',
    name: 'Personal data breach handling',
    description: 'Suspected breaches are assessed quickly and notified to the authority and the people affected when required.',
    subControls: [
      ['Breach assessment', 'Each suspected breach is assessed and logged within 24 hours.'],
      ['Notification within 72 hours', 'Notifiable breaches reach the authority within 72 hours.'],
      ['Breach log review', 'The breach log is reviewed quarterly for recurring causes.'],
    ],
    mitigates: [S.confidentiality, S.cyberTheft],
  },
  // Financial reporting
  {
    theme: 'Financial reporting',
    name: 'Period-end close',
    description: 'The close follows a checklist with owners and deadlines, and material journals are reviewed.',
    subControls: [
      ['Close checklist', 'Each close task has an owner and a deadline, and completion is evidenced.'],
      ['Journal review', 'Manual journals above a threshold are approved by someone other than the preparer.'],
      ['Account reconciliations', 'Balance sheet accounts are reconciled and reviewed each month.'],
    ],
    mitigates: [S.inputError, S.embezzlement],
  },
  {
    theme: 'Financial reporting',
    name: 'Regulatory reporting calendar',
    description: 'Every regulatory return has an owner, a deadline and a review step, tracked in one calendar.',
    subControls: [
      ['Return inventory', 'All returns are listed with their frequency, deadline and owner.'],
      ['Deadline tracking', 'Returns due in the next 30 days are reviewed weekly.'],
      ['Reviewer sign-off', 'A reviewer signs off each return before submission.'],
    ],
    mitigates: [S.reportingDeadline],
  },
  {
    theme: 'Financial reporting',
    name: 'Reporting data quality',
    description: 'Data feeding financial and regulatory reports is checked for completeness and accuracy before use.',
    subControls: [
      ['Source-to-report reconciliation', 'Report totals reconcile to the ledger or source systems.'],
      ['Validation rules', 'Automated checks flag missing or out-of-range values before submission.'],
    ],
    mitigates: [S.reportingDeadline, S.inputError],
  },
  {
    theme: 'Financial reporting',
    name: 'End-user computing control',
    description: 'Spreadsheets and tools used in reporting are inventoried, protected from unauthorised change and checked.',
    subControls: [
      ['Inventory of critical spreadsheets', 'Spreadsheets used in reporting are listed with their owners.'],
      ['Change protection', 'Formulas are locked and versions kept.'],
      ['Independent check', 'A second person checks the critical spreadsheets each quarter.'],
    ],
    mitigates: [S.inputError, S.reportingDeadline],
  },
  {
    theme: 'Financial reporting',
    name: 'Valuation independence',
    description: 'Positions and assets are valued or price-verified by a function independent of the people who trade or hold them.',
    subControls: [
      ['Independent price verification', 'Prices are checked monthly against independent sources.'],
      ['Valuation adjustments approval', 'Adjustments are approved by the finance function.'],
    ],
    mitigates: [S.unauthorisedTrading],
  },
  {
    theme: 'Financial reporting',
    name: 'Payment authorisation limits',
    description: 'Payments are authorised within delegated limits, and limits are kept current in the payment system.',
    subControls: [
      ['Delegated authority schedule', 'Limits per role are approved and published.'],
      ['System-enforced limits', 'The payment system refuses payments above the user’s limit.'],
      ['Limit review', 'Limits in the system are compared with the schedule twice a year.'],
    ],
    mitigates: [S.embezzlement, S.impersonation],
  },
  // Fraud
  {
    theme: 'Fraud',
    name: 'Fraud risk assessment',
    description: 'Fraud schemes that could affect each process are assessed yearly and the answers feed the BRAs.',
    subControls: [
      ['Scheme inventory', 'Plausible internal and external fraud schemes are listed per process.'],
      ['Yearly assessment', 'Each scheme is rated and mapped to the controls that address it.'],
    ],
    mitigates: [S.embezzlement, S.impersonation, S.forgery],
  },
  {
    theme: 'Fraud',
    name: 'Whistleblowing channel',
    description: 'Staff and outsiders can report suspected wrongdoing confidentially, and reports are investigated independently.',
    subControls: [
      ['Confidential channel', 'A channel outside line management is available and publicised.'],
      ['Independent investigation', 'Reports are investigated by people not involved in the matter.'],
      ['Protection from retaliation', 'Reporters are followed up to confirm no retaliation.'],
    ],
    mitigates: [S.embezzlement, S.creditCollusion, S.harassment],
  },
  {
    theme: 'Fraud',
    name: 'Transaction fraud monitoring',
    description: 'Payments and card transactions are screened by rules for patterns of fraud, and alerts are worked promptly.',
    subControls: [
      ['Detection rules', 'Rules cover the known patterns and are tuned each quarter.'],
      ['Alert handling time', 'Alerts are worked within the target time before funds leave.'],
      ['Confirmed fraud feedback', 'Confirmed cases update the rules.'],
    ],
    mitigates: [S.forgery, S.impersonation],
  },
  {
    theme: 'Fraud',
    name: 'Payment instruction verification',
    description: 'Payment instructions received by e-mail or phone are confirmed through a separate, known channel.',
    subControls: [
      ['Out-of-band confirmation', 'Instructions are confirmed by calling a number already on file.'],
      ['Urgency red flags', 'Staff are trained to escalate urgent or unusual requests from executives.'],
    ],
    mitigates: [S.impersonation],
  },
  {
    theme: 'Fraud',
    name: 'Mandatory leave and rotation',
    description: 'Staff in sensitive roles take a block of consecutive leave each year, during which others do their work.',
    subControls: [
      ['Two-week block leave', 'Staff in sensitive roles take ten consecutive working days off each year.'],
      ['Cover performs the role', 'A colleague performs the role and reports anomalies.'],
    ],
    mitigates: [S.unauthorisedTrading, S.embezzlement],
  },
  {
    theme: 'Fraud',
    name: 'Credit approval independence',
    description: 'Credit decisions above a limit are taken by a committee independent of the relationship manager, on verified documents.',
    subControls: [
      ['Independent credit committee', 'Credits above the limit are approved by the committee.'],
      ['Document verification', 'Financial statements and collateral documents are verified at source.'],
      ['Conflict of interest declaration', 'Approvers declare any link with the borrower.'],
    ],
    mitigates: [S.creditCollusion],
  },
  // Compliance
  {
    theme: 'Compliance',
    name: 'Customer due diligence',
    description: 'Clients are identified and verified before onboarding, with enhanced checks for higher-risk clients.',
    subControls: [
      ['Identity verification', 'Identity and beneficial owners are verified before the account opens.'],
      ['Risk rating of clients', 'Each client is rated and higher-risk clients get enhanced due diligence.'],
      ['Periodic refresh', 'Client files are refreshed on a schedule set by the risk rating.'],
    ],
    mitigates: [S.aml],
  },
  {
    theme: 'Compliance',
    name: 'Sanctions screening',
    description: 'Clients and payments are screened against current sanctions lists, and matches are resolved before processing.',
    subControls: [
      ['List updates', 'Sanctions lists are updated in the screening tool within one day of publication.'],
      ['Match resolution', 'Potential matches are resolved and documented before the payment is released.'],
    ],
    mitigates: [S.aml],
  },
  {
    theme: 'Compliance',
    name: 'Suspicious activity reporting',
    description: 'Unusual activity is detected, investigated and reported to the authorities on time.',
    subControls: [
      ['Monitoring scenarios', 'Transaction monitoring covers the typologies relevant to the business.'],
      ['Investigation records', 'Each alert closed has a documented rationale.'],
      ['Timely reporting', 'Suspicions are reported to the authority within the legal deadline.'],
    ],
    mitigates: [S.aml],
  },
  {
    theme: 'Compliance',
    name: 'Product approval and suitability',
    description: 'New products are approved with their target market, and advice is checked for suitability.',
    subControls: [
      ['Product approval committee', 'New products and major changes are approved with a defined target market.'],
      ['Suitability check', 'A sample of advised sales is checked each month for suitability.'],
      ['Complaint trend review', 'Complaints are analysed quarterly for signs of mis-selling.'],
    ],
    mitigates: [S.misSelling],
  },
  {
    theme: 'Compliance',
    name: 'Regulatory change management',
    description: 'New and changed regulations are tracked, assessed for impact and implemented by named owners.',
    subControls: [
      ['Horizon scanning', 'Regulatory publications are reviewed and logged monthly.'],
      ['Impact assessment and owner', 'Each relevant change has an impact assessment and an owner.'],
    ],
    mitigates: [S.reportingDeadline, S.misSelling],
  },
  {
    theme: 'Compliance',
    name: 'Conduct and training',
    description: 'Staff are trained on the code of conduct, anti-bribery, equal treatment and data protection, with completion tracked.',
    subControls: [
      ['Mandatory training completion', 'At least 95 % of staff complete mandatory training on time.'],
      ['Code of conduct attestation', 'Staff attest yearly to the code of conduct.'],
      ['Grievance handling', 'Complaints of discrimination or harassment are investigated within set times.'],
    ],
    mitigates: [S.harassment, S.confidentiality, S.misSelling],
  },
];
