// The docs' "Try it" console, bundled into the draft's page (console/assets.ts): a small form beside
// each operation Redoc renders, sending the request to the page's own mock or to a server the
// reader names. The mock is the client package's MSW handlers at an origin of its own (under
// `.invalid`, which no network resolves): on a page served over HTTP they run behind MSW's service
// worker (mockServiceWorker.js, next to the page), which answers the page's requests to that
// origin as a server would; a page opened from a file cannot register a service worker, and hands
// the request to the same handlers in the page. Requests to the reader's server pass through. The
// reader's key is kept in sessionStorage only: gone when the tab closes, never in a URL.
import { getResponse, type HttpHandler } from 'msw';
import { type SetupWorker, setupWorker } from 'msw/browser';
import { createMockHandlers, scenarioNames } from '../../../client/msw/index.ts';
import type { ConsoleData, ConsoleOperation } from './data.ts';

const data = JSON.parse(document.getElementById('docs-console-data')?.textContent ?? '{}') as ConsoleData;
/** The mock does not check keys; it asks for one all the same. */
const MOCK_KEY = 'any_key_works_with_the_mock';
const STORED = { target: 'docs-console-target', server: 'docs-console-server', key: 'docs-console-key' } as const;
const stored = (name: keyof typeof STORED) => sessionStorage.getItem(STORED[name]) ?? '';

const MOCK_ORIGIN = 'https://mock.invalid';
let scenario = 'default';
const mockHandlers = () => createMockHandlers({ baseUrl: `${MOCK_ORIGIN}${data.basePath}`, stateful: true, scenario });
let handlers: HttpHandler[] = mockHandlers();
const worker: Promise<SetupWorker | undefined> = startWorker();

async function startWorker(): Promise<SetupWorker | undefined> {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return undefined;
  const started = setupWorker(...handlers);
  try {
    await started.start({
      quiet: true,
      onUnhandledRequest: 'bypass',
      serviceWorker: { url: new URL('mockServiceWorker.js', location.href).href },
    });
    return started;
  } catch (error) {
    // A host that does not serve the worker's file: the page answers in place.
    console.warn('Try it: the mock runs in the page, without its service worker:', error);
    return undefined;
  }
}

async function choose(name: string): Promise<void> {
  scenario = name;
  handlers = mockHandlers();
  (await worker)?.resetHandlers(...handlers);
}

async function send(operation: ConsoleOperation, form: HTMLFormElement): Promise<Response> {
  const values = new FormData(form);
  const target = String(values.get('target'));
  const headers = new Headers();
  let path = operation.servedPath;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = String(values.get(`${parameter.in}:${parameter.name}`) ?? '');
    if (value === '') continue;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === 'query') query.append(parameter.name, value);
    else if (parameter.in === 'header') headers.set(parameter.name, value);
  }
  const key = target === 'mock' ? MOCK_KEY : String(values.get('key'));
  if (operation.needsKey && key !== '') headers.set('Authorization', `Bearer ${key}`);
  const body = operation.body === undefined ? undefined : String(values.get('body'));
  if (body !== undefined) headers.set('Content-Type', operation.bodyMediaType ?? 'application/json');
  const search = query.size > 0 ? `?${query}` : '';
  const origin = target === 'mock' ? MOCK_ORIGIN : serverRoot(String(values.get('server')));
  const request = new Request(`${origin}${path}${search}`, {
    method: operation.method,
    headers,
    ...(body !== undefined && { body }),
  });
  if (target !== 'mock' || (await worker)) return fetch(request);
  return (
    (await getResponse(handlers, request)) ??
    new Response(`The mock has no answer for ${request.method} ${request.url}.`, { status: 501 })
  );
}

/** The reader names the server as the contract's servers are written, with the base path (`/v1`). */
function serverRoot(named: string): string {
  const address = named.trim().replace(/\/+$/, '');
  return address.endsWith(data.basePath) ? address.slice(0, address.length - data.basePath.length) : address;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const created = Object.assign(document.createElement(tag), properties);
  created.append(...children);
  return created;
}

let controls = 0;
/** A control under its label, tied by id: a label around a select would name it with its options too. */
function labelled(text: string, control: HTMLElement): HTMLDivElement {
  controls += 1;
  control.id = `docs-console-control-${controls}`;
  return element(
    'div',
    { className: 'docs-console-field' },
    element('label', { htmlFor: control.id, textContent: text }),
    control,
  );
}

