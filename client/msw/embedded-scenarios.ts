// The mocks' scenarios, embedded in the package when it is built from `mock/scenarios.yaml`, the
// file the mock servers read, so the handlers read no file at run time and a browser can run them.
import scenarios from '../../mock/scenarios.yaml';

/** The parsed scenarios file, checked against the contract when handlers are made. */
export const SCENARIOS_DATA: unknown = scenarios;

/** Where the scenarios come from, for the messages about them. */
export const SCENARIOS_SOURCE = 'mock/scenarios.yaml';
