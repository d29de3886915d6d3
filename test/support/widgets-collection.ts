// A new collection added to a copy of the contract the way openapi/README.md ("Adding an operation")
// says a person adds one: `GET /widgets` (a page of widgets) and `POST /widgets` (create one), with
// their schemas, named examples and every response the lint asks for, marked `x-stability` as
// asked. Tests of everything the contract drives (diff, changelog, release, docs, mocks, client,
// types, the server's 501) make this one edit on their copy and read what it added from the
// result, so none of them depends on the pets of the contract. The answers every operation shares
// (x-shared-answers) it does not write; of the API's other parts it refers to the Error schema, the
// list's `Limit` and `Cursor`, `InvalidListQuery`, `Location`, `ETag`, `IfMatch` and `PreconditionFailed`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Stability = 'experimental' | 'beta' | 'stable';

interface AddedOperation {
  /** Upper case, as on the wire. */
  method: 'GET' | 'POST';
  /** As the contract writes it, relative to the servers: `/widgets`. */
  path: string;
  operationId: string;
  summary: string;
  /** As the operation is marked; `stable` when it carries no `x-stability`. */
  stability: Stability;
}

export interface WidgetsCollection {
  /** The path added under `paths` in openapi/openapi.yaml. */
  path: string;
  /** The tag added to openapi/openapi.yaml and given to both operations. */
  tag: string;
  /** The list operation first, then the create operation. */
  operations: [list: AddedOperation, create: AddedOperation];
  /** Components added, by kind (`schemas`, `examples`), each under its name (the file's name). */
  components: Record<'schemas' | 'examples', string[]>;
  /** Every file written or edited, relative to the copy's root. */
  files: string[];
}

export interface WidgetsOptions {
  /** The `x-stability` of both operations; `stable` writes none. Default `experimental`. */
  stability?: Stability;
}

const PATH = '/widgets';
const TAG = 'widgets';
const LIST = { method: 'GET', operationId: 'listWidgets', summary: 'List widgets' } as const;
const CREATE = { method: 'POST', operationId: 'createWidget', summary: 'Add a widget' } as const;

function pathFile(stability: Stability): string {
  const marker = stability === 'stable' ? '' : `  x-stability: ${stability}\n`;
  return `get:
  operationId: ${LIST.operationId}
${marker}  summary: ${LIST.summary}
  description: Returns widgets in ascending \`id\` order; the \`Link\` header gives the next page.
  tags:
    - ${TAG}
  parameters:
    - $ref: ../components/parameters/Limit.yaml
    - $ref: ../components/parameters/Cursor.yaml
  responses:
    "200":
      description: A page of widgets.
      headers:
        Link:
          description: RFC 8288 link to the next page, present only when more widgets exist.
          schema:
            type: string
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Widgets.yaml
          examples:
            WidgetsFirstPage:
              $ref: ../components/examples/WidgetsFirstPage.yaml
    "400":
      $ref: ../components/responses/InvalidListQuery.yaml
post:
  operationId: ${CREATE.operationId}
${marker}  x-max-body-bytes: 4096
  summary: ${CREATE.summary}
  description: Adds a widget, a JSON body of at most <!-- x-max-body-bytes -->, and returns it as stored.
  tags:
    - ${TAG}
  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../components/schemas/NewWidget.yaml
        examples:
          NewWidgetMinimal:
            $ref: ../components/examples/NewWidgetMinimal.yaml
  responses:
    "201":
      description: The widget was added.
      headers:
        Location:
          $ref: ../components/headers/Location.yaml
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Widget.yaml
          examples:
            WidgetCreated:
              $ref: ../components/examples/WidgetCreated.yaml
${errorAnswer(400, 'The body is not a widget (`malformed_json`, `validation_failed`).', 'ErrorWidgetNameMissing')}`;
}

/** An Error answer of a widget operation, with its one named example. */
function errorAnswer(status: number, description: string, example: string): string {
  return `    "${status}":
      description: "${description}"
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Error.yaml
          examples:
            ${example}:
              $ref: ../components/examples/${example}.yaml
`;
}

const SCHEMAS: Record<string, string> = {
  Widget: `type: object
description: A widget, as stored.
required: [id, name]
additionalProperties: false
properties:
  id:
    type: integer
    format: int64
    description: Assigned by the service on creation.
    minimum: 1
    maximum: 9007199254740991
  name:
    type: string
    description: What the widget is called.
    minLength: 1
    maxLength: 100
`,
  NewWidget: `type: object
description: A widget to add.
required: [name]
additionalProperties: false
properties:
  name:
    $ref: ./Widget.yaml#/properties/name
`,
  Widgets: `type: array
description: A page of widgets.
maxItems: 100
items:
  $ref: ./Widget.yaml
`,
};

