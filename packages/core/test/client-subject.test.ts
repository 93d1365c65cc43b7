import { describe, expect, it } from 'vitest';
import { clientSubject } from '../src/limits/client-subject.ts';
import { mailboxOf } from '../src/auth/email-mailbox.ts';

describe('clientSubject', () => {
  it('counts an IPv4 client by its address, also when written as IPv6', () => {
    expect(clientSubject('203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, whatever its spelling', () => {
    const subject = clientSubject('2001:db8:1:2::1');
    expect(subject).toBe('2001:db8:1:2::/64');
    for (const other of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:abcd', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2::1%eth0']) {
      expect(clientSubject(other)).toBe(subject);
    }
    expect(clientSubject('2001:db8:1:3::1')).not.toBe(subject);
    expect(clientSubject('::1')).toBe('0:0:0:0::/64');
    expect(clientSubject('2001:db8::1.2.3.4')).toBe('2001:db8:0:0::/64');
  });

  it('keeps anything that is not an address as it is', () => {
    expect(clientSubject('unknown')).toBe('unknown');
  });
});

describe('mailboxOf', () => {
  it('reads case and +tags as one mailbox', () => {
    expect(mailboxOf('Ada.Lovelace+renders@Example.com')).toBe('ada.lovelace@example.com');
    expect(mailboxOf('ada+a+b@example.com')).toBe('ada@example.com');
    // a leading plus is the whole local part, not a tag
    expect(mailboxOf('+ada@example.com')).toBe('+ada@example.com');
  });

  it('ignores dots for Gmail and reads googlemail.com as gmail.com, and only there', () => {
    expect(mailboxOf('a.d.a+x@googlemail.com')).toBe('ada@gmail.com');
    expect(mailboxOf('ADA@gmail.com')).toBe('ada@gmail.com');
    expect(mailboxOf('a.da@example.com')).toBe('a.da@example.com');
  });
});
