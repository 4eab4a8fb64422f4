import { describe, expect, it } from 'vitest';
import { inviteMail, recoveryMail } from './mail-templates.js';

describe('provider mails', () => {
  const link = 'http://service.test/auth/v1/verify?token=abc&type=invite&redirect_to=http%3A%2F%2Fservice.test';
  const expires = new Date('2026-12-04T10:00:00Z');

  it('an invitation names the enterprise, the inviter and the role, and carries the link in text and HTML', () => {
    const mail = inviteMail({ full_name: 'Ana Ruiz', enterprise_name: 'Acme <Bank>', inviter_name: 'Chris Doe', role: 'assessor' }, link, expires);
    expect(mail.subject).toBe('You are invited to join Acme <Bank>');
    expect(mail.text).toContain('Chris Doe has invited you to Acme <Bank> on Risk Assurance as an assessor.');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('2026-12-04 10:00 UTC');
    expect(mail.html).toContain('Acme &lt;Bank&gt;');
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(mail.text).not.toMatch(/password:\s*(?!http)\S/i);
  });

  it('a super admin invitation names the platform', () => {
    const mail = inviteMail({ full_name: 'Sam', enterprise_name: null, inviter_name: 'Pat', role: 'super_admin' }, link, expires);
    expect(mail.text).toContain('Pat has invited you to the Risk Assurance platform as a super admin.');
  });

  it('a recovery mail carries only the link', () => {
    const mail = recoveryMail({ full_name: 'Ana Ruiz' }, link, expires);
    expect(mail.subject).toBe('Reset your Risk Assurance password');
    expect(mail.text).toContain(link);
  });
});
