import { phpJsonEncode } from '../php-json.ts';
import { type Answer, basicCredentials, type Call } from '../shop-http.ts';
import { changeState } from './orders.ts';
import { type Display, didYouMean, selectRows, WsError } from './query.ts';
import { FRENCH, RESOURCES } from './resources.ts';
import { insert, type PsShop, psDate, type Row } from './state.ts';
import { entitiesOf, renderXml } from './xml.ts';

/**
 * {shop}/api/… as WebserviceRequest (classes/webservice/WebserviceRequest.php) answers it, in its
 * order: authentication (the key as Basic user with any password, or ws_key=; 401 with a
 * WWW-Authenticate header and codes 16/17/18/20), the resource (400 code 27 unknown, 401 code 26 not
 * granted to the key), the method (405 codes 101/25), then the list query or the entity.
 * Output is XML unless output_format=JSON (io_format=JSON too); JSON errors are
 * {"errors":[{"code":N,"message":"…"}]}; an empty JSON list is `[]`. Writes take XML only: a JSON body
 * fails as "XML error : String could not be parsed as XML" (500, code 127). PUT replaces: every
 * required field must be sent (400 code 41) and an optional field left out is emptied — GET first and
 * send the whole object back, or PATCH only the fields to change.
 */

const REALM =
  'Basic realm="Welcome to PrestaShop Webservice, please enter the authentication key as the login. No password required."';

function render(resource: string, row: Row, display: Display, shop: PsShop): Record<string, unknown> {
  const definition = RESOURCES[resource]!;
  const fields = display === 'ids' ? ['id'] : display === 'full' ? definition.fields : display;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = field === 'id' ? row.id : String(row[field] ?? '');
    out[field] = definition.i18n?.includes(field) ? [{ id: String(FRENCH), value }] : value;
  }
  if (resource === 'orders' && display !== 'ids' && !Array.isArray(display))
    out.associations = { order_rows: shop.orderRows.get(row.id) ?? [] };
  return out;
}

function output(json: boolean, status: number, content: unknown, extra: Record<string, string> = {}): Answer {
  const headers = {
    'PSWS-Version': '8.1.7',
    'Execution-Time': '0.014',
    'content-type': json ? 'application/json;charset=utf-8' : 'text/xml;charset=utf-8',
    ...extra,
  };
  const empty = Array.isArray(content) && content.length === 0;
  const body = json ? phpJsonEncode(content) : renderXml(empty ? {} : (content as Record<string, unknown>));
  return { status, headers, body };
}

/** The key's permissions (resource → methods), or the authentication error. */
function authenticate(shop: PsShop, call: Call): Record<string, string[]> {
  const param = call.url.searchParams.get('ws_key');
  const basic = basicCredentials(call.headers.authorization);
  const key = param ?? basic?.user ?? null;
  if (key === null)
    throw new WsError(401, 16, 'Please enter the authentication key as the login. No password required');
  if (key === '') throw new WsError(401, 17, 'Authentication key is empty');
  if (key.length !== 32) throw new WsError(401, 18, 'Invalid authentication key format');
  const found = shop.keys.find((k) => k.key === key);
  if (!found?.active || shop.mode === 'unauthorized')
    throw new WsError(401, 20, 'Authentification key is not active');
  return found.permissions;
}

function write(shop: PsShop, resource: string, method: string, body: string, q: URLSearchParams): Row {
  let entities: ReturnType<typeof entitiesOf>;
  try {
    entities = entitiesOf(body);
  } catch {
    throw new WsError(
      500,
      127,
      `XML error : String could not be parsed as XML\nXML length : ${body.length}\nOriginal XML : ${body}`,
    );
  }
  const definition = RESOURCES[resource]!;
  const fields = entities[0]?.fields ?? {};
  if (method === 'POST' && fields.id)
    throw new WsError(400, 91, 'id is forbidden when adding a new resource');
  if (method !== 'POST' && !fields.id) throw new WsError(400, 90, 'id is required when modifying a resource');
  const target =
    method === 'POST' ? undefined : shop.tables[resource]!.find((r) => String(r.id) === fields.id);
  if (method !== 'POST' && !target) throw new WsError(404, 92, 'Invalid ID');
  for (const field of definition.required ?? []) {
    if (method !== 'PATCH' && fields[field] === undefined)
      throw new WsError(400, 41, `parameter "${field}" required`);
  }
  if (resource === 'order_histories') {
    const order = shop.tables.orders!.find((o) => String(o.id) === fields.id_order);
    const state = shop.tables.order_states!.find((s) => String(s.id) === fields.id_order_state);
    if (!order || !state)
      throw new WsError(400, 85, 'Validation error: "Property OrderHistory->id_order is not valid"');
    const history = changeState(shop, order.id, state.id, Number(fields.id_employee ?? 0));
    // OrderHistory::addWs: the state's e-mail only with ?sendemail=1, and only if the state sends one.
    if (q.get('sendemail') === '1' && state.send_email === '1') {
      const customer = shop.tables.customers!.find((c) => String(c.id) === String(order.id_customer));
      shop.mails.push({ idOrder: order.id, idOrderState: state.id, to: String(customer?.email ?? '') });
    }
    return history;
  }
  if (method === 'POST') return insert(shop, resource, { ...fields, date_add: psDate(shop) });
  for (const field of definition.fields) {
    if (field === 'id' || field === 'date_add') continue;
    if (fields[field] !== undefined) target![field] = fields[field]!;
    else if (method === 'PUT') target![field] = '';
  }
  return target!;
}

