/**
 * Writes the Postman collection (v2.1) of the public API from openapi.json, one request per
 * operation in folders by tag, with the examples as bodies, and its environments (production with a
 * live key, production with a test key, a local server).
 *
 *   npm run collection            rewrite collections/
 *   npm run collection -- --check fail when collections/ differs from what openapi.json gives (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstSentence, type OpenApiDocument, readOperations } from './sdk-model.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function generateCollection(document: OpenApiDocument): Record<string, string> {
  const operations = readOperations(document);
  const folders = new Map<string, unknown[]>();
  for (const op of operations) {
    const segments = op.path
      .split('/')
      .filter(Boolean)
      .map((s) => s.replace(/^\{(\w+)\}$/, ':$1'));
    const header: { key: string; value: string; description?: string }[] = [
      { key: 'Accept', value: op.response ? 'application/json' : '*/*' },
    ];
    if (op.idempotent) {
      header.push({
        key: 'Idempotency-Key',
        value: '{{$guid}}',
        description: 'A new key per send; resend the same value to retry safely.',
      });
    }
    if (op.body) header.push({ key: 'Content-Type', value: 'application/json' });
    const request: Record<string, unknown> = {
      method: op.method,
      header,
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(op.queryParams.length
          ? {
              query: op.queryParams.map((p) => ({
                key: p.name,
                value: p.schema.default === undefined ? '' : String(p.schema.default),
                description: firstSentence(p.description),
                disabled: true,
              })),
            }
          : {}),
        ...(op.pathParams.length
          ? {
              variable: op.pathParams.map((p) => ({
                key: p.name,
                value: '',
                description: firstSentence(p.description),
              })),
            }
          : {}),
      },
      description: `${op.description}${op.deprecated ? '\n\n**Deprecated.**' : ''}`,
    };
    if (op.body) {
      request.body = {
        mode: 'raw',
        raw: JSON.stringify(op.body.example ?? {}, null, 2),
        options: { raw: { language: 'json' } },
      };
    }
    const folder = folders.get(op.tag) ?? [];
    folder.push({ name: op.summary || op.operationId, request });
    folders.set(op.tag, folder);
  }
  const collection = {
    info: {
      name: document.info.title,
      description: `${document.info.description ?? ''}\n\nGenerated from openapi.json (version ${document.info.version}) by scripts/generate-collection.ts. Choose an environment: its \`baseUrl\` and \`apiKey\` are used by every request.`,
      version: document.info.version,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
    item: [...folders].map(([name, item]) => ({ name, item })),
    variable: [{ key: 'baseUrl', value: document.servers?.[0]?.url ?? '' }],
  };
  const environment = (name: string, baseUrl: string, apiKey: string) =>
    `${JSON.stringify(
      {
        name,
        values: [
          { key: 'baseUrl', value: baseUrl, type: 'default', enabled: true },
          { key: 'apiKey', value: apiKey, type: 'secret', enabled: true },
        ],
        _postman_variable_scope: 'environment',
      },
      null,
      2,
    )}\n`;
  const production = document.servers?.[0]?.url ?? '';
  return {
    'collections/dlv.postman_collection.json': `${JSON.stringify(collection, null, 2)}\n`,
    'collections/test-mode.postman_environment.json': environment(
      'Delivery Orders API — test mode',
      production,
      'dlv_test_<your test key: account area → API keys → test data>',
    ),
    'collections/live.postman_environment.json': environment(
      'Delivery Orders API — live',
      production,
      'dlv_<your live key>',
    ),
    'collections/local.postman_environment.json': environment(
      'Delivery Orders API — local server',
      'http://127.0.0.1:3000/public/v1',
      'dlv_<a key from ./dlv keys create>',
    ),
  };
}

function main(): void {
  const check = process.argv.includes('--check');
  const document = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')) as OpenApiDocument;
  const stale: string[] = [];
  for (const [file, text] of Object.entries(generateCollection(document))) {
    const target = path.join(root, file);
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // not written yet
    }
    if (current === text) continue;
    if (check) stale.push(file);
    else writeFileSync(target, text);
  }
  if (stale.length) {
    console.error(
      `The collection is out of date with openapi.json (run npm run collection): ${stale.join(', ')}`,
    );
    process.exit(1);
  }
  console.log(
    check ? 'The collection matches openapi.json.' : 'The collection is written from openapi.json.',
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
