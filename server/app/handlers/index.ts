// The server's handler table: one entry per operation of the contract, typed by its operationId.
// The contract's collections are served by the collection layer; what is written here is what
// the contract cannot say.
import type { Contract, OperationId } from '../../../contract/contract.ts';
import {
  type CollectionHandlerDeps,
  type CollectionHandlerOptions,
  collectionHandler,
} from '../../../core/collections/handlers.ts';
import { PreconditionError } from '../../../core/errors.ts';
import type { Handler, Handlers } from '../../../core/http-types.ts';
import type { ReadinessProbes } from '../readiness.ts';
import { getHealth, getReadiness } from './health.ts';
import { registeredEndpointFields, type WebhookEndpointDeps } from './webhook-endpoints.ts';

export interface HandlerDeps extends CollectionHandlerDeps, WebhookEndpointDeps {
  contract: Contract;
  probes: ReadinessProbes;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const collection = <K extends OperationId>(operationId: K, options?: CollectionHandlerOptions): Handler<K> => {
    const handler = collectionHandler(deps, operationId, options);
    if (!handler)
      throw new PreconditionError(
        `${operationId} lists, creates, fetches, changes or removes no collection of the contract; give it a handler of its own.`,
      );
    // The collection layer answers what the contract declares for the operation (its item schema).
    return handler as unknown as Handler<K>;
  };
  return {
    listPets: collection('listPets'),
    createPet: collection('createPet'),
    getPet: collection('getPet'),
    updatePet: collection('updatePet'),
    deletePet: collection('deletePet'),
    listOrders: collection('listOrders'),
    createOrder: collection('createOrder'),
    getOrder: collection('getOrder'),
    updateOrder: collection('updateOrder'),
    listWebhookEndpoints: collection('listWebhookEndpoints'),
    createWebhookEndpoint: collection('createWebhookEndpoint', { serviceFields: registeredEndpointFields(deps) }),
    getWebhookEndpoint: collection('getWebhookEndpoint'),
    deleteWebhookEndpoint: collection('deleteWebhookEndpoint'),
    getHealth: getHealth(),
    getReadiness: getReadiness(deps.probes),
  };
}
