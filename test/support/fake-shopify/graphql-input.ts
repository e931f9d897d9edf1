/**
 * Just enough GraphQL for the fake: it reads the operation's first top-level field, its arguments
 * (which must be variables or string literals) and the declared variable types, then coerces the
 * variables against the Admin API's input types the way Shopify (graphql-ruby) does, answering with
 * the same error shapes. It is not a GraphQL parser: selection sets are not read.
 */

export interface GraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  extensions?: Record<string, unknown>;
}

export interface ParsedOperation {
  kind: 'query' | 'mutation';
  field: string;
  responseKey: string;
  /** Argument name → the variable it is bound to, or a literal value. */
  args: Record<string, { variable: string } | { literal: unknown }>;
  variableDefs: Record<string, { type: string; line: number; column: number }>;
}

function position(text: string, index: number) {
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

export function parseOperation(query: string): ParsedOperation | GraphqlError {
  const text = query.replace(/#[^\n]*/g, (comment) => ' '.repeat(comment.length));
  const header = /^\s*(?:(query|mutation)\b\s*\w*\s*(?:\(([^)]*)\))?\s*)?\{/.exec(text);
  if (!header) return { message: 'syntax error, unexpected end of file', extensions: { code: 'parseError' } };
  const variableDefs: ParsedOperation['variableDefs'] = {};
  const defsStart = header[2] === undefined ? 0 : text.indexOf(header[2]);
  for (const def of (header[2] ?? '').matchAll(/\$(\w+)\s*:\s*([\w![\]\s]+?)(?=\s*(?:[,$=)]|$))/g)) {
    variableDefs[def[1]!] = { type: def[2]!.replace(/\s+/g, ''), ...position(text, defsStart + def.index!) };
  }
  const rest = text.slice(header[0].length);
  const field = /^\s*(?:(\w+)\s*:\s*)?(\w+)\s*(?:\(([^)]*)\))?/.exec(rest);
  if (!field) return { message: 'syntax error, expected a field', extensions: { code: 'parseError' } };
  const args: ParsedOperation['args'] = {};
  const argText = field[3] ?? '';
  if (/[{[]/.test(argText.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) {
    return { message: 'fake-shopify: pass input objects as variables, not inline literals' };
  }
  for (const arg of argText.matchAll(/(\w+)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|[^,\s)]+)/g)) {
    const raw = arg[2]!;
    args[arg[1]!] = raw.startsWith('$') ? { variable: raw.slice(1) } : { literal: literal(raw) };
  }
  return {
    kind: (header[1] ?? 'query') as 'query' | 'mutation',
    field: field[2]!,
    responseKey: field[1] ?? field[2]!,
    args,
    variableDefs,
  };
}

function literal(raw: string): unknown {
  if (raw.startsWith('"')) return JSON.parse(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw === 'null') return null;
  return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw; // an enum value
}

// ---- Admin API input types used by the connector (2025-10; see ADDED_IN for older versions) ----

const SCALARS: Record<string, (value: unknown) => string | null> = {
  String: (v) => (typeof v === 'string' ? null : `Could not coerce value ${JSON.stringify(v)} to String`),
  Boolean: (v) => (typeof v === 'boolean' ? null : `Could not coerce value ${JSON.stringify(v)} to Boolean`),
  Int: (v) => (Number.isInteger(v) ? null : `Could not coerce value ${JSON.stringify(v)} to Int`),
  Float: (v) => (typeof v === 'number' ? null : `Could not coerce value ${JSON.stringify(v)} to Float`),
  ID: (v) =>
    typeof v === 'string' && /^gid:\/\/shopify\/\w+\/\d+$/.test(v) ? null : `Invalid global id \`${v}\``,
  URL: (v) => (typeof v === 'string' && URL.canParse(v) ? null : `Invalid URL '${v}'`),
  DateTime: (v) =>
    typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(v)
      ? null
      : `Could not coerce value ${JSON.stringify(v)} to DateTime`,
};

const FULFILLMENT_EVENT_STATUSES = [
  'ATTEMPTED_DELIVERY',
  'CARRIER_PICKED_UP',
  'CONFIRMED',
  'DELAYED',
  'DELIVERED',
  'FAILURE',
  'IN_TRANSIT',
  'LABEL_PRINTED',
  'LABEL_PURCHASED',
  'OUT_FOR_DELIVERY',
  'READY_FOR_PICKUP',
];

const ENUMS: Record<string, string[]> = {
  FulfillmentEventStatus: FULFILLMENT_EVENT_STATUSES,
  WebhookSubscriptionFormat: ['JSON', 'XML'],
};

type Inputs = Record<string, Record<string, string>>;

const INPUTS: Inputs = {
  WebhookSubscriptionInput: {
    // Deprecated since 2025-10 (still accepted there), in favour of `uri`.
    callbackUrl: 'URL',
    uri: 'String',
    format: 'WebhookSubscriptionFormat',
    includeFields: '[String!]',
    metafieldNamespaces: '[String!]',
    filter: 'String',
  },
  DeliveryCarrierServiceCreateInput: {
    name: 'String!',
    callbackUrl: 'URL!',
    active: 'Boolean!',
    supportsServiceDiscovery: 'Boolean!',
  },
  FulfillmentInput: {
    lineItemsByFulfillmentOrder: '[FulfillmentOrderLineItemsInput!]!',
    notifyCustomer: 'Boolean',
    originAddress: 'FulfillmentOriginAddressInput',
    trackingInfo: 'FulfillmentTrackingInput',
  },
  FulfillmentOrderLineItemsInput: {
    fulfillmentOrderId: 'ID!',
    fulfillmentOrderLineItems: '[FulfillmentOrderLineItemInput!]',
  },
  FulfillmentOrderLineItemInput: { id: 'ID!', quantity: 'Int!' },
  FulfillmentTrackingInput: {
    company: 'String',
    number: 'String',
    numbers: '[String!]',
    url: 'URL',
    urls: '[URL!]',
  },
  FulfillmentOriginAddressInput: {
    address1: 'String',
    address2: 'String',
    city: 'String',
    countryCode: 'String!',
    provinceCode: 'String',
    zip: 'String',
  },
  FulfillmentEventInput: {
    address1: 'String',
    city: 'String',
    country: 'String',
    estimatedDeliveryAt: 'DateTime',
    fulfillmentId: 'ID!',
    happenedAt: 'DateTime',
    latitude: 'Float',
    longitude: 'Float',
    message: 'String',
    province: 'String',
    status: 'FulfillmentEventStatus!',
    zip: 'String',
  },
};

/** Input fields a version introduced: the versions before it answer "Field is not defined". */
const ADDED_IN: Record<string, Record<string, string>> = {
  WebhookSubscriptionInput: { uri: '2025-10' },
};

/** The input types as `version` has them ('unstable' is the newest). */
function inputsFor(version: string): Inputs {
  const inputs: Inputs = {};
  for (const [type, fields] of Object.entries(INPUTS)) {
    const added = ADDED_IN[type] ?? {};
    inputs[type] = Object.fromEntries(
      Object.entries(fields).filter(
        ([field]) => !added[field] || version === 'unstable' || version >= added[field]!,
      ),
    );
  }
  return inputs;
}

/** WebhookSubscriptionTopic values are the API version's topics: orders/paid → ORDERS_PAID. */
export const topicToEnum = (topic: string) => topic.replace(/[/.]/g, '_').toUpperCase();

interface Problem {
  path: (string | number)[];
  explanation: string;
}

type Enums = Record<string, string[]>;
interface Schema {
  enums: Enums;
  inputs: Inputs;
}

function coerce(
  value: unknown,
  type: string,
  path: Problem['path'],
  problems: Problem[],
  schema: Schema,
): void {
  if (type.endsWith('!')) {
    if (value === null || value === undefined) {
      problems.push({ path, explanation: 'Expected value to not be null' });
      return;
    }
    type = type.slice(0, -1);
  }
  if (value === null || value === undefined) return;
  if (type.startsWith('[')) {
    const items = Array.isArray(value) ? value : [value]; // GraphQL coerces one value to a list
    for (const [index, item] of items.entries())
      coerce(item, type.slice(1, -1), [...path, index], problems, schema);
    return;
  }
  const scalar = SCALARS[type];
  if (scalar) {
    const explanation = scalar(value);
    if (explanation) problems.push({ path, explanation });
    return;
  }
  const values = schema.enums[type];
  if (values) {
    if (typeof value !== 'string' || !values.includes(value)) {
      problems.push({ path, explanation: `Expected "${value}" to be one of: ${values.join(', ')}` });
    }
    return;
  }
  const fields = schema.inputs[type]!;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path, explanation: `Expected "${JSON.stringify(value)}" to be a key-value object.` });
    return;
  }
  for (const key of Object.keys(value)) {
    if (!(key in fields))
      problems.push({ path: [...path, key], explanation: `Field is not defined on ${type}` });
  }
  for (const [key, fieldType] of Object.entries(fields)) {
    coerce((value as Record<string, unknown>)[key], fieldType, [...path, key], problems, schema);
  }
}

