import type { Config } from '../config.ts';
import { CONNECTORS } from '../connectors/registry.ts';
import type { seedDemoBrand, seedDemoCourier } from '../domain/brands/demo.ts';
import { ONE_TIME_PASSWORD_HOURS } from '../domain/couriers/courier-service.ts';
import { PUBLIC_PREFIX } from '../http/public/server-url.ts';

export interface BannerFacts {
  config: Config;
  port: number;
  readyMs: number;
  /** Where the embedded PostgreSQL lives; null with DATABASE_URL. */
  embeddedHome: string | null;
  runsWorker: boolean;
  /** The demo brand created on a brand-new embedded database, with its key (shown this once). */
  demo:
    | (NonNullable<Awaited<ReturnType<typeof seedDemoBrand>>> & {
        courier: Awaited<ReturnType<typeof seedDemoCourier>>;
      })
    | null;
}

/** What `npm start` tells the person who ran it: where things are, and the demo key once. */
export function startupBanner(facts: BannerFacts): string {
  const { config, port } = facts;
  const base = `http://${config.host}:${port}${PUBLIC_PREFIX}`;
  const lines = [
    '',
    `Delivery Orders API listening on ${base}  (ready in ${facts.readyMs} ms)`,
    `  database: ${facts.embeddedHome ? `embedded PostgreSQL in ${facts.embeddedHome}` : 'DATABASE_URL'}`,
    `  docs:     ${base}/docs`,
    `  account:  http://${config.host}:${port}/account  (sign up, API keys; tracking pages under /track)`,
    `  couriers: http://${config.host}:${port}/courier  (the couriers' phone app; dlv couriers, dlv rounds plan)`,
    `  ops:      http://${config.host}:${port}/ops/v1/docs  (people: dlv operators add; tools: dlv ops-tokens create${
      config.opsToken ? '; OPS_TOKEN is a bootstrap credential: unset it once they exist' : ''
    })`,
    `  worker:   ${facts.runsWorker ? 'running in this process' : 'off (RUN_WORKER=0); run `node dist/service.js worker`'}`,
    `  probes:   http://${config.host}:${port}/livez, /readyz`,
    `  shops:    ${CONNECTORS.map((c) => `${c.label} ${c.isOn(config) ? 'on' : c.offNotice}`).join(', ')} — connected from the account's Shops page (docs/connectors/README.md)`,
    `  sms:      ${
      config.twilio
        ? `Twilio from ${config.twilio.from}; set ${config.publicBaseUrl}/sms/twilio/inbound as the number's incoming-message webhook`
        : `written to ${config.dataDir}/sms (TWILIO_* unset; docs/recipients.md)`
    }`,
  ];
  if (config.sellerIsPlaceholder) {
    lines.push(
      '  invoices: issued with a placeholder seller identity; set SELLER_* (docs/operator-guide.md, Configuration)',
    );
  }
  if (facts.demo) {
    lines.push(
      '',
      `  Demo brand ${facts.demo.brand.id} created with an API key (shown once, keep it):`,
      `    ${facts.demo.key.key}`,
      '',
      `  Try: curl ${base}/me -H "Authorization: Bearer ${facts.demo.key.key}"`,
    );
    if (facts.demo.courier) {
      lines.push(
        '',
        `  Demo courier ${facts.demo.courier.email}, one-time password (shown once): ${facts.demo.courier.password}`,
        `    at http://${config.host}:${port}/courier/login: it signs in once, within ${ONE_TIME_PASSWORD_HOURS} hours, and the courier then`,
        `    chooses their own password (a new one: dlv couriers reset-password ${facts.demo.courier.email});`,
        '    the courier sees a round once `dlv rounds plan --date <day> --assign` gave it one',
      );
    }
  }
  return lines.join('\n');
}
