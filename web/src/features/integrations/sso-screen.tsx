import { Badge, Button, Card, Checkbox, Group, NativeSelect, PasswordInput, SegmentedControl, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorDisplay, fieldError } from '../../components/error-display';
import { Empty, QueryState, ScreenTitle } from '../../components/page-states';
import { ConfirmButton, toastDone } from '../../components/confirm-button';
import { useSsoSignIn } from '../auth/api';
import {
  useClaimSsoDomain,
  useCreateSsoConnection,
  useDeleteSsoConnection,
  useRemoveSsoDomain,
  useSsoConnection,
  useSsoConnections,
  useSsoDomains,
  useUpdateSsoConnection,
  useVerifySsoDomain,
  type SsoConnection,
} from './api';
import { bodyOf, PROTOCOLS, valuesOf, type ConnectionValues } from './connection-body';
import { SamlSpValues } from './saml-sp-values';
import { SSO_TEST_PATH } from './sso-test-result';

const JIT_ROLES = [{ value: '', label: 'Off: only existing members sign in' }, { value: 'reviewer', label: 'Reviewer' }, { value: 'assessor', label: 'Assessor' }];
const CALLBACK = `${window.location.origin}/auth/v1/sso/callback`;

function OidcFields({ form, error, connection }: { form: ReturnType<typeof useForm<ConnectionValues>>; error: unknown; connection: SsoConnection | null }) {
  return (
    <>
      <Text size="sm">Register this redirect URI at your identity provider: <Text span ff="monospace">{connection?.redirect_uri ?? CALLBACK}</Text></Text>
      <TextInput label="Issuer URL" placeholder="https://login.microsoftonline.com/{tenant}/v2.0" required {...form.getInputProps('issuer')} error={fieldError(error, 'issuer')} />
      <TextInput label="Client ID" required {...form.getInputProps('client_id')} error={fieldError(error, 'client_id')} />
      <PasswordInput label={connection === null ? 'Client secret' : 'Client secret (leave empty to keep it)'} required={connection === null} {...form.getInputProps('client_secret')} error={fieldError(error, 'client_secret')} />
      <TextInput label="Scopes" description="openid and email are always asked" {...form.getInputProps('scopes')} error={fieldError(error, 'scopes')} />
    </>
  );
}

