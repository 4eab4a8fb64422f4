/**
 * The starter risk-scenario catalogue every new enterprise receives: two or more scenarios for each of
 * the seven Basel II operational-risk event types (level 1). `category` is the event-type name exactly,
 * so the catalogue can be filtered by Basel category. Data only: no I/O.
 */
export const BASEL_EVENT_TYPES = [
  'Internal fraud',
  'External fraud',
  'Employment practices and workplace safety',
  'Clients, products and business practices',
  'Damage to physical assets',
  'Business disruption and system failures',
  'Execution, delivery and process management',
] as const;

export type BaselEventType = (typeof BASEL_EVENT_TYPES)[number];

export interface StarterScenario {
  name: string;
  category: BaselEventType;
  description: string;
}

export const STARTER_CATALOGUE: readonly StarterScenario[] = [
  {
    name: 'Unauthorised trading',
    category: 'Internal fraud',
    description: 'An employee takes positions beyond approved limits or hides losses by mis-marking them.',
  },
  {
    name: 'Employee embezzlement',
    category: 'Internal fraud',
    description: 'An employee misappropriates client or company funds through falsified payments or records.',
  },
  {
    name: 'Insider collusion on credit approval',
    category: 'Internal fraud',
    description: 'Staff knowingly approve credit on falsified documents in exchange for a personal benefit.',
  },
  {
    name: 'Payment fraud by impersonation',
    category: 'External fraud',
    description: 'A third party impersonates a supplier or executive to redirect a payment to a fraudulent account.',
  },
  {
    name: 'Cyber intrusion and data theft',
    category: 'External fraud',
    description: 'An external attacker breaches systems to steal customer data or funds.',
  },
  {
    name: 'Cheque and card forgery',
    category: 'External fraud',
    description: 'Counterfeit cheques or cloned cards are used to withdraw funds from customer accounts.',
  },
  {
    name: 'Discrimination or harassment claim',
    category: 'Employment practices and workplace safety',
    description: 'An employee brings a claim for discrimination, harassment or unfair dismissal.',
  },
  {
    name: 'Workplace health and safety incident',
    category: 'Employment practices and workplace safety',
    description: 'An employee or visitor is injured on premises because of inadequate safety measures.',
  },
  {
    name: 'Mis-selling of financial products',
    category: 'Clients, products and business practices',
    description: 'Products are sold to customers for whom they are unsuitable, leading to redress and fines.',
  },
  {
    name: 'Breach of anti-money-laundering obligations',
    category: 'Clients, products and business practices',
    description: 'Weak customer due diligence lets illicit funds pass through accounts, inviting regulatory sanctions.',
  },
  {
    name: 'Improper use of confidential client information',
    category: 'Clients, products and business practices',
    description: 'Client data is disclosed or used in breach of privacy or fiduciary obligations.',
  },
  {
    name: 'Fire or flood at a main site',
    category: 'Damage to physical assets',
    description: 'A fire, flood or storm damages offices or equipment and interrupts their use.',
  },
  {
    name: 'Vandalism or terrorist attack on premises',
    category: 'Damage to physical assets',
    description: 'Deliberate damage to buildings, branches or cash machines causes losses and closures.',
  },
  {
    name: 'Core banking system outage',
    category: 'Business disruption and system failures',
    description: 'A hardware or software failure makes core systems unavailable to customers and staff.',
  },
  {
    name: 'Failure of a critical third-party provider',
    category: 'Business disruption and system failures',
    description: 'A cloud, telecom or outsourcing provider fails and a critical service cannot be delivered.',
  },
  {
    name: 'Ransomware attack',
    category: 'Business disruption and system failures',
    description: 'Malware encrypts systems and data, halting operations until they are restored.',
  },
  {
    name: 'Transaction input error',
    category: 'Execution, delivery and process management',
    description: 'A wrong amount, account or date is keyed in and a transaction is executed incorrectly.',
  },
  {
    name: 'Missed regulatory reporting deadline',
    category: 'Execution, delivery and process management',
    description: 'A mandatory report is filed late or with errors, leading to penalties.',
  },
  {
    name: 'Vendor contract mismanagement',
    category: 'Execution, delivery and process management',
    description: 'A supplier is not monitored against its contract and delivers a deficient service.',
  },
];
