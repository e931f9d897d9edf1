import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv and ajv-formats are CommonJS; under ESM their constructor sits on `default`.
const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    // Unknown fields are an error (schemas say additionalProperties: false), never silently dropped.
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv, ['email', 'date', 'date-time', 'uri']);
  // int32/int64 document integer sizes in the OpenAPI documents; every such integer also has a
  // minimum and a maximum, which are what is checked (so one bad value gets one error, not two).
  ajv.addFormat('int32', true);
  ajv.addFormat('int64', true);
  return ajv;
}

// Bodies are JSON, so types are checked as sent ("3" is not an integer). Query strings and path
// parameters are text by nature, so they are coerced ("50" → 50) before their schema applies.
const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object) as ReturnType<
    FastifySchemaCompiler<unknown>
  >;
