// The mock's module API, used by the contract suite and by `npm run mock`.
export { startMock, type MockOptions, type RunningMock } from './mock-server.ts';
export { proxyViolations, startValidatingProxy, type ValidatingProxyOptions, type Violation } from './validating-proxy.ts';
