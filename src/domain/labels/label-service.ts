import { AppError, type ErrorDetail, invalidField } from '../../errors.ts';
import type { Outbox, OutboxEvent } from '../../events/outbox.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { type OrderLinks, orderJson } from '../orders/order-json.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, UnitOfWork } from '../shared/stores.ts';
import {
  LABEL_FORMATS,
  LABEL_SIZES,
  type LabelContent,
  type LabelFormat,
  type LabelSize,
  labelsOfOrder,
} from './label.ts';
import { renderLabelsZpl } from './label-zpl.ts';
import type { LabelledOrder, LabelPrintStore, LabelStore } from './ports.ts';
import {
  parseSortCodeFile,
  type SortCodeFileFormat,
  type SortCodeRule,
  sortCodeTable,
} from './sort-codes.ts';

// PDFKit and the barcode encoders (~45 modules, ~10 MB) are loaded by the first PDF asked for, not by
// every process that wires the services (the CLI, the worker, an API that prints no labels).
const pdfRenderer = async () => (await import('./label-pdf.ts')).renderLabelsPdf;

/** References in one batch (SPEC §10, issue #26). */
export const MAX_BATCH_REFS = 200;
/** Pages in one document: an order prints one label per unit, so 200 orders may be more pages. */
const MAX_LABELS_PER_DOCUMENT = 1000;

/** An order without a delivery address, or cancelled, is not collected: it has no label. */
const NOT_COLLECTABLE: ReadonlySet<OrderStatus> = new Set(['awaiting_address', 'cancelled']);

export interface LabelOptions {
  format: LabelFormat;
  size: LabelSize;
}

/** A printed document, ready to send. */
export interface PrintedLabels {
  body: Buffer;
  contentType: 'application/pdf' | 'application/zpl';
  filename: string;
  /** Labels (pages or ZPL formats) in it. */
  labels: number;
}

/** A document rendered and the first prints it makes (their events made), not recorded yet. */
interface PreparedPrint {
  printed: PrintedLabels;
  firstPrints: {
    brandId: string;
    orderIds: number[];
    at: Date;
    events: { trackingRef: string; event: OutboxEvent }[];
  } | null;
}

export interface LabelService {
  /**
   * One order's labels (one per unit). Another brand's order or an unknown reference: 404 exactly
   * like `GET /orders/{ref}`; an order that cannot be collected: 422 `not_labellable`.
   */
  printOne(brandId: string, trackingRef: string, options: LabelOptions): Promise<PrintedLabels>;
  /**
   * The labels of 1 to 200 of the brand's orders, in the order given, in one document. Any
   * reference that names no order of the brand (422 `unknown_orders`) or an order that cannot be
   * collected (422 `not_labellable`) is named, and nothing is printed nor recorded. A reference
   * given twice is a 400 naming the repeat.
   */
  printBatch(brandId: string, trackingRefs: readonly string[], options: LabelOptions): Promise<PrintedLabels>;
  /**
   * `printBatch` up to the record: checked and rendered, the first prints' events made, nothing
   * recorded; `recordPrint` records it. A caller writing inside its own transaction (an
   * Idempotency-Key's) prepares first, so a connection it holds never waits for another.
   */
  prepareBatch(
    brandId: string,
    trackingRefs: readonly string[],
    options: LabelOptions,
  ): Promise<PreparedPrint>;
  /** Records a prepared print's first prints (`stores`: the caller's transaction) and returns its document. */
  recordPrint(prepared: PreparedPrint, stores?: Pick<Stores, 'labelPrints'>): Promise<PrintedLabels>;
  /** The operator's table (`dlv sort-codes list`). */
  sortCodes(): Promise<SortCodeRule[]>;
  /**
   * Replaces the table from a file (`dlv sort-codes import`), checked whole first; recorded in the
   * audit trail (`sort_codes.imported`) in the same transaction.
   */
  importSortCodes(text: string, format: SortCodeFileFormat, by: Author): Promise<{ rules: number }>;
}

