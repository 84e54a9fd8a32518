import { WEBHOOK_EVENTS } from '../Lofty/resources/webhook';

/** The 12 event lists of Lofty webhooks, by listId (api-spec.md, Events > Payloads). */
export const EVENT_LISTS = WEBHOOK_EVENTS;

/** The record an event of each list is about, as used in `event` names (`lead.updated`, `task.finished`). */
export const ENTITY_BY_LIST: Record<number, string> = {
	1: 'agent',
	2: 'lead',
	3: 'leadActivity',
	4: 'listingAlert',
	5: 'transaction',
	6: 'call',
	7: 'email',
	8: 'text',
	9: 'note',
	10: 'task',
	11: 'appointment',
	12: 'pipeline',
};

/** Actions the "Only Actions" option can keep. */
export const ACTIONS = ['created', 'updated', 'deleted', 'finished'] as const;

export function listName(listId: number): string {
	return EVENT_LISTS.find((e) => e.value === listId)?.name ?? `List ${listId}`;
}
