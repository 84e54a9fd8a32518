/** The sandbox's webhook delivery engine: events from writes, batches, retries, pings, expiry. */
import type { Store } from '../../../core/store';
import { type DeliveryEngine, deliveryEngine } from './engine';

export { DeliveryClock } from './clock';
export { DeliveryEngine, configureDelivery, deliveryEngine, deliveryOptions } from './engine';
export { isLoopbackUrl } from './post';
export type { AttemptStatus, DeliveryLogEntry, DeliveryOptions, EventInput } from './types';
export * from './emit';
export { receives } from './recipients';
export * as schedule from './schedule';

/** The delivery engine of a running sandbox: `webhookDelivery(sandbox).advance(30_000)`, `.log`, `.clock`. */
export function webhookDelivery(sandbox: { store: Store }): DeliveryEngine {
	return deliveryEngine(sandbox.store);
}
