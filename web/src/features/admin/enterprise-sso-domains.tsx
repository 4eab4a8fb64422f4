import { Badge, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { ErrorDisplay } from '../../components/error-display';
import { Empty, QueryState } from '../../components/page-states';
import { formatTime } from '../../lib/format';
import { useAttestSsoDomain, useEnterpriseSsoDomains, type EnterpriseSsoDomain } from './api';

/**
 * An enterprise's claimed e-mail domains for single sign-on, each verified or awaiting its DNS record; an
 * unverified one has a "Verify" that asks first: the super admin vouches for the domain in place of the record.
 */
export function SsoDomainRows({ enterpriseName, domains, onVerify, verifying }: {
  enterpriseName: string;
  domains: readonly EnterpriseSsoDomain[];
  onVerify: (domain: EnterpriseSsoDomain) => void;
  verifying: boolean;
}) {
  if (domains.length === 0) return <Empty title="No domain claimed" next={`${enterpriseName}'s client admin claims its e-mail domains on its Single sign-on screen.`} />;
  return (
    <Table aria-label={`E-mail domains of ${enterpriseName}`}>
      <Table.Thead><Table.Tr><Table.Th>Domain</Table.Th><Table.Th>State</Table.Th><Table.Th>Verification</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {domains.map((domain) => (
          <Table.Tr key={domain.id}>
            <Table.Td>{domain.domain}</Table.Td>
            <Table.Td>
              {domain.verified ? <Badge color="green" variant="light">Verified</Badge> : <Badge color="gray" variant="light">Awaiting its record</Badge>}
            </Table.Td>
            <Table.Td>
              {domain.verified ? <Text size="sm">{formatTime(domain.verified_at)}</Text> : (
                <ConfirmButton label="Verify" aria-label={`Verify ${domain.domain}`} title={`Verify ${domain.domain} for ${enterpriseName}?`} confirmLabel="Verify the domain"
                  color="blue" confirmColor="blue.9" loading={verifying} onConfirm={() => onVerify(domain)}>
                  Without its DNS record: you vouch that {domain.domain} is {enterpriseName}'s. Its people are then sent to {enterpriseName}'s identity provider, and only
                  they are accepted from it.
                </ConfirmButton>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The super admin's drawer of an enterprise's SSO domains (the Enterprises screen's "SSO domains"). */
export function SsoDomainsDrawer({ enterpriseId, name, onClose }: { enterpriseId: string | null; name: string; onClose: () => void }) {
  const domains = useEnterpriseSsoDomains(enterpriseId);
  const verify = useAttestSsoDomain(enterpriseId ?? '');
  return (
    <Drawer opened={enterpriseId !== null} onClose={onClose} position="right" size="lg" closeButtonProps={{ 'aria-label': 'Close' }} title={<Title order={2} size="h4">SSO domains of {name}</Title>}>
      <Stack>
        <Text size="sm" c="dimmed">
          A verified domain routes its people to the enterprise's identity provider. An enterprise that cannot publish the DNS record its claim asks for is verified here.
        </Text>
        <ErrorDisplay error={verify.error} title="The domain was not verified" />
        <QueryState query={domains}>
          {(list) => (
            <SsoDomainRows enterpriseName={name} domains={list} verifying={verify.isPending}
              onVerify={(domain) => verify.mutate(domain.id, { onSuccess: () => toastDone(`${domain.domain} is verified for ${name}.`) })} />
          )}
        </QueryState>
      </Stack>
    </Drawer>
  );
}
