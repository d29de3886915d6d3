// The mock's public entry: starting the mock and the validating proxy from code (tests, tools).
export { startMock, type MockOptions, type RunningMock } from './mock-server.ts';
export { proxyViolations, startValidatingProxy, type ValidatingProxyOptions, type Violation } from './validating-proxy.ts';
