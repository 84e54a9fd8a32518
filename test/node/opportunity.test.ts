import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { OPPORTUNITY_IDS, opportunityState } from '../../sandbox/resources/opportunity';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const alert = (extra: Record<string, unknown>) => ({ resource: 'opportunity', operation: 'sendAlert', ...extra });
const sent = () => opportunityState(sandbox().store).sent;

// docs/api-readings.md, row 11: the answer is {status: {code, msg}, data}; status.code 0 is success under both readings.
describe.each(READING_VALUES.statusEnvelope)('Opportunity: Send Alert (statusEnvelope %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ statusEnvelope: reading }));

	it('a dispatched alert and an unconfirmed one are both successes', async () => {
		const [dispatched] = await run(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 11 }));
		expect(dispatched.json).toEqual({ leadId: SEED_IDS.bigLeadId, notificationType: 11, dispatched: true });
		const [pond] = await run(sandbox(), alert({ leadId: byId(OPPORTUNITY_IDS.pondLeadId), notificationType: 11 }));
		expect(pond.json).toMatchObject({ dispatched: false });
		expect(sent()).toHaveLength(2);
	});
});

describe('Opportunity: Send Alert', () => {
	it('alerts the assigned agent, by push, SMS and email for a listing view', async () => {
		const [item] = await run(
			sandbox(),
			alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 11, additionalFields: { description: '1 Main St', link: 'https://example.com/l/1' } }),
		);
		expect(item.json).toEqual({ leadId: SEED_IDS.bigLeadId, notificationType: 11, dispatched: true });
		expect(sandbox().requests[0].body).toBe(`{"leadId":${SEED_IDS.bigLeadId},"notificationType":11,"description":"1 Main St","link":"https://example.com/l/1"}`);
		expect(sent()).toEqual([expect.objectContaining({ channels: ['push', 'sms', 'email'], description: '1 Main St' })]);
	});

	it('sends the message of "Left a Message" and only a push for it', async () => {
		await run(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 65, additionalFields: { message: 'Tour on Saturday?' } }));
		expect(sent()).toEqual([expect.objectContaining({ channels: ['push'], message: 'Tour on Saturday?' })]);
	});

	it("works for any lead of the team, also one the user cannot open", async () => {
		const [item] = await run(sandbox(), alert({ leadId: byId(SEED_IDS.notSharedLeadId), notificationType: 162 }));
		expect(item.json.dispatched).toBe(true);
	});

	it('reports an unconfirmed alert for a lead without an assigned agent', async () => {
		const lead = sandbox().store.addLead({ ownerUserId: SEED_IDS.demoUserId, firstName: 'Una' });
		const [item] = await run(sandbox(), alert({ leadId: byId(lead.leadId.toString()), notificationType: 10 }));
		expect(item.json).toMatchObject({ dispatched: false, note: expect.stringMatching(/no assigned agent/) });
		expect(sent()).toHaveLength(0);
	});

	it('reports false for a lead-pond lead although the pond is alerted', async () => {
		const [item] = await run(sandbox(), alert({ leadId: byId(OPPORTUNITY_IDS.pondLeadId), notificationType: 27 }));
		expect(item.json).toMatchObject({ dispatched: false, note: expect.stringMatching(/lead pond/) });
		expect(sent()).toHaveLength(1);
	});

	it('is not idempotent: each run alerts again', async () => {
		await run(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 9 }), { items: [{}, {}] });
		expect(sent()).toHaveLength(2);
	});

	it('refuses a details text without its link, and a message for another activity, before sending', async () => {
		const half = await runError(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 11, additionalFields: { description: '1 Main St' } }));
		expect(half.message).toMatch(/"Details Link": is needed too/);
		const message = await runError(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 11, additionalFields: { message: 'Hi' } }));
		expect(message.message).toMatch(/"Message": is only shown for the activity "Left a Message"/);
		const type = await runError(sandbox(), alert({ leadId: byId(SEED_IDS.bigLeadId), notificationType: 12 }));
		expect(type.message).toMatch(/"Activity": must be one of/);
		expect(sandbox().requests).toHaveLength(0);
	});
});
