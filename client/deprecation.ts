import type { Middleware } from 'openapi-fetch';
import { findLink } from './link-header.ts';

export interface DeprecationNotice {
  /** Method and contract path template, e.g. `GET /pets/{petId}`. */
  operation: string;
  /** The `Deprecation` header as sent (RFC 9745), e.g. `@1795219200`. */
  deprecation: string;
  /** The `Sunset` header (RFC 8594): when the operation stops working. */
  sunset: string | undefined;
  /** The whole `Link` header of the response. */
  link: string | undefined;
  /** The target of its `rel="successor-version"` link: what to use instead. */
  successor: string | undefined;
}

export type DeprecationHandler = (notice: DeprecationNotice) => void;

/** One warning line per operation, so a developer sees it in the console without being flooded. */
export const warnOnConsole: DeprecationHandler = ({ operation, sunset, successor }) => {
  const removal = sunset ? `; it will be removed on ${sunset}` : '';
  const replacement = successor ? `; use ${successor} instead` : '';
  console.warn(`Animal Store API: ${operation} is deprecated${removal}${replacement}.`);
};

/** Calls `notify` for the first response of each operation that carries `Deprecation`. */
export function deprecationNotices(notify: DeprecationHandler): Middleware {
  const noticed = new Set<string>();
  return {
    onResponse({ request, schemaPath, response }) {
      const deprecation = response.headers.get('Deprecation');
      const operation = `${request.method} ${schemaPath}`;
      if (deprecation === null || noticed.has(operation)) return;
      noticed.add(operation);
      const link = response.headers.get('Link');
      notify({
        operation,
        deprecation,
        sunset: response.headers.get('Sunset') ?? undefined,
        link: link ?? undefined,
        successor: findLink(link, 'successor-version'),
      });
    },
  };
}
