import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/** The Fastify instance routes of every surface are written against: TypeBox schemas give handlers their types. */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A surface's Fastify context with the TypeBox type provider. */
export function typed(app: FastifyInstance): TypedApp {
  return app.withTypeProvider<TypeBoxTypeProvider>() as unknown as TypedApp;
}
