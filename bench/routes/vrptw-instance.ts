/**
 * Reads a CVRPTW instance in the TSPLIB-like format of LKH-3's benchmarks (the Solomon and
 * Gehring–Homberger sets as distributed with it): header fields `NAME`, `DIMENSION`, `VEHICLES`,
 * `CAPACITY`, `SERVICE_TIME`, `SCALE`, `EDGE_WEIGHT_TYPE` (`FLOOR_2D` or `EXACT_2D`), then
 * `NODE_COORD_SECTION`, `DEMAND_SECTION`, `TIME_WINDOW_SECTION` (ready, due), an optional
 * `SERVICE_TIME_SECTION` and `DEPOT_SECTION`. Values stay in the instance's own units.
 */

type EdgeWeightType = 'FLOOR_2D' | 'EXACT_2D';

interface VrptwNode {
  /** The node's number in the file. */
  id: number;
  x: number;
  y: number;
  demand: number;
  ready: number;
  due: number;
  service: number;
}

export interface VrptwInstance {
  name: string;
  /** The fleet: at most this many routes. */
  vehicles: number;
  capacity: number;
  scale: number;
  edgeWeightType: EdgeWeightType;
  /** In file order; `depot` is an index into it. */
  nodes: VrptwNode[];
  depot: number;
}

const SECTIONS = new Set([
  'NODE_COORD_SECTION',
  'DEMAND_SECTION',
  'TIME_WINDOW_SECTION',
  'SERVICE_TIME_SECTION',
  'DEPOT_SECTION',
]);

export class VrptwFormatError extends Error {
  override name = 'VrptwFormatError';
}

export function parseVrptw(text: string, source = 'instance'): VrptwInstance {
  const fail = (line: number, message: string): never => {
    throw new VrptwFormatError(`${source}:${line}: ${message}`);
  };
  const header = new Map<string, string>();
  const sections = new Map<string, { line: number; fields: number[] }[]>();
  let section: string | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const number = i + 1;
    if (line === '' || line === 'EOF') return;
    if (SECTIONS.has(line)) {
      section = line;
      sections.set(line, []);
      return;
    }
    const colon = /^([A-Z_]+)\s*:\s*(.*)$/.exec(line);
    if (colon) {
      section = undefined;
      header.set(colon[1]!, colon[2]!.trim());
      return;
    }
    if (section === undefined) fail(number, `unexpected line "${line.slice(0, 40)}"`);
    const fields = line.split(/\s+/).map(Number);
    if (fields.some((f) => !Number.isFinite(f))) fail(number, `not numbers: "${line.slice(0, 40)}"`);
    sections.get(section!)!.push({ line: number, fields });
  });

  const required = (key: string): string => header.get(key) ?? fail(0, `missing ${key}`);
  const positive = (key: string, fallback?: number): number => {
    const value = header.has(key) ? Number(header.get(key)) : fallback;
    if (value === undefined || !Number.isFinite(value) || value < 0)
      return fail(0, `${key} must be a number ≥ 0`);
    return value;
  };
  const dimension = positive('DIMENSION');
  const edgeWeightType = required('EDGE_WEIGHT_TYPE');
  if (edgeWeightType !== 'FLOOR_2D' && edgeWeightType !== 'EXACT_2D')
    fail(0, `EDGE_WEIGHT_TYPE ${edgeWeightType} is not supported (FLOOR_2D or EXACT_2D)`);
  const defaultService = positive('SERVICE_TIME', 0);

  const byId = <T>(name: string, width: number, make: (fields: number[]) => T): Map<number, T> => {
    const rows = sections.get(name) ?? fail(0, `missing ${name}`);
    const map = new Map<number, T>();
    for (const { line, fields } of rows) {
      if (fields.length < width) fail(line, `${name} lines have ${width} numbers`);
      if (map.has(fields[0]!)) fail(line, `node ${fields[0]} is listed twice in ${name}`);
      map.set(fields[0]!, make(fields));
    }
    return map;
  };
  const coords = byId('NODE_COORD_SECTION', 3, (f) => ({ x: f[1]!, y: f[2]! }));
  const demands = byId('DEMAND_SECTION', 2, (f) => f[1]!);
  const windows = byId('TIME_WINDOW_SECTION', 3, (f) => ({ ready: f[1]!, due: f[2]! }));
  const services = sections.has('SERVICE_TIME_SECTION')
    ? byId('SERVICE_TIME_SECTION', 2, (f) => f[1]!)
    : new Map<number, number>();
  if (coords.size !== dimension)
    fail(0, `DIMENSION is ${dimension} but ${coords.size} nodes have coordinates`);

  const nodes: VrptwNode[] = [...coords.entries()].map(([id, { x, y }]) => {
    const window = windows.get(id) ?? fail(0, `node ${id} has no time window`);
    if (window.ready > window.due) fail(0, `node ${id}: ready ${window.ready} after due ${window.due}`);
    return {
      id,
      x,
      y,
      demand: demands.get(id) ?? fail(0, `node ${id} has no demand`),
      ready: window.ready,
      due: window.due,
      service: services.get(id) ?? defaultService,
    };
  });
  const depotIds = (sections.get('DEPOT_SECTION') ?? fail(0, 'missing DEPOT_SECTION'))
    .map((r) => r.fields[0]!)
    .filter((id) => id !== -1);
  if (depotIds.length !== 1) fail(0, 'exactly one depot is supported');
  const depot = nodes.findIndex((n) => n.id === depotIds[0]);
  if (depot < 0) fail(0, `the depot ${depotIds[0]} has no coordinates`);
  nodes[depot]!.service = 0;
  return {
    name: header.get('NAME') ?? source,
    vehicles: positive('VEHICLES'),
    capacity: positive('CAPACITY'),
    scale: positive('SCALE', 1),
    edgeWeightType: edgeWeightType as EdgeWeightType,
    nodes,
    depot,
  };
}

/** The best-known costs beside the instances: `instance,best_known_cost` per line. */
export function parseBestKnown(text: string): Map<string, number> {
  const best = new Map<string, number>();
  for (const line of text.split(/\r?\n/).slice(1)) {
    const [name, cost] = line.split(',');
    if (name && cost !== undefined && Number.isFinite(Number(cost))) best.set(name.trim(), Number(cost));
  }
  return best;
}
