// The mock's public entry: starting the mock and the validating proxy from code (tests, tools).
export { type MockOptions, type RunningMock, startMock } from './mock-server.ts';
export {
  proxyViolations,
  startValidatingProxy,
  type ValidatingProxyOptions,
  type Violation,
} from './validating-proxy.ts';
