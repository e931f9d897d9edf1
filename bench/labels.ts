import type { Deps } from '../src/deps.ts';

/**
 * Labels: a batch of 200 orders printed as one A6 PDF (and as ZPL) through the label service, as
 * `POST /labels` does (orders read, sort codes, rendering, the first print recorded). Reports the
 * time per label and the document's size; target ≥ 200 labels/s for the PDF on 2 cores.
 * BENCH_LABEL_ROUNDS (default 5) batches each, the median reported.
 */
export async function benchLabels(deps: Deps, brandId: string, pickupAddress: string): Promise<string[]> {
  const count = 200;
  const rounds = Number(process.env.BENCH_LABEL_ROUNDS ?? 5);
  const refs: string[] = [];
  for (let i = 0; i < count; i++) {
    const order = await deps.orders.create(
      { id: brandId, defaultPickupAddress: pickupAddress },
      {
        customer_email: 'labels@example.com',
        delivery_address: `${i + 1} rue Oberkampf 750${String(1 + (i % 20)).padStart(2, '0')} Paris`,
        delivery_recipient: `Destinataire ${i + 1}`,
        delivery_phone: '06 12 34 56 78',
        reference: `#${10_000 + i}`,
      },
    );
    refs.push(order.trackingRef);
  }
  // Warm-up: bwip-js and pdfkit build their tables on first use.
  await deps.labels.printBatch(brandId, refs.slice(0, 5), { format: 'pdf', size: 'a6' });

  const measure = async (format: 'pdf' | 'zpl') => {
    const times: number[] = [];
    let bytes = 0;
    for (let r = 0; r < rounds; r++) {
      const started = performance.now();
      const printed = await deps.labels.printBatch(brandId, refs, { format, size: 'a6' });
      times.push(performance.now() - started);
      bytes = printed.body.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return { median, perLabel: median / count, perSecond: (count * 1000) / median, bytes };
  };
  const pdf = await measure('pdf');
  const zpl = await measure('zpl');
  const line = (name: string, m: typeof pdf) =>
    `labels (${name}, ${count} per batch, median of ${rounds}): ${m.median.toFixed(0)} ms a batch, ` +
    `${m.perLabel.toFixed(2)} ms a label, ${m.perSecond.toFixed(0)} labels/s; ${(m.bytes / 1024).toFixed(0)} KiB ` +
    `(${(m.bytes / count / 1024).toFixed(1)} KiB a label)`;
  return [`${line('PDF A6', pdf)} — target ≥ 200 labels/s`, line('ZPL A6', zpl)];
}