/**
 * The Webservice's root (`GET /api/`, WebserviceOutputBuilder::getResourcesList): each resource the
 * key is granted, with what it may do as attributes. XML only here (how PrestaShop documents it, and
 * how the bridge reads it).
 */
function resourcesList(shop: PsShop, permissions: Record<string, string[]>): Answer {
  const flags = (methods: string[]) =>
    ['get', 'put', 'post', 'patch', 'delete', 'head']
      .map((m) => `${m}="${methods.includes(m.toUpperCase()) ? 'true' : 'false'}"`)
      .join(' ');
  const nodes = Object.keys(RESOURCES)
    .filter((resource) => permissions[resource])
    .map((resource) => {
      const href = `${shop.url}/api/${resource}`;
      const attributes = `xlink:href="${href}" ${flags(permissions[resource]!)}`;
      return `<${resource} ${attributes}><description ${attributes}>The ${resource}</description><schema xlink:href="${href}?schema=blank" type="blank"/><schema xlink:href="${href}?schema=synopsis" type="synopsis"/></${resource}>`;
    });
  return {
    status: 200,
    headers: { 'PSWS-Version': '8.1.7', 'content-type': 'text/xml;charset=utf-8' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<prestashop xmlns:xlink="http://www.w3.org/1999/xlink"><api shopName="${shop.slug}">${nodes.join('')}</api></prestashop>\n`,
  };
}

export function answerWebservice(shop: PsShop, call: Call, path: string): Answer {
  const q = call.url.searchParams;
  const json = (q.get('output_format') ?? q.get('io_format') ?? '').toUpperCase() === 'JSON';
  const method = call.method.toUpperCase();
  try {
    const permissions = authenticate(shop, call);
    const [resource = '', id] = path.split('/').filter(Boolean);
    if (resource === '' && (method === 'GET' || method === 'HEAD')) return resourcesList(shop, permissions);
    const definition = RESOURCES[resource];
    if (!definition)
      throw new WsError(
        400,
        27,
        didYouMean(`Resource of type "${resource}" does not exists`, resource, Object.keys(RESOURCES)),
      );
    if (!permissions[resource])
      throw new WsError(
        401,
        26,
        `Resource of type "${resource}" is not allowed with this authentication key`,
      );
    if (!definition.methods.includes(method))
      throw new WsError(405, 101, `Method ${method} is not allowed for the resource ${resource}`);
    if (!permissions[resource]!.includes(method))
      throw new WsError(
        405,
        25,
        `Method ${method} is not allowed for the resource ${resource} with this authentication key`,
      );
    const rows = shop.tables[resource]!;
    if (method === 'GET' || method === 'HEAD') {
      if (id === undefined) {
        const { rows: selected, display } = selectRows(resource, rows, q);
        if (!selected.length) return output(json, 200, json ? [] : { [resource]: [] });
        return output(json, 200, { [resource]: selected.map((row) => render(resource, row, display, shop)) });
      }
      const row = rows.find((r) => String(r.id) === id);
      // getFilteredObjectDetails(): an unknown id is a bare 404, without an error body.
      if (!row) return { status: 404, headers: { 'PSWS-Version': '8.1.7' }, body: '' };
      const display = q.get('display') ? selectRows(resource, [row], q).display : 'full';
      // Chosen fields come back as a one-item list under the plural name (PrestaShop 8:
      // {"orders":[{"id":5,"current_state":"18"}]}), the whole object under the singular one.
      if (Array.isArray(display))
        return output(json, 200, { [resource]: [render(resource, row, display, shop)] });
      return output(json, 200, { [definition.singular]: render(resource, row, display, shop) });
    }
    const saved = write(shop, resource, method, call.body, q);
    return output(json, method === 'POST' ? 201 : 200, {
      [definition.singular]: render(resource, saved, 'full', shop),
    });
  } catch (error) {
    if (!(error instanceof WsError)) throw error;
    const errors = [{ code: error.code, message: error.message }];
    return output(json, error.status, { errors }, error.status === 401 ? { 'WWW-Authenticate': REALM } : {});
  }
}
