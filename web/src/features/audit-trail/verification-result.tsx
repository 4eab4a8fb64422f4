import { Alert } from '@mantine/core';
import type { DataOf } from '../../lib/api-types';

type Verification = DataOf<'/api/v1/audit/verify', 'get'>;

const FAILURES: Record<NonNullable<Verification['failure']>, string> = {
  hash_mismatch: "an entry's content was changed after it was written",
  broken_link: 'an entry no longer points at the one before it',
  sequence_gap: 'an entry is missing from the sequence',
  checkpoint_mismatch: 'the chain was rewritten since a signed checkpoint',
  checkpoint_signature: 'a checkpoint was altered (its signature does not verify)',
  missing_entries: 'entries a checkpoint vouched for are gone',
};

/** The evidence files hashed again against their uploads' audit entries, when the auditor asked for it. */
function EvidenceResult({ evidence }: { evidence: NonNullable<Verification['evidence']> }) {
  const intact = evidence.altered.length === 0;
  return (
    <Alert color={intact ? 'green' : 'red'} title={intact ? 'The evidence files are as uploaded' : 'Evidence files were changed after their upload'} data-testid="evidence-verification">
      {evidence.files_checked} evidence file{evidence.files_checked === 1 ? '' : 's'} hashed again.
      {!intact && ` Changed: ${evidence.altered.map((file) => file.name).join(', ')}.`}
    </Alert>
  );
}

/** A verification as an auditor reads it: intact or not, what was checked (entries and checkpoints), and why not. */
export function VerificationResult({ verification, against }: { verification: Verification; against: string }) {
  return (
    <>
      <Alert color={verification.valid ? 'green' : 'red'} title={verification.valid ? 'The audit trail is intact' : 'The audit trail does not verify'} data-testid="verification">
        {verification.entries_checked} entries checked against {against} ({verification.checkpoints_checked} signed {verification.checkpoints_checked === 1 ? 'checkpoint' : 'checkpoints'}).
        {!verification.valid && ` ${verification.failure ? `The cause: ${FAILURES[verification.failure]}.` : ''} First entry concerned: ${verification.first_invalid_id ?? 'unknown'}.`}
      </Alert>
      {verification.evidence && <EvidenceResult evidence={verification.evidence} />}
    </>
  );
}
