import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { RecipientSettings } from '../../domain/recipients/ports.ts';
import { readableInk } from '../../domain/recipients/settings-rules.ts';
import type { BrandLook } from './views/layout.ts';

/** The logo route's file name: the PNG's SHA-256, so its URL changes with it and is cached for good. */
export const LOGO_FILE = /^([0-9a-f]{64})\.png$/;

const logoPath = (brandId: string, sha256: string) => `/track/assets/logo/${brandId}/${sha256}.png`;

/** The page's look from the brand's settings; a nonce only when there is a colour to put in a style. */
export function brandLook(settings: RecipientSettings): BrandLook {
  const colour = settings.colour && /^#[0-9a-f]{6}$/.test(settings.colour) ? settings.colour : null;
  return {
    logoUrl: settings.logoSha256 ? logoPath(settings.brandId, settings.logoSha256) : null,
    colour: colour
      ? { value: colour, ink: readableInk(colour), nonce: randomBytes(16).toString('base64') }
      : null,
  };
}

/**
 * The brand's colour comes in one <style> element: this response's CSP admits that one by its
 * nonce, and still no style attribute nor any other inline style. The policy is the one the
 * security headers set (whatever it says otherwise), `style-src` widened by the nonce only.
 */
export function admitStyleNonce(reply: FastifyReply, nonce: string): void {
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  reply.header('content-security-policy', csp.replace(/style-src ([^;]*)/, `style-src $1 'nonce-${nonce}'`));
}