/** A named example of an Error answer; with `details` naming `field` (in the body, unless `where` says) for a validation_failed. */
const error = (code: string, message: string, status: number, field?: string, where = 'body') =>
  `summary: "${code}"\nvalue:\n  code: ${code}\n  message: "${message}"\n  status: ${status}\n${
    field === undefined ? '' : `  details:\n    - in: ${where}\n      name: ${field}\n      message: "${message}"\n`
  }`;

const EXAMPLES: Record<string, string> = {
  WidgetsFirstPage: 'summary: "Two widgets"\nvalue:\n  - id: 1\n    name: Sprocket\n  - id: 2\n    name: Flange\n',
  NewWidgetMinimal: 'summary: "A widget\'s name"\nvalue:\n  name: Sprocket\n',
  WidgetCreated: 'summary: "The widget as stored"\nvalue:\n  id: 1\n  name: Sprocket\n',
  ErrorWidgetNameMissing: error('validation_failed', 'Body field `name` is required.', 400, 'name'),
};

/**
 * Adds the widgets collection to the contract of the copy at `root`: writes
 * `openapi/paths/widgets.yaml` and the files of its schemas and examples under
 * `openapi/components/`, and adds `/widgets` to `paths` and the `widgets` tag to `tags` in
 * `openapi/openapi.yaml`. Run `npm run generate` on the copy afterwards, as a person would.
 */
export async function addWidgetsCollection(root: string, options: WidgetsOptions = {}): Promise<WidgetsCollection> {
  const stability = options.stability ?? 'experimental';
  const written: Array<[file: string, content: string]> = [
    ['openapi/paths/widgets.yaml', pathFile(stability)],
    ...Object.entries(SCHEMAS).map(([name, content]): [string, string] => [
      `openapi/components/schemas/${name}.yaml`,
      content,
    ]),
    ...Object.entries(EXAMPLES).map(([name, content]): [string, string] => [
      `openapi/components/examples/${name}.yaml`,
      content,
    ]),
  ];
  for (const [file, content] of written) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content, 'utf8');
  }
  const rootFile = 'openapi/openapi.yaml';
  const document = await readFile(path.join(root, rootFile), 'utf8');
  await writeFile(path.join(root, rootFile), withWidgetsListed(document), 'utf8');

  const operation = (fields: typeof LIST | typeof CREATE): AddedOperation => ({ ...fields, path: PATH, stability });
  return {
    path: PATH,
    tag: TAG,
    operations: [operation(LIST), operation(CREATE)],
    components: { schemas: Object.keys(SCHEMAS), examples: Object.keys(EXAMPLES) },
    files: [...written.map(([file]) => file), rootFile],
  };
}

/**
 * The root document with the tag and the path added as a person types them: a line at the end of
 * the top-level `tags:` and `paths:` lists, so the rest of the file, and the lines `npm run diff`
 * reports, stay as they were.
 */
function withWidgetsListed(document: string): string {
  const appendTo = (text: string, key: string, lines: string) => {
    const heading = new RegExp(`^${key}:\\n`, 'm').exec(text);
    if (heading === null) return `${text.trimEnd()}\n${key}:\n${lines}`;
    const start = heading.index + heading[0].length;
    // The list ends where the next top-level key starts.
    const next = /^\S/m.exec(text.slice(start));
    const end = next === null ? text.length : start + next.index;
    return `${text.slice(0, end)}${lines}${text.slice(end)}`;
  };
  const tag = `  - name: ${TAG}\n    description: The widgets of the store.\n`;
  const pathRef = `  ${PATH}:\n    $ref: paths/widgets.yaml\n`;
  return appendTo(appendTo(document, 'tags', tag), 'paths', pathRef);
}

/** What `addWidgetChanges` added: a status with its transitions, and `PATCH /widgets/{widgetId}`. */
export interface WidgetChanges {
  /** The item path added under `paths`. */
  path: string;
  /** The operations on one widget: its fetch, its change and its removal. */
  operationIds: [fetch: string, update: string, remove: string];
  /** The widget's field that names a pet (`x-references: /pets`), which a create may send. */
  reference: { field: string; collection: string };
  /** The event type a removal sends, declared in the contract's `webhooks`. */
  event: string;
  /** The status schema's states and `x-transitions`, as written. */
  states: string[];
  transitions: Record<string, string[]>;
  files: string[];
}

