import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { OPPORTUNITY_IDS, opportunityState } from '../../sandbox/resources/opportunity';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const send = (text: string) => api().post('/v1.0/agent/send-notification', { rawBody: text, headers: { 'Content-Type': 'application/json' } });
const ok = (data: boolean) => ({ status: { code: 0, msg: 'success' }, data });

describe('POST /v1.0/agent/send-notification', () => {
	it('answers {status, data: true} when dispatched to the assignee; SMS and email for the listed types', async () => {
		expect((await send(`{"leadId":${SEED_IDS.bigLeadId},"notificationType":11}`)).body).toEqual(ok(true));
		expect((await send(`{"leadId":${SEED_IDS.bigLeadId},"notificationType":46}`)).body).toEqual(ok(true));
		expect(opportunityState(sb.store).sent.map((n) => n.channels)).toEqual([['push', 'sms', 'email'], ['push']]);
	});

	it('silent failures are 200 with data false: leadId 0, no or unknown type, missing lead, another team, no assignee', async () => {
		const lead = sb.store.addLead({ ownerUserId: SEED_IDS.demoUserId, firstName: 'U' });
		const foreign = sb.store.addLead({ ownerUserId: SEED_IDS.demoUserId, firstName: 'F', teamId: 99n });
		for (const body of [
			'{"leadId":0,"notificationType":11}',
			`{"leadId":${SEED_IDS.bigLeadId}}`,
			`{"leadId":${SEED_IDS.bigLeadId},"notificationType":null}`,
			`{"leadId":${SEED_IDS.bigLeadId},"notificationType":12}`,
			'{"leadId":424242,"notificationType":11}',
			`{"leadId":${foreign.leadId},"notificationType":11}`,
			`{"leadId":${lead.leadId},"notificationType":11}`,
		]) {
			const r = await send(body);
			expect([r.status, r.body]).toEqual([200, ok(false)]);
		}
		expect(opportunityState(sb.store).sent).toHaveLength(0);
	});

	it('a lead-pond lead is broadcast to the pond but answers false', async () => {
		expect((await send(`{"leadId":${OPPORTUNITY_IDS.pondLeadId},"notificationType":27}`)).body).toEqual(ok(false));
		expect(opportunityState(sb.store).sent[0].toUserIds.map(String)).toEqual([SEED_IDS.demoUserId, SEED_IDS.otherAgentUserId]);
	});

	it('message is kept only for type 65; leadId is required', async () => {
		await send(`{"leadId":${SEED_IDS.bigLeadId},"notificationType":65,"message":"hi"}`);
		await send(`{"leadId":${SEED_IDS.bigLeadId},"notificationType":66,"message":"hi"}`);
		expect(opportunityState(sb.store).sent.map((n) => n.message)).toEqual(['hi', undefined]);
		expect((await send('{"notificationType":11}')).body.code).toBe('MISSING_PARAMETER');
	});
});
