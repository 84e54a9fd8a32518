/**
 * Safe by default (issue 39): every operation is classed in its table as a read, a write, a destructive operation or
 * one that reaches a person; the texts a person and a model read (the action, which n8n makes the tool's description,
 * and the description) say what a destructive or sending operation does, derived from the class.
 */
import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { actionOf, descriptionOf } from '../../nodes/Lofty/model/effects';
import { RESOURCES } from '../../nodes/Lofty/resources';

const operations = RESOURCES.flatMap((r) => r.operations.map((op) => ({ key: `${r.value}.${op.value}`, op })));
const effectOf = (key: string) => operations.find((o) => o.key === key)?.op.effect;

describe('the effect of every operation', () => {
	it('every operation has a class, and reads are the GETs and three searches sent as POST', () => {
		for (const { key, op } of operations) expect([key, ['read', 'write', 'destructive', 'sends'].includes(op.effect)]).toEqual([key, true]);
		const readPosts = operations.filter(({ op }) => op.effect === 'read' && op.method !== 'GET').map((o) => o.key);
		expect(readPosts.sort()).toEqual(['communication.searchByAgentV1', 'lead.resolveAssignee', 'listing.search']);
		for (const { key, op } of operations.filter((o) => o.op.method === 'GET')) expect([key, op.effect]).toEqual([key, 'read']);
	});

	it('deletes and deactivations are destructive', () => {
		const destructive = operations.filter(({ op }) => op.effect === 'destructive').map((o) => o.key);
		for (const { key, op } of operations.filter((o) => o.op.method === 'DELETE')) expect([key, op.effect]).toEqual([key, 'destructive']);
		expect(destructive).toEqual(expect.arrayContaining(['lead.delete', 'agent.deactivate', 'note.delete', 'task.delete', 'webhook.delete']));
	});

	it('texts, emails, pushes and alerts are classed as sending to a person', () => {
		for (const key of ['communication.sendSms', 'communication.sendEmail', 'notification.sendSms', 'notification.sendEmail', 'notification.sendTaskReminder', 'notification.sendSmsViaAiNumber', 'salesAgent.sendSmsViaAiNumber', 'opportunity.sendAlert', 'salesAgent.addWorkingLeads']) {
			expect([key, effectOf(key)]).toEqual([key, 'sends']);
		}
		const sending = operations.filter(({ op }) => /^(send|text|email|push|alert)\b/i.test(op.action) || /^send/i.test(op.value));
		for (const { key, op } of sending) expect([key, op.effect]).toEqual([key, 'sends']);
	});
});

describe('what the texts say, from the class', () => {
	const node = new Lofty().description;
	const shown = (resource: string, value: string) =>
		node.properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.flatMap((p) => p.options as Array<{ value: string; action: string; description: string }>)
			.find((o) => o.value === value)!;

	it('Lead > Delete says that the API cannot restore the lead; Send SMS that it reaches a real person', () => {
		expect(shown('lead', 'delete').action).toBe('Move a lead to the trash (cannot be undone)');
		expect(shown('lead', 'delete').description).toMatch(/cannot be undone: the Lofty API cannot restore/);
		expect(shown('communication', 'sendSms').action).toBe('Send a text message (SMS) to a lead (reaches a person)');
		expect(shown('communication', 'sendSms').description).toMatch(/reaches a real person/);
	});

	it.each(operations.map(({ key, op }) => [key, op] as const))('%s: the editor shows the derived texts; reads and writes as written', (key, op) => {
		const [resource, value] = key.split('.');
		expect(shown(resource, value)).toMatchObject({ action: actionOf(op), description: descriptionOf(op) });
		if (op.effect === 'destructive') expect(actionOf(op)).toMatch(/\(cannot be undone\)$/);
		else if (op.effect === 'sends') expect(actionOf(op)).toMatch(/\(reaches a person\)$/);
		else expect([actionOf(op), descriptionOf(op)]).toEqual([op.action, op.description]);
	});
});