const WIDGET_STATES = ['draft', 'active', 'retired'];
const WIDGET_TRANSITIONS: Record<string, string[]> = { draft: ['active'], active: ['retired'], retired: [] };

function itemPathFile(stability: Stability): string {
  const marker = stability === 'stable' ? '' : `  x-stability: ${stability}\n`;
  const answer = (status: number, name: string) =>
    `    "${status}":\n      $ref: ../components/responses/${name}.yaml\n`;
  const idAnswers = `${answer(400, 'InvalidWidgetId')}${answer(404, 'WidgetNotFound')}`;
  // A 200 with one widget, its ETag and a named example.
  const widget = (description: string, example: string) => `    "200":
      description: ${description}
      headers:
        ETag:
          $ref: ../components/headers/ETag.yaml
      content:
        application/json:
          schema:
            $ref: ../components/schemas/Widget.yaml
          examples:
            ${example}:
              $ref: ../components/examples/${example}.yaml
`;
  return `parameters:
  - name: widgetId
    in: path
    required: true
    description: Identifier of the widget.
    schema:
      $ref: ../components/schemas/Widget.yaml#/properties/id
get:
  operationId: getWidget
${marker}  summary: Get a widget
  description: Returns one widget, with its \`ETag\`.
  tags:
    - ${TAG}
  responses:
${widget('The widget.', 'WidgetCreated')}${idAnswers}delete:
  operationId: deleteWidget
${marker}  summary: Remove a widget
  description: Removes a widget; a \`widget.deleted\` event reports it as it was.
  tags:
    - ${TAG}
  parameters:
    - $ref: ../components/parameters/IfMatch.yaml
  responses:
    "204":
      description: The widget was removed.
${idAnswers}${answer(412, 'PreconditionFailed')}patch:
  operationId: updateWidget
${marker}  x-max-body-bytes: 4096
  summary: Change a widget
  description: Changes a widget's \`status\` as its transitions allow; a merge patch of at most <!-- x-max-body-bytes -->.
  tags:
    - ${TAG}
  parameters:
    - $ref: ../components/parameters/IfMatch.yaml
  requestBody:
    required: true
    content:
      application/merge-patch+json:
        schema:
          $ref: ../components/schemas/WidgetPatch.yaml
        examples:
          WidgetPatchActivate:
            $ref: ../components/examples/WidgetPatchActivate.yaml
  responses:
${widget('The widget as changed.', 'WidgetActivated')}${idAnswers}${errorAnswer(409, 'A change its transitions do not allow (`invalid_transition`).', 'ErrorWidgetTransition')}${answer(412, 'PreconditionFailed')}`;
}

/**
 * Makes the widgets of `addWidgetsCollection` (run first) a collection with every write, as
 * openapi/README.md says they are added: a `status` with `x-transitions` (a widget is created
 * `draft`), a merge-patch body, `GET`, `PATCH` and `DELETE /widgets/{widgetId}` with every response
 * the lint asks for, an optional `petId` naming a pet (`x-references: /pets`), and the webhook
 * `widget.deleted`, which endpoints may subscribe to.
 */
