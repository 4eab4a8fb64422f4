/**
 * The demo enterprise, as data: a mid-sized financial group with three legal entities and a small risk
 * team. Names and e-mails are fictional; the e-mail domain is reserved for examples (RFC 2606).
 * Passwords are fixed so that the printed credentials stay valid on a second run.
 */
export const DEMO_ENTERPRISE = {
  name: 'Harbourview Financial Group (demo)',
  country: 'GB',
  registration_number: 'SC-DEMO-004711',
  subscription_tier: 'professional',
} as const;

export interface DemoLegalEntity {
  name: string;
  description: string;
  businessUnits: readonly string[];
}

export const DEMO_LEGAL_ENTITIES: readonly DemoLegalEntity[] = [
  {
    name: 'Harbourview Bank plc',
    description: 'Deposit-taking bank: retail and commercial customers in the UK.',
    businessUnits: ['Retail Banking', 'Commercial Lending', 'Treasury'],
  },
  {
    name: 'Harbourview Insurance Ltd',
    description: 'General insurance underwriting and claims handling.',
    businessUnits: ['General Insurance', 'Claims Operations'],
  },
  {
    name: 'Harbourview Asset Management Ltd',
    description: 'Discretionary fund management for institutional clients.',
    businessUnits: ['Investment Operations'],
  },
];

export type DemoRole = 'super_admin' | 'admin' | 'assessor' | 'reviewer';

export interface DemoPerson {
  /** How the steps refer to the person. */
  key: string;
  role: DemoRole;
  email: string;
  fullName: string;
  password: string;
  /** Legal entity name, and optionally one of its business units (else the whole entity). */
  assignments: ReadonlyArray<{ legalEntity: string; businessUnit?: string }>;
}

export const DEMO_SUPER_ADMIN: DemoPerson = {
  key: 'super_admin',
  role: 'super_admin',
  email: 'platform.admin@harbourview-demo.example',
  // The platform's bootstrap (the one way to create a super admin) names the account so.
  fullName: 'Platform Administrator',
  password: 'Demo-SuperAdmin-2026',
  assignments: [],
};

/** The client admin is added by the super admin; the others by the client admin, as D5 has it. */
export const DEMO_MEMBERS: readonly DemoPerson[] = [
  {
    key: 'client_admin',
    role: 'admin',
    email: 'olivia.bennett@harbourview-demo.example',
    fullName: 'Olivia Bennett',
    password: 'Demo-ClientAdmin-2026',
    assignments: [],
  },
  {
    key: 'assessor_bank',
    role: 'assessor',
    email: 'marcus.reid@harbourview-demo.example',
    fullName: 'Marcus Reid',
    password: 'Demo-Assessor-2026',
    assignments: [{ legalEntity: 'Harbourview Bank plc' }],
  },
  {
    key: 'assessor_claims',
    role: 'assessor',
    email: 'priya.natarajan@harbourview-demo.example',
    fullName: 'Priya Natarajan',
    password: 'Demo-Assessor-2026',
    assignments: [
      { legalEntity: 'Harbourview Insurance Ltd', businessUnit: 'Claims Operations' },
      { legalEntity: 'Harbourview Asset Management Ltd' },
    ],
  },
  {
    key: 'reviewer',
    role: 'reviewer',
    email: 'hannah.clarke@harbourview-demo.example',
    fullName: 'Hannah Clarke',
    password: 'Demo-Reviewer-2026',
    assignments: [{ legalEntity: 'Harbourview Bank plc' }, { legalEntity: 'Harbourview Insurance Ltd' }],
  },
];

/** "Legal entity" or "Legal entity / Business unit", as the report shows assignments. */
export function assignmentLabels(person: DemoPerson): string[] {
  return person.assignments.map((a) => (a.businessUnit === undefined ? a.legalEntity : `${a.legalEntity} / ${a.businessUnit}`));
}

/** Added by the client admin to the starter catalogue every enterprise receives (D6.3). */
export const DEMO_EXTRA_SCENARIOS: ReadonlyArray<{ name: string; category: string; description: string }> = [
  {
    name: 'Inflated repair invoices in motor claims',
    category: 'External fraud',
    description: 'Garages and claimants collude to overstate repair costs, raising the claims paid.',
  },
  {
    name: 'Credit scoring model error',
    category: 'Execution, delivery and process management',
    description: 'A faulty change to the retail credit scoring model approves loans outside the risk appetite.',
  },
  {
    name: 'Unsuitable fund recommendations',
    category: 'Clients, products and business practices',
    description: 'Institutional clients are placed in funds that do not match their mandate or risk profile.',
  },
];

/**
 * Invited by the client admin and left without a password: the demo's one pending invitation, whose mail
 * is delivered like any other (under DATA_DIR/mail without SMTP_URL), to show onboarding by e-mail.
 */
export const DEMO_INVITEE = {
  email: 'noah.fischer@harbourview-demo.example',
  fullName: 'Noah Fischer',
  role: 'reviewer',
  legalEntity: 'Harbourview Insurance Ltd',
} as const;
