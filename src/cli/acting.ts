import { hostname } from 'node:os';
import type { ActedBy } from '../domain/operators/acting.ts';

/** Who acts when `dlv` changes something: the command line on this host (`cli@host`), no address. */
export const cliActor = (): ActedBy => ({
  party: { kind: 'cli', label: `cli@${hostname()}` },
  address: null,
});