export async function addWidgetChanges(root: string, options: WidgetsOptions = {}): Promise<WidgetChanges> {
  const stability = options.stability ?? 'experimental';
  const status = (state: string) => `    status: ${state}\n`;
  const schemas = {
    WidgetStatus: `type: string
description: Where a widget stands.
enum: [${WIDGET_STATES.join(', ')}]
x-transitions:
${Object.entries(WIDGET_TRANSITIONS)
  .map(([from, to]) => `  ${from}: [${to.join(', ')}]`)
  .join('\n')}
`,
    WidgetDeletedEvent: `type: object
description: A widget was removed; \`data\` is the widget as it was.
required: [type, timestamp, data]
additionalProperties: false
properties:
  type:
    const: widget.deleted
  timestamp:
    $ref: ./WebhookTimestamp.yaml
  data:
    $ref: ./Widget.yaml
`,
    WidgetPatch: `type: object
description: The change to a widget, as a JSON merge patch.
minProperties: 1
additionalProperties: false
properties:
  status:
    $ref: ./WidgetStatus.yaml
`,
  };
  const examples = {
    WidgetPatchActivate: 'summary: "Activate a widget"\nvalue:\n  status: active\n',
    WidgetActivated: `summary: "The widget as changed"\nvalue:\n  id: 1\n  name: Sprocket\n${status('active').slice(2)}`,
    ErrorInvalidWidgetId: error(
      'validation_failed',
      'Path parameter `widgetId` must be at least 1.',
      400,
      'widgetId',
      'path',
    ),
    ErrorWidgetNotFound: error('not_found', 'No widget has the id 9.', 404),
    WidgetDeletedEvent: `summary: "A widget was removed"\nvalue:\n  type: widget.deleted\n  timestamp: "2026-12-02T09:30:05.112Z"\n  data:\n    id: 1\n    name: Sprocket\n${status('draft')}`,
    ErrorWidgetTransition: error(
      'invalid_transition',
      'The status of widget 1 cannot go from `retired` to `active`; from `retired` it can go nowhere.',
      409,
    ),
  };
  const idAnswer = (description: string, example: string) =>
    `description: "${description}"\ncontent:\n  application/json:\n    schema:\n      $ref: ../schemas/Error.yaml\n    examples:\n      ${example}:\n        $ref: ../examples/${example}.yaml\n`;
  const responses = {
    InvalidWidgetId: idAnswer('The id is not a positive integer (`validation_failed`).', 'ErrorInvalidWidgetId'),
    WidgetNotFound: idAnswer('No widget has this id (`not_found`).', 'ErrorWidgetNotFound'),
  };
  const webhook = `post:
  operationId: widgetDeleted
${stability === 'stable' ? '' : `  x-stability: ${stability}\n`}  summary: "A widget was removed (widget.deleted)"
  description: Sent to every webhook endpoint subscribed to \`widget.deleted\`.
  tags:
    - ${TAG}
  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../components/schemas/WidgetDeletedEvent.yaml
        examples:
          WidgetDeletedEvent:
            $ref: ../components/examples/WidgetDeletedEvent.yaml
`;
  const files: Array<[string, string]> = [
    ['openapi/paths/widgets_{widgetId}.yaml', itemPathFile(stability)],
    ['openapi/webhooks/widgetDeleted.yaml', webhook],
    ...Object.entries(schemas).map(([name, text]): [string, string] => [
      `openapi/components/schemas/${name}.yaml`,
      text,
    ]),
    ...Object.entries(examples).map(([name, text]): [string, string] => [
      `openapi/components/examples/${name}.yaml`,
      text,
    ]),
    ...Object.entries(responses).map(([name, text]): [string, string] => [
      `openapi/components/responses/${name}.yaml`,
      text,
    ]),
  ];
  for (const [file, content] of files) await writeFile(path.join(root, file), content, 'utf8');
  const edit = async (file: string, change: (text: string) => string) => {
    await writeFile(path.join(root, file), change(await readFile(path.join(root, file), 'utf8')), 'utf8');
    files.push([file, '']);
  };
  const petId =
    '  petId:\n    $ref: ./PetId.yaml\n    description: The pet the widget is for.\n    x-references: /pets\n';
  await edit(
    'openapi/components/schemas/Widget.yaml',
    (text) =>
      `${text.replace('required: [id, name]', 'required: [id, name, status]')}  status:\n    $ref: ./WidgetStatus.yaml\n    default: ${WIDGET_STATES[0]}\n${petId}`,
  );
  await edit('openapi/components/schemas/NewWidget.yaml', (text) => `${text}${petId}`);
  await edit('openapi/components/schemas/WebhookEventType.yaml', (text) =>
    text.replace(/(\nenum:\n(?: {2}- .*\n)+)/, '$1  - widget.deleted\n'),
  );
  await edit('openapi/components/examples/WidgetsFirstPage.yaml', (text) =>
    text.replace(/( {4}name: \w+\n)/g, `$1${status(WIDGET_STATES[0] ?? '')}`),
  );
  await edit(
    'openapi/components/examples/WidgetCreated.yaml',
    (text) => `${text}${status(WIDGET_STATES[0] ?? '').slice(2)}`,
  );
  await edit('openapi/openapi.yaml', (text) =>
    text
      .replace(
        '  /widgets:\n    $ref: paths/widgets.yaml\n',
        (listed) => `${listed}  /widgets/{widgetId}:\n    $ref: paths/widgets_{widgetId}.yaml\n`,
      )
      .replace('\nwebhooks:\n', '\nwebhooks:\n  widgetDeleted:\n    $ref: webhooks/widgetDeleted.yaml\n'),
  );
  return {
    path: `${PATH}/{widgetId}`,
    operationIds: ['getWidget', 'updateWidget', 'deleteWidget'],
    reference: { field: 'petId', collection: '/pets' },
    event: 'widget.deleted',
    states: WIDGET_STATES,
    transitions: WIDGET_TRANSITIONS,
    files: files.map(([file]) => file),
  };
}
