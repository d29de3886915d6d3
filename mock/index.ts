// The mock's public entry: starting the mocks and the validating proxy from code (tests, tools).
export {
  DEFAULT_DYNAMIC_PETS,
  type MockOptions,
  type RunningMock,
  type RunningStaticMock,
  startMock,
} from './mock-server.ts';
export {
  type RunningStatefulMock,
  STATEFUL_MOCK_KEY,
  type StatefulMockOptions,
  startStatefulMock,
} from './stateful.ts';
export { proxyViolations, startValidatingProxy, type ValidatingProxyOptions } from './validating-proxy.ts';
