import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { addressRange, assertPublicDestination, validateEndpointUrl } from './url-guard.ts';

const secure = { allowInsecure: false };
const insecure = { allowInsecure: true };

/** A resolver that answers from a table and fails the test if asked anything else. */
const resolver =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<string[]> => {
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };

function appError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an AppError');
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('validateEndpointUrl', () => {
  it('accepts https', () => {
    expect(validateEndpointUrl('https://hooks.example.com/dlv?x=1', secure).href).toBe(
      'https://hooks.example.com/dlv?x=1',
    );
  });

  it.each([
    ['not a url', 'hooks.example.com/dlv'],
    ['http without allowInsecure', 'http://hooks.example.com/'],
    ['another scheme', 'ftp://hooks.example.com/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['credentials', 'https://user:pass@hooks.example.com/'],
    ['a user name alone', 'https://user@hooks.example.com/'],
    ['an over-long URL', `https://hooks.example.com/${'a'.repeat(2000)}`],
  ])('rejects %s as an invalid url field', (_label, url) => {
    const err = appError(() => validateEndpointUrl(url, secure));
    expect(err.code).toBe('invalid_request');
    expect(err.details).toEqual([{ field: 'url', message: expect.any(String) }]);
  });

  it('allows http only with allowInsecure', () => {
    expect(validateEndpointUrl('http://127.0.0.1:8080/hook', insecure).port).toBe('8080');
    expect(() => validateEndpointUrl('ftp://127.0.0.1/', insecure)).toThrow(/http or https/);
  });

  it('accepts exactly 2000 characters', () => {
    const base = 'https://hooks.example.com/';
    expect(() => validateEndpointUrl(base + 'a'.repeat(2000 - base.length), secure)).not.toThrow();
  });
});

describe('addressRange', () => {
  it.each([
    ['93.184.216.34', 'unicast'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'unicast'],
    ['10.1.2.3', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'unicast'],
    ['64:ff9b::a01:203', 'private'], // NAT64 of 10.1.2.3
    ['64:ff9b::808:808', 'unicast'], // NAT64 of 8.8.8.8
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['not-an-ip', 'invalid'],
  ])('%s → %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });
});

describe('assertPublicDestination', () => {
  it('returns every resolved address when all are public', async () => {
    const lookup = resolver({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    await expect(
      assertPublicDestination(new URL('https://hooks.example.com/'), { ...secure, lookup }),
    ).resolves.toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:192.168.0.1', 'private'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'non-public'], // Teredo
  ])('refuses a host resolving to %s (%s), without saying what it resolves to', async (address, name) => {
    const lookup = resolver({ 'evil.example.com': [address] });
    const err = await rejection(
      assertPublicDestination(new URL('https://evil.example.com/'), { ...secure, lookup }),
    );
    expect(err.code).toBe('invalid_request');
    expect(err.details?.[0]?.field).toBe('url');
    // Issue #23: the answer or its range would map the internal network for a tenant.
    expect(err.message).toBe(
      'url: evil.example.com is not an allowed address; webhooks are only delivered to public addresses',
    );
    expect(err.message).not.toContain(address);
    expect(err.message).not.toContain(name);
  });

  it('refuses when any one of several addresses is internal', async () => {
    const lookup = resolver({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    const err = await rejection(
      assertPublicDestination(new URL('https://mixed.example.com/'), { ...secure, lookup }),
    );
    expect(err.message).not.toContain('10.0.0.7');
    expect(err.message).toContain('mixed.example.com is not an allowed address');
  });

  it.each([
    'https://127.0.0.1/',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::ffff:7f00:1]/',
    'https://2130706433/', // 127.0.0.1 as one decimal number
    'https://0x7f.1/',
    'https://169.254.169.254/latest/meta-data/',
  ])('refuses the IP literal in %s without resolving', async (url) => {
    const lookup = async (): Promise<string[]> => {
      throw new Error('must not resolve an IP literal');
    };
    const err = await rejection(assertPublicDestination(new URL(url), { ...secure, lookup }));
    expect(err.message).toMatch(
      /^url: \S+ is not an allowed address; webhooks are only delivered to public addresses$/,
    );
  });

  it('allows a public IP literal', async () => {
    await expect(assertPublicDestination(new URL('https://93.184.216.34/'), secure)).resolves.toEqual([
      '93.184.216.34',
    ]);
  });

  describe('with allowInsecure', () => {
    const lookup = resolver({ localhost: ['127.0.0.1', '::1'], 'intranet.local': ['192.168.1.20'] });

    it('allows loopback: localhost, 127.0.0.0/8 and ::1', async () => {
      await expect(
        assertPublicDestination(new URL('http://localhost:3000/'), { ...insecure, lookup }),
      ).resolves.toEqual(['127.0.0.1', '::1']);
      await expect(assertPublicDestination(new URL('http://127.1.2.3/'), insecure)).resolves.toEqual([
        '127.1.2.3',
      ]);
      await expect(assertPublicDestination(new URL('http://[::1]:8080/'), insecure)).resolves.toEqual([
        '::1',
      ]);
    });

    it('still refuses other internal ranges', async () => {
      await rejection(assertPublicDestination(new URL('http://intranet.local/'), { ...insecure, lookup }));
      for (const url of [
        'http://10.0.0.1/',
        'http://169.254.169.254/',
        'http://0.0.0.0/',
        'http://[fd00::1]/',
      ]) {
        await rejection(assertPublicDestination(new URL(url), insecure));
      }
    });
  });

  it('refuses localhost without allowInsecure', async () => {
    const lookup = resolver({ localhost: ['127.0.0.1'] });
    const err = await rejection(
      assertPublicDestination(new URL('https://localhost/'), { ...secure, lookup }),
    );
    expect(err.message).toBe(
      'url: localhost is not an allowed address; webhooks are only delivered to public addresses',
    );
  });

  it('reports a host that does not resolve', async () => {
    const err = await rejection(
      assertPublicDestination(new URL('https://nowhere.example.com/'), { ...secure, lookup: resolver({}) }),
    );
    expect(err.message).toBe('url: host nowhere.example.com could not be resolved (ENOTFOUND)');
    const empty = await rejection(
      assertPublicDestination(new URL('https://empty.example.com/'), {
        ...secure,
        lookup: resolver({ 'empty.example.com': [] }),
      }),
    );
    expect(empty.message).toContain('could not be resolved');
  });
});
