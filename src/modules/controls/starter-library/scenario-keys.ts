/**
 * Short keys for the starter risk-scenario catalogue's names (risk-scenarios/starter-catalogue.ts), so that
 * the control library below stays readable. A key control is linked to the scenarios it mitigates by name,
 * in the enterprise's own catalogue, when it is loaded.
 */
export const SCENARIO = {
  unauthorisedTrading: 'Unauthorised trading',
  embezzlement: 'Employee embezzlement',
  creditCollusion: 'Insider collusion on credit approval',
  impersonation: 'Payment fraud by impersonation',
  cyberTheft: 'Cyber intrusion and data theft',
  forgery: 'Cheque and card forgery',
  harassment: 'Discrimination or harassment claim',
  safety: 'Workplace health and safety incident',
  misSelling: 'Mis-selling of financial products',
  aml: 'Breach of anti-money-laundering obligations',
  confidentiality: 'Improper use of confidential client information',
  fireFlood: 'Fire or flood at a main site',
  vandalism: 'Vandalism or terrorist attack on premises',
  coreOutage: 'Core banking system outage',
  providerFailure: 'Failure of a critical third-party provider',
  ransomware: 'Ransomware attack',
  inputError: 'Transaction input error',
  reportingDeadline: 'Missed regulatory reporting deadline',
  vendorContract: 'Vendor contract mismanagement',
} as const;

export type ScenarioName = (typeof SCENARIO)[keyof typeof SCENARIO];
