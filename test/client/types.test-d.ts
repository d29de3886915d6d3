// Type-level tests of the client, checked by `npm run typecheck` (tsc): each `@ts-expect-error`
// must meet an error, so a client that stopped rejecting these calls would fail the typecheck.
import {
  createAnimalStoreClient,
  type ErrorBody,
  type Pet,
  type RateLimit,
  verifyWebhook,
  type WebhookEvent,
} from '../../client/index.ts';

const client = createAnimalStoreClient({ baseUrl: 'http://localhost/v1', apiKey: 'key' });

export async function acceptsCallsTheContractAllows() {
  const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'sold' } });
  // `status` has a default in the contract, so a client may leave it out.
  await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
  const pet: Pet | undefined = created.data;
  const listed = await client.GET('/pets', { params: { query: { limit: 10, status: 'pending', cursor: 'c' } } });
  const pets: Pet[] | undefined = listed.data;
  const one = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
  const code: ErrorBody['code'] | undefined = one.error?.code;
  const limits: RateLimit | undefined = client.rateLimit(one.response);
  for await (const each of client.listAllPets({ status: 'available', limit: 50 })) void (each.id satisfies number);
  for await (const order of client.listAll('/store/orders', { status: 'placed' }))
    void (order.quantity satisfies number);
  return { pet, pets, code, limits };
}

export async function rejectsWrongBodies() {
  // @ts-expect-error `categoryId` is required
  await client.POST('/pets', { body: { name: 'Rex', status: 'available' } });
  // @ts-expect-error `lost` is not a PetStatus
  await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'lost' } });
  // @ts-expect-error `categoryId` is a number
  await client.POST('/pets', { body: { name: 'Rex', categoryId: '3', status: 'available' } });
  // @ts-expect-error `body` is required for createPet
  await client.POST('/pets', {});
}

export function rejectsWhatIsNoPagedList() {
  // @ts-expect-error /pets/{petId} answers one pet, not a paged list
  void client.listAll('/pets/{petId}');
  // @ts-expect-error the pages after the first come from the Link header, not from a cursor given here
  void client.listAll('/pets', { cursor: 'c' });
}

export async function rejectsWrongPaths() {
  // @ts-expect-error there is no /animals path
  await client.GET('/animals', {});
  // @ts-expect-error /pets/{petId} has no POST
  await client.POST('/pets/{petId}', { params: { path: { petId: 1 } } });
  // @ts-expect-error the path template needs `petId`
  await client.GET('/pets/{petId}', { params: { path: {} } });
}

export async function rejectsWrongQueryValues() {
  // @ts-expect-error `limit` is a number, not a string
  await client.GET('/pets', { params: { query: { limit: '10' } } });
  // @ts-expect-error `lost` is not a status
  await client.GET('/pets', { params: { query: { status: 'lost' } } });
  // @ts-expect-error listPets has no `name` parameter
  await client.GET('/pets', { params: { query: { name: 'Rex' } } });
  // @ts-expect-error `lost` is not a status
  client.listAllPets({ status: 'lost' });
  // @ts-expect-error listAllPets follows the cursor itself
  client.listAllPets({ cursor: 'c' });
}

export async function typesTheAnswers() {
  const { data, error } = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
  // @ts-expect-error a Pet has no `price`
  void data?.price;
  // @ts-expect-error `teapot` is not an error code of the contract
  if (error?.code === 'teapot') return;
}

export function narrowsAWebhookEventByItsType(headers: Headers, body: string) {
  const event = verifyWebhook('whsec_c2VjcmV0', headers, body);
  switch (event.type) {
    case 'pet.created':
    case 'pet.updated':
    case 'pet.deleted':
      void (event.data.name satisfies string);
      // @ts-expect-error a pet has no quantity
      void event.data.quantity;
      break;
    case 'order.created':
    case 'order.updated':
      void (event.data.quantity satisfies number);
      break;
    default:
      // Every type the contract declares is handled above.
      void (event satisfies never);
  }
  // @ts-expect-error no such event type in the contract
  if (event.type === 'not.an.event') return;
  const known: WebhookEvent['type'][] = ['pet.created', 'order.created', 'pet.updated', 'order.updated'];
  return known;
}
