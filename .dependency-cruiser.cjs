/**
 * The floor plan of the code (README.md, "Layout"), checked by `npm run check`: no import loops,
 * and imports run one way. Server: contract <- db / providers / audio / storage <- services <- jobs /
 * routes <- app / main <- cli. Web: lib / components <- features <- app, features never import each other,
 * and the web app never imports the server.
 */
const server = '^apps/server/src/';
const testFiles = '\\.test\\.ts$';
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import loop: split the shared part into a lower module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-only-zod',
      comment: 'The contract is shared by server and browser: it imports zod and itself only.',
      severity: 'error',
      from: { path: '^packages/contract/src/' },
      to: { pathNot: ['^packages/contract/src/', 'node_modules/zod/'] },
    },
    {
      name: 'web-never-imports-server',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'low-layers-import-no-services',
      comment: 'db, providers, audio, analysis, storage and the small shared modules sit below the services.',
      severity: 'error',
      from: {
        path: `${server}(db|providers|audio|analysis|storage|types)/|${server}(config|text|processes|zoned-time)\\.ts$`,
        pathNot: testFiles,
      },
      to: {
        path: `${server}(services|jobs|routes|cli|demo|recorder|bench|test)/|${server}(app|main|cli|http-errors|static-files)\\.ts$`,
      },
    },
    {
      name: 'config-is-lowest',
      comment: 'Every module may read the configuration; it reads nothing of ours.',
      severity: 'error',
      from: { path: `${server}config\\.ts$` },
      to: { path: server },
    },
    {
      name: 'services-import-no-callers',
      comment: 'Services are called by jobs, routes and commands; they never call them.',
      severity: 'error',
      from: { path: `${server}services/`, pathNot: testFiles },
      to: {
        path: `${server}(jobs|routes|cli|demo|recorder|bench|test)/|${server}(app|main|cli|http-errors|static-files)\\.ts$`,
      },
    },
    {
      name: 'jobs-and-routes-import-no-callers',
      severity: 'error',
      from: { path: `${server}(jobs|routes)/`, pathNot: testFiles },
      to: { path: `${server}(cli|demo|bench|test)/|${server}(main|cli)\\.ts$` },
    },
    {
      name: 'routes-do-not-run-jobs',
      comment: 'A route calls a service, which may queue a job; it never runs a job handler itself.',
      severity: 'error',
      from: { path: `${server}routes/`, pathNot: testFiles },
      to: { path: `${server}jobs/(?!queue\\.ts$)` },
    },
    {
      name: 'recorder-is-a-client',
      comment: 'The device recorder talks to the server over HTTP; it shares no server internals.',
      severity: 'error',
      from: { path: `${server}recorder/`, pathNot: testFiles },
      to: { path: `${server}(db|services|jobs|routes|demo)/` },
    },
    {
      name: 'web-features-are-separate',
      comment: 'A screen never imports another screen; what two share moves to components/ or lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-imports-no-screens',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