/** The first ten of a list, for a message that must stay short (the details name them all). */
const listed = (items: readonly string[]) =>
  items.length > 10 ? `${items.slice(0, 10).join(', ')}… (${items.length} in all)` : items.join(', ');

/** Checks a format and a size given as text (the account area's forms; the API's schema does it too). */
export function labelOptions(format: string, size: string): LabelOptions {
  const details: ErrorDetail[] = [];
  if (!(LABEL_FORMATS as readonly string[]).includes(format))
    details.push({ field: 'format', message: `must be one of ${LABEL_FORMATS.join(', ')}` });
  if (!(LABEL_SIZES as readonly string[]).includes(size))
    details.push({ field: 'size', message: `must be one of ${LABEL_SIZES.join(', ')}` });
  if (details.length > 0)
    throw new AppError('invalid_request', details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
  return { format: format as LabelFormat, size: size as LabelSize };
}

export function labelService(deps: {
  store: LabelStore;
  /** The sort codes' import and its audit entry, in one transaction. */
  transact: UnitOfWork<{ sortCodes: Pick<LabelStore, 'sortCodes' | 'replaceSortCodes'>; audit: AuditStore }>;
  outbox: Outbox;
  clock: Clock;
  links: OrderLinks;
  carrierName: string;
  brandName(brandId: string): Promise<string>;
}): LabelService {
  const { store, outbox, clock, links } = deps;

  function notLabellable(orders: readonly LabelledOrder[], fieldOf: (o: LabelledOrder) => string): AppError {
    const details = orders.map((o) => ({
      field: fieldOf(o),
      message: `${o.trackingRef} is ${o.status}: only an order that can be collected has a label`,
    }));
    const message =
      orders.length === 1
        ? `Order ${orders[0]!.trackingRef} is ${orders[0]!.status}: only an order that can be collected (not awaiting_address, not cancelled) has a label.`
        : `${orders.length} orders cannot be collected (awaiting_address or cancelled) and have no label: ${listed(orders.map((o) => o.trackingRef))}.`;
    return new AppError('not_labellable', message, details);
  }

  /** Renders, then records the first prints with their events: a failed rendering records nothing. */
  async function print(
    brandId: string,
    orders: readonly LabelledOrder[],
    options: LabelOptions,
  ): Promise<PrintedLabels> {
    return record(await render(brandId, orders, options), store);
  }

  async function record(prepared: PreparedPrint, prints: LabelPrintStore): Promise<PrintedLabels> {
    const first = prepared.firstPrints;
    if (first) await prints.markLabelled(first.brandId, first.orderIds, first.at, first.events);
    return prepared.printed;
  }

  /** The document, and the first prints it makes with their events: nothing recorded. */
  async function render(
    brandId: string,
    orders: readonly LabelledOrder[],
    options: LabelOptions,
  ): Promise<PreparedPrint> {
    const total = orders.reduce((n, o) => n + o.quantity, 0);
    if (total > MAX_LABELS_PER_DOCUMENT)
      throw new AppError(
        'too_many_labels',
        `These orders make ${total} labels (one per unit); a document holds at most ${MAX_LABELS_PER_DOCUMENT}: print them in several batches.`,
      );
    const [table, brandName] = await Promise.all([
      store.sortCodes().then(sortCodeTable),
      deps.brandName(brandId),
    ]);
    const labels: LabelContent[] = orders.flatMap((order) =>
      labelsOfOrder(order, {
        carrier: deps.carrierName,
        brandName,
        sortCode: table.codeFor(order.deliveryPostcode, order.deliveryZone) ?? 'IDF',
      }),
    );
    const at = clock();
    const body =
      options.format === 'pdf'
        ? await (await pdfRenderer())(labels, options.size, at)
        : Buffer.from(renderLabelsZpl(labels, options.size), 'utf8');

    const first = orders.filter((o) => o.labelledAt === null);
    let firstPrints: PreparedPrint['firstPrints'] = null;
    if (first.length > 0) {
      const listeners = await outbox.jobsFor(brandId, 'order.labelled');
      const events = first.flatMap((order) => {
        const event = outbox.eventWith(listeners, brandId, 'order.labelled', at, () => ({
          order: orderJson(order, links),
          labelled_at: at.toISOString(),
        }));
        return event ? [{ trackingRef: order.trackingRef, event: event as OutboxEvent }] : [];
      });
      firstPrints = { brandId, orderIds: first.map((o) => o.id), at, events };
    }
    const name = orders.length === 1 ? `label-${orders[0]!.trackingRef}` : `labels-${orders.length}`;
    return {
      printed: {
        body,
        contentType: options.format === 'pdf' ? 'application/pdf' : 'application/zpl',
        filename: `${name}.${options.format}`,
        labels: labels.length,
      },
      firstPrints,
    };
  }

  const service: LabelService = {
    async printOne(brandId, trackingRef, options) {
      const ref = normaliseTrackingRef(trackingRef);
      const [order] = ref ? await store.findOrders(brandId, [ref]) : [];
      if (!order) throw new AppError('not_found', `No order with trackingRef "${trackingRef}".`);
      if (NOT_COLLECTABLE.has(order.status)) throw notLabellable([order], () => 'trackingRef');
      return print(brandId, [order], options);
    },

    async printBatch(brandId, trackingRefs, options) {
      return record(await service.prepareBatch(brandId, trackingRefs, options), store);
    },

    recordPrint: (prepared, stores) => record(prepared, stores?.labelPrints ?? store),

    async prepareBatch(brandId, trackingRefs, options) {
      if (trackingRefs.length === 0 || trackingRefs.length > MAX_BATCH_REFS)
        throw invalidField('tracking_refs', `must list 1 to ${MAX_BATCH_REFS} tracking references`);
      const refs = trackingRefs.map((r) => normaliseTrackingRef(r));
      const firstAt = new Map<string, number>();
      const repeats: ErrorDetail[] = [];
      refs.forEach((ref, i) => {
        if (ref === null) return;
        const seen = firstAt.get(ref);
        if (seen === undefined) firstAt.set(ref, i);
        else
          repeats.push({ field: `tracking_refs[${i}]`, message: `repeats tracking_refs[${seen}] (${ref})` });
      });
      if (repeats.length > 0)
        throw new AppError(
          'invalid_request',
          `Each order is listed once: ${repeats.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
          repeats,
        );
      const found = await store.findOrders(
        brandId,
        refs.filter((r): r is string => r !== null),
      );
      const byRef = new Map(found.map((o) => [o.trackingRef, o]));
      const unknown = trackingRefs.flatMap((given, i) => {
        const ref = refs[i];
        return ref && byRef.has(ref)
          ? []
          : [{ field: `tracking_refs[${i}]`, message: `no order of the brand has the reference "${given}"` }];
      });
      if (unknown.length > 0)
        throw new AppError(
          'unknown_orders',
          `${unknown.length} reference(s) name no order of the brand; nothing was printed: ${listed(unknown.map((d) => d.field))}.`,
          unknown.slice(0, 50),
        );
      const orders = refs.map((ref) => byRef.get(ref!)!);
      const blocked = orders.filter((o) => NOT_COLLECTABLE.has(o.status));
      if (blocked.length > 0)
        throw notLabellable(blocked.slice(0, 50), (o) => `tracking_refs[${orders.indexOf(o)}]`);
      return render(brandId, orders, options);
    },

    sortCodes: () => store.sortCodes(),

    async importSortCodes(text, format, by) {
      const rules = parseSortCodeFile(text, format);
      await deps.transact(async (tx) => {
        const before = await tx.sortCodes.sortCodes();
        await tx.sortCodes.replaceSortCodes(rules, clock());
        await tx.audit.record({
          action: 'sort_codes.imported',
          by,
          object: { type: 'sort_codes', id: 'table' },
          changes: { rules: { before: before.length, after: rules.length } },
          details: { format },
        });
      });
      return { rules: rules.length };
    },
  };
  return service;
}
