// The architecture of ../shared/architecture.md as rules (`npm run lint:boundaries`, part of npm test):
// data flows from the contract outwards, the app core stays browser-safe, and each folder imports
// only what its row of the sketch allows.
/** A folder's own files, as a path pattern. */
const inside = (...folders) => `^(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'contract-reads-only-generated',
      comment: 'contract/ is the one reader of the bundled document: it imports generated/ and nothing else of ours.',
      severity: 'error',
      from: { path: inside('contract') },
      to: { path: inside('core', 'fuzz', 'mcp', 'server', 'mock', 'client', 'scripts', 'test', 'bench', 'openapi') },
    },
    {
      name: 'pipeline-reads-the-working-copy',
      comment:
        'The pipeline builds generated/, so it reads the documents it is given, never contract/bundled.ts, which loads the bundle in generated/ (stale or missing while the pipeline runs).',
      severity: 'error',
      from: { path: '^scripts/pipeline/' },
      to: { path: '^contract/bundled\\.ts$' },
    },
    {
      name: 'generated-imports-nothing',
      comment: 'generated/ is the pipeline’s output and is never edited: it cannot depend on code.',
      severity: 'error',
      from: { path: inside('generated') },
      to: { pathNot: inside('generated'), dependencyTypesNot: ['npm', 'npm-dev', 'core'] },
    },
    {
      name: 'node-layer-serves-all',
      comment:
        'node/ is the Node.js layer the server, the mocks and the tools stand on (listening, the HTTP/1.1 front, log output): it imports the core and generated/, nothing above it.',
      severity: 'error',
      from: { path: inside('node') },
      to: { path: inside('server', 'mock', 'mcp', 'client', 'scripts', 'test', 'bench', 'contract') },
    },
    {
      name: 'core-is-shared-by-all',
      comment: 'The app core is what server, mocks and MSW share: it imports only contract/ and generated/.',
      severity: 'error',
      from: { path: inside('core') },
      to: { path: inside('fuzz', 'mcp', 'server', 'mock', 'client', 'scripts', 'test', 'bench', 'node') },
    },
    {
      name: 'core-is-browser-safe',
      comment: 'The app core runs in browsers (MSW, the docs console): no Node.js built-in modules.',
      severity: 'error',
      from: { path: inside('core') },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'server-is-not-a-tool',
      comment: 'server/ imports the core and the contract, never the pipeline, the mocks or the client.',
      severity: 'error',
      from: { path: inside('server') },
      to: { path: inside('fuzz', 'mcp', 'mock', 'client', 'scripts', 'test', 'bench') },
    },
    {
      name: 'mock-from-the-core',
      comment: 'mock/ serves from the core and the contract, never from the pipeline, the client or the tests.',
      severity: 'error',
      from: { path: inside('mock') },
      to: { path: inside('fuzz', 'mcp', 'client', 'scripts', 'test', 'bench') },
    },
    {
      name: 'mock-not-the-server-service',
      comment: 'The mocks may share the server’s configuration, never its storage, keys or handlers.',
      severity: 'error',
      from: { path: inside('mock') },
      to: { path: inside('server'), pathNot: '^server/process/config\\.ts$' },
    },
    {
      name: 'mock-app-stands-on-the-core',
      comment:
        'mock/app/ is what MSW and the docs console run in browsers: it imports the core and the contract, nothing of the Node layer or of the mock servers.',
      severity: 'error',
      from: { path: '^mock/app/' },
      to: { path: '^(node|mock/node)/' },
    },
    {
      name: 'mock-app-is-browser-safe',
      comment: 'mock/app/ runs in browsers (MSW, the docs console): no Node.js built-in modules.',
      severity: 'error',
      from: { path: '^mock/app/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'fuzzer-reads-only-the-contract',
      comment:
        'The fuzzer generates requests from any contract and judges the answers: it imports contract/, the Node layer (its command line) and the error catalogue, nothing else of ours, so it works against any server.',
      severity: 'error',
      from: { path: inside('fuzz') },
      to: {
        path: inside(
          'core',
          'mcp',
          'server',
          'mock',
          'client',
          'scripts',
          'test',
          'bench',
          'generated',
          'support',
          'openapi',
        ),
        pathNot: '^core/errors\\.ts$',
      },
    },
    {
      name: 'mcp-stands-on-the-contract',
      comment:
        'mcp/ offers the contract’s operations as tools for agents: it reads contract/, calls through the client package, starts the stateful mock for --mock, and takes the Node layer’s command line and the error catalogue; nothing of the server, the pipeline, the fuzzer or the tests.',
      severity: 'error',
      from: { path: inside('mcp') },
      to: {
        path: inside('core', 'server', 'mock', 'fuzz', 'scripts', 'test', 'bench', 'support', 'generated', 'openapi'),
        pathNot: '^(core/errors|mock/node/stateful-server)\\.ts$',
      },
    },
    {
      name: 'client-ships-browser-code',
      comment:
        'client/ is the package others install: it takes the core, the browser-safe mock and the contract, nothing of the server or the tools.',
      severity: 'error',
      from: { path: inside('client') },
      to: { path: '^(fuzz|mcp|server|node|mock/node|scripts|test|bench)/' },
    },
    {
      name: 'scripts-read-the-contract',
      comment: 'The pipeline reads the contract through contract/; it never imports what it builds or checks.',
      severity: 'error',
      from: { path: inside('scripts'), pathNot: '^scripts/docs/console/' },
      to: { path: inside('server', 'mock', 'mcp', 'client', 'core', 'test', 'bench') },
    },
    {
      name: 'docs-console-uses-the-package',
      comment:
        'The docs’ Try it console is a browser program on the page: it runs the client package’s public MSW entry (try-it on the page’s mock, as the sketch has it), as any consumer of the package does, and nothing else of ours but its own data.',
      severity: 'error',
      from: { path: '^scripts/docs/console/' },
      to: {
        path: inside('server', 'mock', 'client', 'core', 'node', 'test', 'bench'),
        pathNot: '^client/msw/index\\.ts$',
      },
    },
    {
      name: 'tests-and-bench-apart',
      comment: 'test/ checks the arrows and bench/ measures them: neither imports the other.',
      severity: 'error',
      from: { path: inside('bench') },
      to: { path: inside('test') },
    },
    {
      name: 'bench-apart-from-tests',
      comment: 'test/ checks the arrows and bench/ measures them: neither imports the other.',
      severity: 'error',
      from: { path: inside('test') },
      to: { path: inside('bench') },
    },
    {
      name: 'telemetry-libraries-on-demand',
      comment:
        'prom-client and OpenTelemetry are loaded only when METRICS_PORT or an OTLP endpoint asks for them (a dynamic import), so that a server without them loads nothing of them.',
      severity: 'error',
      from: { path: inside('server', 'core', 'node', 'contract') },
      to: {
        // Under node_modules/ wherever it is: a copy of the repository may link to this one's.
        path: '(^|/)node_modules/(prom-client|@opentelemetry/)',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'telemetry-modules-on-demand',
      comment: 'The modules that hold prom-client and OpenTelemetry are themselves imported on demand.',
      severity: 'error',
      from: { path: inside('server'), pathNot: '^server/telemetry/(metrics|tracing)\\.ts$' },
      to: { path: '^server/telemetry/(metrics|tracing)\\.ts$', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'backing-services-on-demand',
      comment:
        'pg and ioredis are loaded only when DATABASE_URL or REDIS_URL asks for them (a dynamic import), so that a server on SQLite and process memory loads nothing of them; the URL rules (address.ts) need neither.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/(storage/postgres|limiter|tools)/' },
      to: {
        path: '^server/(storage/postgres|limiter)/',
        pathNot: '^server/storage/postgres/address\\.ts$',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one: import order then decides what is defined.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|client/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