/** The connection's form: new (OIDC or SAML, its secret or metadata required) or an existing one (replaced only when given). */
function ConnectionForm({ connection, onDone }: { connection: SsoConnection | null; onDone: () => void }) {
  const create = useCreateSsoConnection();
  const update = useUpdateSsoConnection();
  const saving = connection === null ? create : update;
  const form = useForm<ConnectionValues>({ initialValues: valuesOf(connection) });
  const saml = form.values.type === 'saml';
  const submit = (values: ConnectionValues) => {
    const done = () => { toastDone(`${values.name.trim()} is saved.`); onDone(); };
    if (connection === null) create.mutate({ type: values.type, ...bodyOf(values, true) }, { onSuccess: done });
    else update.mutate({ id: connection.id, body: bodyOf(values, false) }, { onSuccess: done });
  };
  const protocolName = saml ? 'SAML 2.0' : 'OpenID Connect';
  return (
    <Card withBorder>
      <form onSubmit={form.onSubmit(submit)}>
        <Stack>
          <Title order={2} size="h4">{connection === null ? `New connection (${protocolName})` : `Change ${connection.name}`}</Title>
          {connection === null && <SegmentedControl aria-label="Protocol" data={PROTOCOLS} {...form.getInputProps('type')} />}
          <TextInput label="Name" placeholder="Entra ID" required {...form.getInputProps('name')} error={fieldError(saving.error, 'name')} />
          {saml ? (
            <>
              <SamlSpValues connection={connection} />
              <Textarea
                label={connection === null ? 'Identity provider metadata (XML)' : 'Identity provider metadata (XML; paste it again to re-import, e.g. after a certificate rotation)'}
                description="Entra ID: Federation Metadata XML; Okta: the application's Identity Provider metadata"
                required={connection === null} autosize minRows={4} maxRows={12} ff="monospace"
                {...form.getInputProps('idp_metadata_xml')} error={fieldError(saving.error, 'idp_metadata_xml')}
              />
            </>
          ) : <OidcFields form={form} error={saving.error} connection={connection} />}
          <NativeSelect label="Just-in-time membership" description="The role of a person of your verified domains signing in for the first time" data={JIT_ROLES} {...form.getInputProps('jit_role')} />
          <Checkbox label="Enforce single sign-on: refuse the password of your domains' members" {...form.getInputProps('enforce_sso', { type: 'checkbox' })} />
          <ErrorDisplay error={saving.error} title="The connection was not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>Close</Button>
            <Button type="submit" loading={saving.isPending}>Save connection</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function EditConnection({ id, onDone }: { id: string; onDone: () => void }) {
  const connection = useSsoConnection(id);
  return <QueryState query={connection}>{(data) => <ConnectionForm connection={data} onDone={onDone} />}</QueryState>;
}

function Domains() {
  const domains = useSsoDomains();
  const claim = useClaimSsoDomain();
  const verify = useVerifySsoDomain();
  const remove = useRemoveSsoDomain();
  const form = useForm({ initialValues: { domain: '' } });
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">Verified domains</Title>
        <Text size="sm" c="dimmed">People whose e-mail is in a verified domain are sent to your identity provider, and only they are accepted from it.</Text>
        <form onSubmit={form.onSubmit((values) => claim.mutate(values.domain.trim(), { onSuccess: (answer) => { form.reset(); toastDone(`${answer.data.domain} is claimed: publish its TXT record, then verify it.`); } }))}>
          <Group align="flex-end">
            <TextInput label="E-mail domain" placeholder="bank.example" required {...form.getInputProps('domain')} error={fieldError(claim.error, 'domain')} />
            <Button type="submit" loading={claim.isPending}>Claim domain</Button>
          </Group>
        </form>
        <ErrorDisplay error={claim.error ?? verify.error ?? remove.error} title="The domain did not change" />
        <QueryState query={domains}>
          {(list) => list.length === 0 ? <Empty title="No domain yet" next="Claim your e-mail domain, publish its TXT record and verify it." /> : (
            <Table.ScrollContainer minWidth={640}>
              <Table>
                <Table.Thead><Table.Tr><Table.Th>Domain</Table.Th><Table.Th>State</Table.Th><Table.Th>TXT record</Table.Th><Table.Th /></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {list.map((domain) => (
                    <Table.Tr key={domain.id}>
                      <Table.Td>{domain.domain}</Table.Td>
                      <Table.Td>{domain.verified ? <Badge color="green" variant="light">Verified</Badge> : <Badge color="gray" variant="light">Awaiting its record</Badge>}</Table.Td>
                      <Table.Td>
                        {domain.verification === null ? '—' : (
                          <Text size="xs" ff="monospace">{domain.verification.record_name} TXT "{domain.verification.record_value}"</Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          {!domain.verified && <Button size="xs" variant="light" loading={verify.isPending} onClick={() => verify.mutate(domain.id, { onSuccess: () => toastDone(`${domain.domain} is verified.`) })}>Verify</Button>}
                          <ConfirmButton label="Remove" title={`Remove ${domain.domain}?`} onConfirm={() => remove.mutate(domain.id, { onSuccess: () => toastDone(`${domain.domain} was removed.`) })}>
                            Its people are no longer sent to your identity provider, nor accepted from it.
                          </ConfirmButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Stack>
    </Card>
  );
}

/** Single sign-on (issue 50): the enterprise's connections to its identity provider, and its verified domains. */
export function SsoScreen() {
  const connections = useSsoConnections();
  const remove = useDeleteSsoConnection();
  const test = useSsoSignIn();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  return (
    <>
      <ScreenTitle>Single sign-on</ScreenTitle>
      <Stack>
        <Card withBorder>
          <Stack>
            <Group justify="space-between">
              <Title order={2} size="h4">SSO connections</Title>
              <Button onClick={() => setEditing('new')}>New connection</Button>
            </Group>
            <ErrorDisplay error={remove.error ?? test.error} title="The connection could not be used" />
            <QueryState query={connections}>
              {(list) => list.length === 0 ? <Empty title="No connection yet" next="Create one with your identity provider's issuer, client ID and secret (OpenID Connect), or its metadata (SAML 2.0)." /> : (
                <Table.ScrollContainer minWidth={720}>
                  <Table>
                    <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Protocol</Table.Th><Table.Th>Identity provider</Table.Th><Table.Th>Enforced</Table.Th><Table.Th>Just-in-time</Table.Th><Table.Th /></Table.Tr></Table.Thead>
                    <Table.Tbody>
                      {list.map((connection) => (
                        <Table.Tr key={connection.id}>
                          <Table.Td>{connection.name}</Table.Td>
                          <Table.Td><Badge variant="light">{connection.type === 'saml' ? 'SAML' : 'OIDC'}</Badge></Table.Td>
                          <Table.Td><Text size="sm" ff="monospace">{connection.saml?.idp_entity_id ?? connection.issuer}</Text></Table.Td>
                          <Table.Td>{connection.enforce_sso ? 'Yes' : 'No'}</Table.Td>
                          <Table.Td>{connection.jit_role ?? 'Off'}</Table.Td>
                          <Table.Td>
                            <Group gap="xs" wrap="nowrap">
                              <Button size="xs" variant="light" loading={test.isPending}
                                onClick={() => test.mutate({ provider_id: connection.id, redirect_to: `${window.location.origin}${SSO_TEST_PATH}` }, { onSuccess: (answer) => { window.open(answer.url, '_blank', 'noopener'); } })}>
                                Test this connection
                              </Button>
                              <Button size="xs" variant="light" onClick={() => setEditing(connection.id)}>Change</Button>
                              <ConfirmButton label="Delete" title={`Delete ${connection.name}?`} onConfirm={() => remove.mutate(connection.id, { onSuccess: () => toastDone(`${connection.name} was deleted.`) })}>
                                Nobody signs in through it any more; sessions it started live on until they end.
                              </ConfirmButton>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </QueryState>
          </Stack>
        </Card>
        {editing === 'new' && <ConnectionForm connection={null} onDone={() => setEditing(null)} />}
        {editing !== null && editing !== 'new' && <EditConnection key={editing} id={editing} onDone={() => setEditing(null)} />}
        <Domains />
      </Stack>
    </>
  );
}
