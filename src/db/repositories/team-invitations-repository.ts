import type { NewTeamInvitation, TeamInvitationStore } from '../../domain/accounts/ports.ts';
import type { Role, TeamInvitation } from '../../domain/accounts/user.ts';
import type { Queryable } from '../pool.ts';

interface InvitationRow {
  id: string;
  brand_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS = 'id, brand_id, email, role, created_at, expires_at';

const toInvitation = (r: InvitationRow): TeamInvitation => ({
  id: r.id,
  brandId: r.brand_id,
  email: r.email,
  role: r.role,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** Pending team invitations (team_invitations), found by the SHA-256 of their link's secret. */
export function teamInvitationsRepository(db: Queryable): TeamInvitationStore {
  return {
    /** Creates the brand's invitation of `email`, or replaces its link, role and expiry (the id stays). */
    async upsert(invitation: NewTeamInvitation): Promise<void> {
      await db.query(
        `INSERT INTO team_invitations (id, brand_id, email, role, token_hash, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (brand_id, lower(email)) DO UPDATE
            SET email = EXCLUDED.email, role = EXCLUDED.role, token_hash = EXCLUDED.token_hash,
                invited_by = EXCLUDED.invited_by, created_at = EXCLUDED.created_at,
                expires_at = EXCLUDED.expires_at`,
        [
          invitation.id,
          invitation.brandId,
          invitation.email,
          invitation.role,
          invitation.tokenHash,
          invitation.invitedBy,
          invitation.at,
          invitation.expiresAt,
        ],
      );
    },
    /** The brand's invitations still open at `at`, oldest first (the team page). */
    async listForBrand(brandId: string, at: Date): Promise<TeamInvitation[]> {
      const { rows } = await db.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM team_invitations WHERE brand_id = $1 AND expires_at > $2 ORDER BY created_at, id`,
        [brandId, at],
      );
      return rows.map(toInvitation);
    },
    /** The live invitation of a link, locked when asked (in a transaction, to accept it once). */
    async findLive(tokenHash: Buffer, at: Date, lock = false): Promise<TeamInvitation | null> {
      const { rows } = await db.query<InvitationRow>(
        `SELECT ${COLUMNS} FROM team_invitations WHERE token_hash = $1 AND expires_at > $2${lock ? ' FOR UPDATE' : ''}`,
        [tokenHash, at],
      );
      return rows[0] ? toInvitation(rows[0]) : null;
    },
    /** False when the brand has no such invitation (another brand's, or already gone). */
    async delete(brandId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM team_invitations WHERE id = $1 AND brand_id = $2', [
        id,
        brandId,
      ]);
      return rowCount === 1;
    },
    async deleteExpired(before: Date): Promise<number> {
      const { rowCount } = await db.query('DELETE FROM team_invitations WHERE expires_at < $1', [before]);
      return rowCount ?? 0;
    },
  };
}
