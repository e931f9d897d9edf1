import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LivraisonDlvTrigger } from '../connectors/n8n/nodes/LivraisonDlvTrigger/LivraisonDlvTrigger.node.ts';
import { EVENT_TYPES } from '../src/events/catalogue.ts';

// The connector packages and the docs each copy the event list, in the words of their own
// platform: a new event in the catalogue fails here until every copy names it.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const catalogue = [...EVENT_TYPES].sort();

const subjects = new Set(catalogue.map((type) => type.split('.')[0]));

/** What `text` names (in backticks) like an event: a catalogued subject, a dot, a verb. */
function eventsNamedIn(text: string): string[] {
  return [...text.matchAll(/`([a-z_]+)\.([a-z_]+)`/g)]
    .filter((m) => subjects.has(m[1]!))
    .map((m) => m[0].slice(1, -1));
}

/** The text of a Markdown file from the first line containing `from` to the next blank line. */
function paragraph(path: string, from: string): string {
  const text = read(path);
  const start = text.indexOf(from);
  expect(start, `${path} has "${from}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n\n', start);
  return text.slice(text.lastIndexOf('\n\n', start), end === -1 ? undefined : end);
}

describe('the event lists beside the catalogue', () => {
  it("Make's dedicated webhook offers every event, and no other", () => {
    const webhook = JSON.parse(read('connectors/make/webhooks/events.json'));
    const options = webhook.parameters.find((p: { name: string }) => p.name === 'event_types').options;
    expect(options.map((o: { value: string }) => o.value).sort()).toEqual(catalogue);
    for (const option of options) expect(option.label).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
  });

  it("Make's instant trigger maps every part of an event's data", () => {
    const module = JSON.parse(read('connectors/make/modules/watch-events.json'));
    const output = Object.values(module.communication.output).join(' ');
    for (const part of ['order', 'previous_status', 'labelled_at', 'invoice', 'credit_note', 'pickup'])
      expect(output).toContain(`body.data.${part}`);
  });

  it("n8n's trigger node offers every event, and no other", () => {
    const property = new LivraisonDlvTrigger().description.properties.find((p) => p.name === 'events');
    const options = (property?.options ?? []) as { name: string; value: string; description: string }[];
    expect(options.map((o) => o.value).sort()).toEqual(catalogue);
    for (const option of options) expect(option.description).not.toBe('');
  });

  it("Zapier's triggers (a chosen few) listen only to catalogued events", () => {
    const dir = new URL('../connectors/zapier/triggers/', import.meta.url);
    const types = readdirSync(dir).flatMap((file) =>
      [...readFileSync(new URL(file, dir), 'utf8').matchAll(/eventType: '([^']+)'/g)].map((m) => m[1]!),
    );
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(catalogue).toContain(type);
  });

  it.each([
    ['docs/product-rules.md', 'Events: `order.created`'],
    ['docs/webhooks.md', 'Events: `order.created`'],
    ['connectors/make/README.md', '`modules/watch-events.json`'],
    ['connectors/n8n/README.md', 'Starts a workflow on the chosen events'],
  ])('%s names every event where it lists them', (path, from) => {
    const named = eventsNamedIn(paragraph(path, from));
    expect([...new Set(named)].sort()).toEqual(catalogue);
  });
});
