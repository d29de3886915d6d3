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
      to: { path: inside('core', 'fuzz', 'server', 'mock', 'client', 'scripts', 'test', 'bench', 'openapi') },
    },
    {
      name: 'contract-through-its-index',
      comment: 'Outside contract/, the contract is read through contract/index.ts, its one public face.',
      severity: 'error',
      from: { pathNot: inside('contract', 'scripts') },
      to: { path: inside('contract'), pathNot: '^contract/index\\.ts$' },
    },
    {
      name: 'pipeline-through-the-readers',
      comment:
        'The pipeline builds the bundle, so it reads documents through contract/readers.ts (which never loads generated/) or the index.',
      severity: 'error',
      from: { path: inside('scripts') },
      to: { path: inside('contract'), pathNot: '^contract/(index|readers)\\.ts$' },
    },
    {
      name: 'generated-imports-nothing',
      comment: 'generated/ is the pipeline’s output and is never edited: it cannot depend on code.',
      severity: 'error',
      from: { path: inside('generated') },
      to: { pathNot: inside('generated'), dependencyTypesNot: ['npm', 'npm-dev', 'core'] },
    },
    {
      name: 'core-is-shared-by-all',
      comment: 'The app core is what server, mocks and MSW share: it imports only contract/ and generated/.',
      severity: 'error',
      from: { path: inside('core') },
      to: { path: inside('fuzz', 'server', 'mock', 'client', 'scripts', 'test', 'bench') },
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
      to: { path: inside('fuzz', 'mock', 'client', 'scripts', 'test', 'bench') },
    },
    {
      name: 'mock-from-the-core',
      comment: 'mock/ serves from the core and the contract, never from the pipeline, the client or the tests.',
      severity: 'error',
      from: { path: inside('mock') },
      // One known exception, to be removed: `npm run mock`'s watch mode loads the pipeline's watch
      // loop into its own process (a dynamic import after it listens) instead of running it as a child.
      to: { path: inside('fuzz', 'client', 'scripts', 'test', 'bench'), pathNot: '^scripts/pipeline\\.ts$' },
    },
    {
      name: 'mock-not-the-server-service',
      comment:
        'The mocks may share the server’s Node.js process plumbing (listening, configuration), never its storage, keys or handlers.',
      severity: 'error',
      from: { path: inside('mock') },
      to: { path: inside('server'), pathNot: '^server/(listen|config|http/[^/]+)\\.ts$' },
    },
    {
      name: 'fuzzer-reads-only-the-contract',
      comment:
        'The fuzzer generates requests from any contract and judges the answers: it imports contract/ and libraries, nothing else of ours, so it works against any server.',
      severity: 'error',
      from: { path: inside('fuzz') },
      to: {
        path: inside('core', 'server', 'mock', 'client', 'scripts', 'test', 'bench', 'generated', 'support', 'openapi'),
      },
    },
    {
      name: 'client-ships-browser-code',
      comment:
        'client/ is the package others install: it takes the core, the browser-safe mock and the contract, nothing of the server or the tools.',
      severity: 'error',
      from: { path: inside('client') },
      to: { path: inside('fuzz', 'server', 'scripts', 'test', 'bench') },
    },
    {
      name: 'scripts-read-the-contract',
      comment: 'The pipeline reads the contract through contract/; it never imports what it builds or checks.',
      severity: 'error',
      from: { path: inside('scripts') },
      // The docs' Try it console (scripts/docs/console/) bundles the client package's MSW entry, as
      // the architecture's sketch has it (try-it on the page's mock), with the client build's YAML
      // plugin; the docs build writes the compressed forms the server reads, as one module says.
      to: {
        path: inside('server', 'mock', 'client', 'core', 'test', 'bench'),
        pathNot: '^(client/(msw/index|build/build-client)|server/docs-compression)\\.ts$',
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
      name: 'no-cycles',
      comment: 'A cycle makes two modules one: import order then decides what is defined.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|client/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
