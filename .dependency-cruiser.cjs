// The layer directions of docs/architecture.md, checked by `npm run depcheck` (and in .ci/run).
// Type-only imports count (tsPreCompilationDeps): a contract is a dependency too. Test files
// co-located under src/ (*.test.ts) may reach across layers and into test/support, so the layer
// rules look at production modules only; the cycle rule looks at everything.
const TEST = '\\.test\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle means two modules cannot be understood, tested or moved apart: break it with a leaf module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-inner',
      severity: 'error',
      comment:
        'The domain declares the ports it needs; db/, infra/ and the surfaces implement or use them, never the reverse.',
      from: { path: '^src/domain/', pathNot: TEST },
      to: { path: '^src/(db|http|infra|jobs|connectors|cli)/' },
    },
    {
      name: 'db-below-surfaces',
      severity: 'error',
      comment:
        'Storage knows no route, command or job handler. The one exception is the leaf module of job names and specs, which SQL that enqueues a job in the change’s own statement and the handlers both import.',
      from: { path: '^src/db/', pathNot: TEST },
      to: { path: '^src/(http|cli|jobs)/', pathNot: '^src/jobs/job-names\\.ts$' },
    },
    {
      name: 'infra-is-an-adapter',
      severity: 'error',
      comment:
        'Infrastructure adapters (outbound HTTP, mail, queue, rate limits, embedded PostgreSQL) implement the ports the domain declares, so they may import those (types); they know no surface, storage, job handler or connector.',
      from: { path: '^src/infra/', pathNot: TEST },
      to: { path: '^src/(http|db|jobs|connectors|cli)/' },
    },
    {
      name: 'events-knows-no-outer-layer',
      severity: 'error',
      comment:
        'The event catalogue and the outbox are used by every layer’s changes: they know no job, queue, storage, surface or connector. The list of who listens to what names jobs and queues: it is composition (src/outbox-subscribers.ts).',
      from: { path: '^src/events/', pathNot: TEST },
      to: { path: '^src/(db|http|infra|jobs|connectors|cli)/' },
    },
    {
      name: 'i18n-knows-no-outer-layer',
      severity: 'error',
      comment:
        'The words are below every surface and adapter (the mail adapter and the CLI use them too): a shop platform brings its own wording, which the account area gives to the i18n module (src/http/account/words.ts).',
      from: { path: '^src/i18n/', pathNot: TEST },
      to: { path: '^src/(db|http|infra|jobs|connectors|cli|events)/' },
    },
    {
      name: 'http-not-on-cli',
      severity: 'error',
      comment: 'The HTTP surface and the CLI are two surfaces over the same core; neither uses the other.',
      from: { path: '^src/http/', pathNot: TEST },
      to: { path: '^src/cli/' },
    },
    {
      name: 'routes-take-narrow-contexts',
      severity: 'error',
      comment:
        'A surface plugin or route module declares the context it uses (the domain services it calls), never the whole dependency bag: buildApp(deps) composes them. TODO(#24): the connectors’ routes follow with the connector registry.',
      from: { path: '^src/http/', pathNot: `${TEST}|^src/http/connectors/` },
      to: { path: '^src/deps\\.ts$' },
    },
    {
      name: 'src-not-on-tests-or-bench',
      severity: 'error',
      comment: 'Production code never loads test support or benchmark code.',
      from: { path: '^src/', pathNot: TEST },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
