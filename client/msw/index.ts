// `@animal-store/client/msw`: mocks of the Animal Store API for Mock Service Worker, in browsers and in Node.
import { loadContract } from '../../contract/bundled.ts';
import { typedHttp } from './typed-http.ts';

export type { components, paths } from '../../generated/openapi.ts';
export { createMockHandlers, type MockHandlersOptions, scenarioNames } from './mock-handlers.ts';
export type { PathParamsOf, PathWith, RequestBodyOf, ResponseBodyOf, TypedHttp, TypedResolver } from './typed-http.ts';

/**
 * MSW's `http`, typed by the contract, for your own overrides:
 * `http.get('/pets/{petId}', () => HttpResponse.json(pet))` handles `GET /v1/pets/:petId` at any
 * origin, and a body the contract does not declare for the operation does not compile.
 */
export const http = typedHttp(loadContract().operations);
