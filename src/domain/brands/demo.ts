import type { ApiKeyService, CreatedKey } from '../api-keys/api-key-service.ts';
import { BASIC_SCOPES } from '../api-keys/keys.ts';
import { systemAuthor } from '../audit/actor.ts';
import type { CourierService } from '../couriers/courier-service.ts';
import type { Brand } from './brand.ts';
import type { BrandService } from './brand-service.ts';

/** `npm start` seeding a new embedded database: the audit trail names it as a job of its own. */
const DEMO_SEED = systemAuthor('demo_seed');

/**
 * A first brand and a key with every scope but `webhooks:write` (opened by the operator on request), so that `npm start` on a new embedded database can be tried
 * at once. Created only when the database holds no brand at all.
 */
export async function seedDemoBrand(
  brands: BrandService,
  keys: ApiKeyService,
): Promise<{ brand: Brand; key: CreatedKey } | null> {
  if ((await brands.list()).length > 0) return null;
  const brand = await brands.create(
    { name: 'Demo Brand', pickupAddress: '12 rue de la Paix 75002 Paris' },
    DEMO_SEED,
  );
  const key = await keys.create({ brandId: brand.id, scopes: [...BASIC_SCOPES] }, DEMO_SEED);
  return { brand, key };
}

/**
 * A first courier for the courier app (`/courier`), created with the demo brand, its one-time
 * password shown once: with a round planned (`dlv rounds plan --date … --assign`), the app can be
 * tried on a phone at once.
 */
export async function seedDemoCourier(
  couriers: Pick<CourierService, 'add'>,
): Promise<{ email: string; password: string } | null> {
  const email = 'courier@example.com';
  const { oneTimePassword } = await couriers.add({ email, name: 'Demo Courier', locale: 'fr' }, DEMO_SEED);
  return oneTimePassword ? { email, password: oneTimePassword } : null;
}