function consoleFor(operation: ConsoleOperation): HTMLElement {
  const title = `${operation.method} ${operation.servedPath}`;
  const form = element('form', { className: 'docs-console' });
  form.setAttribute('aria-label', `Try ${title}`);
  form.dataset.operation = operation.operationId;

  const target = element(
    'select',
    { name: 'target' },
    element('option', { value: 'mock', textContent: "This page's mock" }),
    element('option', { value: 'server', textContent: 'A server' }),
  );
  target.value = stored('target') || 'mock';
  const scenarios = element(
    'select',
    { name: 'scenario' },
    ...scenarioNames.map((name) => element('option', { value: name, textContent: name })),
  );
  scenarios.value = scenario;
  const server = element('input', { name: 'server', type: 'url', value: stored('server') || data.server });
  const key = element('input', { name: 'key', type: 'password', autocomplete: 'off', value: stored('key') });
  const mockOnly = element('div', { className: 'docs-console-mock' }, labelled('Scenario', scenarios));
  const serverOnly = element(
    'div',
    { className: 'docs-console-server' },
    labelled('Server', server),
    labelled('API key', key),
  );
  const showTarget = () => {
    mockOnly.hidden = target.value !== 'mock';
    serverOnly.hidden = target.value === 'mock';
  };
  showTarget();
  target.addEventListener('change', () => {
    sessionStorage.setItem(STORED.target, target.value);
    showTarget();
  });
  scenarios.addEventListener('change', () => void choose(scenarios.value));
  server.addEventListener('change', () => sessionStorage.setItem(STORED.server, server.value));
  key.addEventListener('input', () => sessionStorage.setItem(STORED.key, key.value));

  const parameters = operation.parameters.map((parameter) =>
    labelled(
      `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})`,
      element('input', {
        name: `${parameter.in}:${parameter.name}`,
        value: parameter.required ? parameter.example : '',
        placeholder: parameter.example,
        required: parameter.required,
      }),
    ),
  );
  const body =
    operation.body === undefined
      ? []
      : [labelled('Body', element('textarea', { name: 'body', rows: 5, value: operation.body, spellcheck: false }))];
  const answer = element('output', { className: 'docs-console-answer' });
  answer.setAttribute('aria-label', 'Answer');
  answer.setAttribute('aria-live', 'polite');

  form.append(
    element('h3', { textContent: 'Try it' }),
    labelled('Send to', target),
    mockOnly,
    serverOnly,
    ...parameters,
    ...body,
    element('button', { type: 'submit', textContent: `Send ${title}` }),
    answer,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    answer.replaceChildren('Sending…');
    try {
      const response = await send(operation, form);
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON: shown as it came.
      }
      answer.replaceChildren(
        element('p', { className: 'docs-console-status', textContent: `${response.status} ${response.statusText}` }),
        element(
          'dl',
          { className: 'docs-console-headers' },
          ...[...response.headers].flatMap(([name, value]) => [
            element('dt', { textContent: name }),
            element('dd', { textContent: value }),
          ]),
        ),
        element('pre', { className: 'docs-console-body', textContent: shown }),
      );
    } catch (error) {
      answer.replaceChildren(
        element('p', {
          className: 'docs-console-status',
          textContent: `No answer: ${error instanceof Error ? error.message : String(error)} (is the server up, and does it allow this page's origin?)`,
        }),
      );
    }
  });
  return form;
}

/** One console per operation, kept while Redoc mounts its section again: what the reader typed stays. */
const consoles = new Map<string, HTMLElement>();

/** Puts a console beside each operation Redoc has rendered, under its code samples. */
function attach(): void {
  for (const operation of data.operations) {
    const section = document.querySelector(`[data-section-id="${operation.sectionId}"]`);
    if (section === null || section.querySelector('.docs-console') !== null) continue;
    let form = consoles.get(operation.operationId);
    if (form === undefined) {
      form = consoleFor(operation);
      consoles.set(operation.operationId, form);
    }
    // The request's row: the description on the left, the samples' column on the right.
    const column = section.children[1]?.children[1] ?? section;
    column.append(form);
  }
}

// In the observer's callback itself, before the browser renders or runs another task: when Redoc
// mounts a section again, its console is back before anyone sees it gone.
new MutationObserver(attach).observe(document.body, { childList: true, subtree: true });
attach();