/**
 * Resolves `operation`'s arguments against `signature` (argument → type) and `variables`; either the
 * argument values, or the top-level errors Shopify would answer with (no data).
 */
export function resolveArguments(
  operation: ParsedOperation,
  signature: Record<string, string>,
  variables: Record<string, unknown>,
  versionEnums: Enums,
  version: string,
): { values: Record<string, unknown> } | { errors: GraphqlError[] } {
  const errors: GraphqlError[] = [];
  const values: Record<string, unknown> = {};
  const schema: Schema = { enums: { ...ENUMS, ...versionEnums }, inputs: inputsFor(version) };
  const missing = Object.entries(signature)
    .filter(([name, type]) => type.endsWith('!') && !(name in operation.args))
    .map(([name]) => name);
  if (missing.length) {
    errors.push({
      message: `Field '${operation.field}' is missing required arguments: ${missing.join(', ')}`,
      extensions: { code: 'missingRequiredArguments', arguments: missing.join(', ') },
    });
  }
  for (const [name, arg] of Object.entries(operation.args)) {
    const expected = signature[name];
    if (!expected) {
      errors.push({
        message: `Field '${operation.field}' doesn't accept argument '${name}'`,
        extensions: { code: 'argumentNotAccepted', name: operation.field, argumentName: name },
      });
      continue;
    }
    if ('literal' in arg) {
      const problems: Problem[] = [];
      coerce(arg.literal, expected, [], problems, schema);
      if (problems.length)
        errors.push({ message: `Argument '${name}' has an invalid value`, extensions: { problems } });
      values[name] = arg.literal;
      continue;
    }
    const def = operation.variableDefs[arg.variable];
    if (!def) {
      errors.push({
        message: `Variable $${arg.variable} is used by ${operation.field} but not declared`,
        extensions: { code: 'variableNotDefined', variableName: arg.variable },
      });
      continue;
    }
    // A declared T! may feed an argument of type T; anything else is a mismatch.
    if (def.type !== expected && def.type !== `${expected}!`) {
      errors.push({
        message: `Type mismatch on variable $${arg.variable} and argument ${name} (${def.type} / ${expected})`,
        locations: [{ line: def.line, column: def.column }],
        extensions: {
          code: 'variableMismatch',
          variableName: arg.variable,
          typeName: def.type,
          argumentName: name,
        },
      });
      continue;
    }
    const problems: Problem[] = [];
    coerce(variables[arg.variable], def.type, [], problems, schema);
    if (problems.length) {
      const where = problems.every((p) => p.path.length)
        ? ` for ${problems.map((p) => `${p.path.join('.')} (${p.explanation})`).join(', ')}`
        : '';
      errors.push({
        message: `Variable $${arg.variable} of type ${def.type} was provided invalid value${where}`,
        locations: [{ line: def.line, column: def.column }],
        extensions: { value: variables[arg.variable] ?? null, problems },
      });
    }
    values[name] = variables[arg.variable];
  }
  return errors.length ? { errors } : { values };
}
