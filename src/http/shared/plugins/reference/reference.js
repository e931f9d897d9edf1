// The reference page's start (no inline script: the page's CSP allows this origin's files only).
// Reads the OpenAPI document, adds code samples in curl and the three official SDKs to each
// operation (Redoc's x-codeSamples), then renders it with Redoc (an ES module), served from here.
import { init } from './redoc.standalone.js';

(() => {
  const root = document.getElementById('reference');
  const specUrl = root.getAttribute('data-spec');

  function camelToSnake(name) {
    return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  }
  function sampleBody(operation) {
    const media =
      operation.requestBody &&
      operation.requestBody.content &&
      operation.requestBody.content['application/json'];
    if (!media || !media.examples) return null;
    const first = Object.keys(media.examples)[0];
    return first ? media.examples[first].value : null;
  }
  function samples(base, path, method, operation) {
    const id = operation.operationId;
    const pathParams = (operation.parameters || []).filter((p) => p.in === 'path');
    const args = pathParams.map(() => "'DLV-7K3M9Q2XHP'");
    const concrete = path.replace(/\{[^}]+\}/g, 'DLV-7K3M9Q2XHP');
    const body = sampleBody(operation);
    const json = body ? JSON.stringify(body, null, 2) : null;
    let curl =
      'curl -X ' +
      method.toUpperCase() +
      " '" +
      base +
      concrete +
      "' \\\n  -H 'Authorization: Bearer $DLV_API_KEY'";
    const idempotent = (operation.parameters || []).some(
      (p) => p.in === 'header' && p.name === 'Idempotency-Key',
    );
    if (idempotent) curl += ' \\\n  -H "Idempotency-Key: $(uuidgen)"';
    if (json)
      curl += " \\\n  -H 'Content-Type: application/json' \\\n  -d '" + json.replace(/'/g, "'\\''") + "'";
    const tsArgs = args.concat(json ? [json] : []).join(', ');
    const phpArgs = args.concat(json ? [phpArray(body, '')] : []).join(', ');
    const pyArgs = args.concat(json ? [pythonValue(body, '')] : []).join(', ');
    const uses =
      id === 'getOpenApiDocument'
        ? []
        : [
            {
              lang: 'TypeScript',
              label: 'TypeScript',
              source:
                "import { DlvClient } from '@dlv/sdk';\n\nconst dlv = new DlvClient({ apiKey: process.env.DLV_API_KEY! });\nconst result = await dlv." +
                id +
                '(' +
                tsArgs +
                ');',
            },
            {
              lang: 'PHP',
              label: 'PHP',
              source:
                "$dlv = new Dlv\\Sdk\\Client(getenv('DLV_API_KEY'));\n$result = $dlv->" +
                id +
                '(' +
                phpArgs +
                ');',
            },
            {
              lang: 'Python',
              label: 'Python',
              source:
                'from dlv_sdk import Client\n\ndlv = Client(api_key=os.environ["DLV_API_KEY"])\nresult = dlv.' +
                camelToSnake(id) +
                '(' +
                pyArgs +
                ')',
            },
          ];
    return [{ lang: 'Shell', label: 'curl', source: curl }].concat(uses);
  }
  function phpArray(value, indent) {
    if (value === null) return 'null';
    if (Array.isArray(value)) return '[' + value.map((v) => phpArray(v, indent)).join(', ') + ']';
    if (typeof value === 'object') {
      const inner = indent + '    ';
      return (
        '[\n' +
        Object.keys(value)
          .map((k) => inner + "'" + k + "' => " + phpArray(value[k], inner))
          .join(',\n') +
        ',\n' +
        indent +
        ']'
      );
    }
    return typeof value === 'string' ? "'" + value.replace(/'/g, "\\'") + "'" : String(value);
  }
  function pythonValue(value, indent) {
    if (value === null) return 'None';
    if (value === true) return 'True';
    if (value === false) return 'False';
    if (Array.isArray(value)) return '[' + value.map((v) => pythonValue(v, indent)).join(', ') + ']';
    if (typeof value === 'object') {
      const inner = indent + '    ';
      return (
        '{\n' +
        Object.keys(value)
          .map((k) => inner + JSON.stringify(k) + ': ' + pythonValue(value[k], inner))
          .join(',\n') +
        ',\n' +
        indent +
        '}'
      );
    }
    return JSON.stringify(value);
  }

  fetch(specUrl, { headers: { accept: 'application/json' } })
    .then((response) => response.json())
    .then((spec) => {
      const base = spec.servers && spec.servers[0] ? spec.servers[0].url : '';
      Object.keys(spec.paths || {}).forEach((path) => {
        const item = spec.paths[path];
        ['get', 'post', 'put', 'patch', 'delete'].forEach((method) => {
          if (item[method]) item[method]['x-codeSamples'] = samples(base, path, method, item[method]);
        });
      });
      init(
        spec,
        {
          // No telemetry to Redocly's servers (the CSP would refuse it anyway).
          disableTelemetry: true,
          // The languages of the sample chooser, in this order: Redoc shows only the samples of the
          // languages listed (its default list has no TypeScript, so the TypeScript SDK's were hidden).
          codeSamples: {
            languages: [
              { lang: 'curl', label: 'curl' },
              { lang: 'TypeScript', label: 'TypeScript' },
              { lang: 'PHP', label: 'PHP' },
              { lang: 'Python', label: 'Python' },
            ],
          },
          hideDownloadButton: false,
          expandResponses: '200,201',
          jsonSampleExpandLevel: 3,
          sortTagsAlphabetically: false,
          theme: {
            colors: { primary: { main: '#0b5cab' } },
            typography: {
              fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
              headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
            },
            sidebar: { backgroundColor: '#f4f6fa' },
          },
        },
        root,
      );
    })
    .catch((error) => {
      root.textContent =
        'The reference could not load the API description (' + specUrl + '): ' + error.message;
    });
})();
