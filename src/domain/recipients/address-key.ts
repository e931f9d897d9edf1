import { createHash } from 'node:crypto';
import type { Channel } from './ports.ts';

/**
 * The digest an opt-out is kept under: the address as every brand would write it (an e-mail
 * lower-cased whole, a number in E.164 as orders store it), so one "stop" covers them all.
 */
export function addressKey(channel: Channel, address: string): Buffer {
  const normalised = channel === 'email' ? address.trim().toLowerCase() : address.replace(/[\s.-]/g, '');
  return createHash('sha256').update(`${channel}:${normalised}`).digest();
}
