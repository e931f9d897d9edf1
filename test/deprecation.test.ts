import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type deprecationHeaders, registerDeprecations } from '../src/http/shared/plugins/deprecation.ts';

async function appWith(deprecation: Parameters<typeof deprecationHeaders>[0]) {
  const app = Fastify();
  registerDeprecations(app, '/public/v1/docs');
  app.get('/old', { config: { deprecation }, schema: { description: 'The old way.' } }, async () => ({
    ok: true,
  }));
  app.get('/old-failing', { config: { deprecation } }, async () => {
    throw Object.assign(new Error('gone wrong'), { statusCode: 409 });
  });
  app.get('/current', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('deprecated routes (docs/versioning.md)', () => {
  it('answer with Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to the policy, errors included', async () => {
    const app = await appWith({ since: '2027-01-04', sunset: '2027-07-05', replacement: 'Use GET /new.' });
    for (const url of ['/old', '/old-failing']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers.deprecation, url).toBe(`@${Date.UTC(2027, 0, 4) / 1000}`);
      expect(res.headers.sunset, url).toBe('Mon, 05 Jul 2027 00:00:00 GMT');
      expect(res.headers.link, url).toBe('</public/v1/docs>; rel="deprecation"; type="text/html"');
    }
    const current = await app.inject({ method: 'GET', url: '/current' });
    expect(current.headers.deprecation).toBeUndefined();
    await app.close();
  });

  it('send no Sunset before one is decided', async () => {
    const app = await appWith({ since: '2027-01-04', replacement: 'Use GET /new.' });
    const res = await app.inject({ method: 'GET', url: '/old' });
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBeUndefined();
    await app.close();
  });

  it('refuse at start-up a sunset with less than six months of notice', async () => {
    await expect(appWith({ since: '2027-01-04', sunset: '2027-03-01', replacement: 'x' })).rejects.toThrow(
      /182 days' notice/,
    );
  });
});
