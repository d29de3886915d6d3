// MSW's `http`, typed by the contract: only the contract's paths and methods, path parameters by
// the contract's names, and a response body the operation declares. A handler answering a body
// the contract does not declare for it does not compile.
import { type HttpHandler, type HttpResponseResolver, http as mswHttp, type RequestHandlerOptions } from 'msw';
import type { paths } from '../../generated/openapi.ts';
import { anyOriginPattern } from './url-patterns.ts';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';

/** The contract's paths that have an operation for `method`. */
export type PathWith<M extends Method> = {
  [P in keyof paths]: undefined extends paths[P][M] ? never : P;
}[keyof paths];

type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The path parameters as MSW hands them over: by the contract's names, as strings. */
export type PathParamsOf<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends {
    parameters: { path?: infer Params };
  }
    ? { [Name in keyof NonNullable<Params>]: string }
    : Record<string, never>;

/** The JSON body the operation takes; never when it takes none. */
export type RequestBodyOf<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends {
    requestBody?: infer Body;
  }
    ? JsonOf<NonNullable<Body>>
    : never;

/** Every JSON body the operation declares, of any status. */
export type ResponseBodyOf<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends {
    responses: infer Responses;
  }
    ? { [Status in keyof Responses]: JsonOf<Responses[Status]> }[keyof Responses]
    : never;

export type TypedResolver<P extends keyof paths, M extends Method> = HttpResponseResolver<
  PathParamsOf<P, M>,
  // MSW wants a body type for requests without one too.
  [RequestBodyOf<P, M>] extends [never] ? undefined : RequestBodyOf<P, M>,
  ResponseBodyOf<P, M>
>;

type TypedMethod<M extends Method> = <P extends PathWith<M>>(
  path: P,
  resolver: TypedResolver<P, M>,
  options?: RequestHandlerOptions,
) => HttpHandler;

export type TypedHttp = { [M in Method]: TypedMethod<M> };

/**
 * `http.get('/pets/{petId}', resolver)` handles that contract operation at any origin, where the
 * service serves it (`*\/v1/pets/:petId`).
 */
export function typedHttp(operations: ReadonlyArray<{ method: string; path: string; servedPath: string }>): TypedHttp {
  const method =
    <M extends Method>(name: M): TypedMethod<M> =>
    (path, resolver, options) => {
      const operation = operations.find(
        (candidate) => candidate.path === path && candidate.method === name.toUpperCase(),
      );
      if (!operation) throw new Error(`The contract has no operation ${name.toUpperCase()} ${path}.`);
      return (mswHttp[name] as (pattern: string, resolve: unknown, options?: RequestHandlerOptions) => HttpHandler)(
        anyOriginPattern(operation.servedPath),
        resolver,
        options,
      );
    };
  return {
    get: method('get'),
    put: method('put'),
    post: method('post'),
    delete: method('delete'),
    patch: method('patch'),
    head: method('head'),
    options: method('options'),
  };
}
