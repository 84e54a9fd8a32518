/** Options, events, batches and log entries of the webhook delivery engine (./engine.ts). */

export interface DeliveryOptions {
	/**
	 * Accept `http://` callback URLs on loopback hosts (127.0.0.1, localhost, ::1) when subscribing.
	 * Off by default: like Lofty, the sandbox then answers WEBHOOK_CALLBACK_URL_INVALID for any non-HTTPS URL.
	 */
	allowHttpCallbacks?: boolean;
	/** Send only to loopback hosts (default true); other hosts count as connection errors. */
	loopbackOnly?: boolean;
	/** A receiver that has not answered after this long has timed out (default 10 s, real time). */
	timeoutMs?: number;
	/** Source of the ±20% jitter (default Math.random). */
	random?: () => number;
	/** Deliver on real timers, without flush()/advance() (default false). */
	autoDeliver?: boolean;
}

/** How an event sits in a payload: in an array (`createdLead[]`), as an object (`updatedNote`) or a scalar (`alertId`). */
export type EventShape = 'array' | 'object' | 'scalar';

export interface EventInput {
	listId: number;
	teamId: bigint;
	/** payload key: createdLead, updatedLeadstage, finishedTask, updatedNote, alertId ... */
	key: string;
	shape?: EventShape;
	/** the event's fields (or the scalar value) */
	data: unknown;
	/** the lead the event is about, for recipient rules */
	leadId?: bigint;
	/** not delivered before this time (a manual log becomes readable after a delay) */
	notBefore?: number;
}

export interface QueuedEvent {
	key: string;
	shape: EventShape;
	data: unknown;
	createdAt: number;
	notBefore: number;
}

export interface Delivery {
	/** Service-Webhook-Id */
	id: string;
	events: QueuedEvent[];
	body: string;
	attempts: number;
	nextAttemptAt: number;
	/** creation time of its oldest event: the batch expires 48 hours after it */
	createdAt: number;
}

export interface SubscriptionRuntime {
	queue: QueuedEvent[];
	/** batches formed and not yet delivered, discarded or expired (each keeps its Service-Webhook-Id) */
	deliveries: Delivery[];
	inFlight: boolean;
	/** first failure since the last success */
	failingSince: number | null;
	nextPingAt: number | null;
}

export type AttemptStatus = number | 'timeout' | 'error';

export interface DeliveryLogEntry {
	time: number;
	subscribeId: string;
	listId: number;
	callbackUrl: string;
	kind: 'events' | 'ping';
	/** Service-Webhook-Id (absent on pings and expiries of unbatched events) */
	deliveryId?: string;
	/** 1 for the first attempt */
	attempt?: number;
	eventCount: number;
	status?: AttemptStatus;
	outcome: 'delivered' | 'retry-scheduled' | 'discarded' | 'disabled' | 'exhausted' | 'expired' | 'revived' | 'ping-failed';
	nextAttemptAt?: number;
	/** the request body sent */
	body?: string;
	/** the start of the callback's answer body (ANSWER_KEPT characters) */
	answer?: string;
	/** why a request was not sent or failed */
	error?: string;
}

export interface PostResult {
	status: AttemptStatus;
	retryAfter?: string;
	/** the start of the answer body */
	answer?: string;
	error?: string;
}
