import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../src/deps.ts';
import type { Role } from '../../src/domain/accounts/user.ts';
import { testOperator } from './audit.ts';

export interface PageResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | undefined;
  setCookies: string[];
}

/** A cookie-keeping client for the account pages, as a browser without JavaScript would use them. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(setCookie: string[]): void {
    for (const line of setCookie) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async send(method: 'GET' | 'POST', url: string, form?: Record<string, string | string[]>) {
    const payload = form
      ? new URLSearchParams(
          Object.entries(form).flatMap(([k, v]) => [v].flat().map((x): [string, string] => [k, x])),
        ).toString()
      : undefined;
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: {
        cookie: this.cookieHeader(),
        'accept-language': 'en',
        ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload,
    });
    const setCookies = [res.headers['set-cookie'] ?? []].flat() as string[];
    this.keep(setCookies);
    return {
      status: res.statusCode,
      body: res.body,
      headers: res.headers,
      location: res.headers.location as string | undefined,
      setCookies,
    } satisfies PageResponse;
  }

  get = (url: string) => this.send('GET', url);

  /** Opens `formPage`, takes its CSRF token, and posts `fields` (plus the token) to `action`. */
  async submit(formPage: string, action: string, fields: Record<string, string | string[]>) {
    const page = await this.get(formPage);
    return this.post(action, { _csrf: csrfOf(page.body), ...fields });
  }

  post = (url: string, form: Record<string, string | string[]>) => this.send('POST', url, form);

  /** Follows a 303 (post/redirect/get) as a browser does; any other answer is given back as it is. */
  async follow(res: PageResponse | Promise<PageResponse>): Promise<PageResponse> {
    const answer = await res;
    return answer.status === 303 && answer.location ? this.get(answer.location) : answer;
  }

  async signIn(email: string, password: string) {
    return this.submit('/account/sign-in', '/account/sign-in', { email, password });
  }
}

export function csrfOf(body: string): string {
  const match = body.match(/name="_csrf" value="([^"]+)"/);
  if (!match) throw new Error(`no CSRF field on the page:\n${body.slice(0, 500)}`);
  return match[1]!;
}

/** The full key of a key-created page. */
export const keyOf = (body: string): string | null => body.match(/dlv_[0-9a-f]{64}/)?.[0] ?? null;

let counter = 0;
export const PASSWORD = 'correct-horse-battery-42';
export const uniqueEmail = (label = 'user') => `${label}.${Date.now()}.${++counter}@shop.example.com`;

/**
 * A brand with one verified user of `role`, made through the domain (sign-up goes through the
 * pages in the flow test): for tests about what a signed-in person may do.
 */
export async function createUser(
  deps: Deps,
  options: { role?: Role; brandId?: string; verified?: boolean } = {},
) {
  const email = uniqueEmail(options.role ?? 'owner');
  const brandId =
    options.brandId ?? (await deps.brands.create({ name: `Account brand ${++counter}` }, testOperator)).id;
  const { hashPassword } = await import('../../src/domain/accounts/password.ts');
  const { prefixedId } = await import('../../src/domain/ids.ts');
  const { storesOn } = await import('../../src/db/stores.ts');
  const users = storesOn(deps.pool).users;
  const user = await users.insert({
    id: prefixedId('usr'),
    brandId,
    email,
    passwordHash: await hashPassword(PASSWORD),
    role: options.role ?? 'owner',
  });
  if (options.verified !== false) await users.markVerified(user!.id);
  return { email, brandId, userId: user!.id };
}
