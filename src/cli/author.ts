import os from 'node:os';
import type { Author } from '../domain/audit/actor.ts';

/**
 * Who runs `dlv`, as the audit trail names them: the operating system's user at this host
 * (`alice@depot-1`). The CLI acts on the database directly, so this is all it can say of its person:
 * give each operator their own account on the machine.
 */
export function cliAuthor(): Author {
  return { actor: { kind: 'cli', label: `${osUser()}@${os.hostname() || 'localhost'}` }, origin: null };
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // A container's user without an entry in /etc/passwd: its environment, else its uid.
    return process.env.USER || process.env.LOGNAME || `uid${process.getuid?.() ?? ''}`;
  }
}
