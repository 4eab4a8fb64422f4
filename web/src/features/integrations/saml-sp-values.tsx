import { Button, Code, CopyButton, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { QueryState } from '../../components/page-states';
import { useSamlSpMetadata, type SsoConnection } from './api';

/** This service's SP values before a connection exists: the same origin the IdP will reach. */
const ORIGIN_SP = {
  sp_entity_id: `${window.location.origin}/auth/v1/sso/saml/metadata`,
  acs_url: `${window.location.origin}/auth/v1/sso/saml/acs`,
  metadata_url: `${window.location.origin}/auth/v1/sso/saml/metadata`,
};

function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Td><Text size="sm">{label}</Text></Table.Td>
      <Table.Td><Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>{value}</Text></Table.Td>
      <Table.Td>
        <CopyButton value={value}>{({ copied, copy }) => <Button size="xs" variant="subtle" onClick={copy} aria-label={`Copy ${label}`}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
      </Table.Td>
    </Table.Tr>
  );
}

function MetadataXml() {
  const metadata = useSamlSpMetadata();
  return (
    <QueryState query={metadata}>
      {(xml) => (
        <Stack gap="xs">
          <Code block>{xml}</Code>
          <Group>
            <CopyButton value={xml}>{({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy the metadata XML'}</Button>}</CopyButton>
          </Group>
        </Stack>
      )}
    </QueryState>
  );
}

/** What the admin enters at the IdP (Entra ID: Identifier and Reply URL; Okta: Audience URI and Single sign-on URL). */
export function SamlSpValues({ connection }: { connection: SsoConnection | null }) {
  const sp = connection?.saml ?? ORIGIN_SP;
  const [showXml, setShowXml] = useState(false);
  return (
    <Stack gap="xs">
      <Text size="sm">Enter these at your identity provider, or import this service's metadata there:</Text>
      <Table>
        <Table.Tbody>
          <CopyValue label="Entity ID (Identifier, Audience URI)" value={sp.sp_entity_id} />
          <CopyValue label="ACS URL (Reply URL, Single sign-on URL)" value={sp.acs_url} />
          <CopyValue label="Metadata URL" value={sp.metadata_url} />
        </Table.Tbody>
      </Table>
      <Group><Button size="xs" variant="subtle" onClick={() => setShowXml(!showXml)}>{showXml ? 'Hide the metadata XML' : 'Show the metadata XML'}</Button></Group>
      {showXml && <MetadataXml />}
      {connection?.saml && (
        <Text size="sm" c="dimmed">
          Imported: {connection.saml.idp_entity_id}, signing in at {connection.saml.idp_sso_url};{' '}
          {connection.saml.idp_certificates.map((certificate) => `${certificate.subject} until ${certificate.not_after.slice(0, 10)}`).join('; ')}
        </Text>
      )}
    </Stack>
  );
}
