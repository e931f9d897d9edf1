import { Type } from '@sinclair/typebox';
import { brandJson } from '../../../domain/brands/brand-json.ts';
import type { BrandService } from '../../../domain/brands/brand-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import {
  errorResponses,
  NullableString,
  NullableTimestamp,
  PrefixedId,
  Timestamp,
} from '../../shared/schemas/shared.ts';

const TAGS = ['Brands'];

export const BrandIdParams = Type.Object({
  brandId: Type.String({ maxLength: 100, description: 'The brand (`brd_…`); one that names none is a 404.' }),
});

const BrandSchema = Type.Object(
  {
    id: PrefixedId('brd', 16),
    name: Type.String({ maxLength: 200 }),
    default_pickup_address: NullableString({ maxLength: 500 }),
    created_at: Timestamp(),
    disabled_at: NullableTimestamp('Null while enabled.'),
    webhooks_allowed: Type.Boolean({
      description: 'Its webhook subscription API is open (`dlv brands allow-webhooks`).',
    }),
  },
  { additionalProperties: false },
);

const BrandResponse = Type.Object({ ok: Type.Literal(true), brand: BrandSchema });

/** The brands: list, one, create (the same service as `dlv brands`). */
export function opsBrandRoutes(app: TypedApp, deps: { brands: BrandService }): void {
  app.get(
    '/brands',
    {
      config: { auth: { ops: 'brands:read' } },
      schema: {
        operationId: 'opsListBrands',
        summary: 'The brands',
        tags: TAGS,
        response: {
          200: Type.Object({ ok: Type.Literal(true), brands: Type.Array(BrandSchema, { maxItems: 100000 }) }),
          ...errorResponses([401, 403]),
        },
      },
    },
    async () => ({ ok: true as const, brands: (await deps.brands.list()).map(brandJson) }),
  );

  app.get(
    '/brands/:brandId',
    {
      config: { auth: { ops: 'brands:read' } },
      schema: {
        operationId: 'opsGetBrand',
        summary: 'A brand',
        tags: TAGS,
        params: BrandIdParams,
        response: { 200: BrandResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => ({
      ok: true as const,
      brand: brandJson(await deps.brands.get(request.params.brandId)),
    }),
  );

  app.post(
    '/brands',
    {
      config: { auth: { ops: 'brands:write' } },
      schema: {
        operationId: 'opsCreateBrand',
        summary: 'Create a brand',
        description:
          'Its name is 1–200 characters without line break, control character, `<`, `>` or `"` (it is its e-mails’ sender name); ' +
          'a pickup address must be in the delivery zone. Its keys are made by `dlv keys create` or its owner in the account area.',
        tags: TAGS,
        body: Type.Object(
          {
            name: Type.String({ maxLength: 200 }),
            pickup_address: Type.Optional(
              NullableString({ maxLength: 500, description: 'Its default pickup address.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: BrandResponse, ...errorResponses([400, 401, 403, 413, 415, 422]) },
      },
    },
    async (request, reply) => {
      const brand = await deps.brands.create(
        {
          name: request.body.name,
          pickupAddress: request.body.pickup_address ?? null,
        },
        authorOf(request),
      );
      return reply.code(201).send({ ok: true as const, brand: brandJson(brand) });
    },
  );
}
