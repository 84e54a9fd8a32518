import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { SALES_AGENT_IDS, salesAgentState } from '../../sandbox/resources/salesAgent';
import { getCurrentSalesAgent } from '../../nodes/Lofty/methods/salesAgent';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const SA = { resource: 'salesAgent' };
const otherAgent = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });

/** A demo-owned lead assigned to `assignee` (the seeded leads are assigned round the team). */
function leadAssignedTo(assignee: string): string {
	const lead = sandbox().store.addLead({ ownerUserId: SEED_IDS.demoUserId, firstName: 'Test', lastName: 'Lead' });
	lead.assignedUserId = BigInt(assignee);
	return lead.leadId.toString();
}

describe('Sales Agent: Get Current', () => {
	it('returns the Sales Agent with its 64-bit ID exact, simplified by default', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'getCurrent' });
		expect(item.json.id).toBe(SALES_AGENT_IDS.demoSalesAgentId);
		expect(item.json.assistantName).toBe('Anna');
		expect(item.json.virtualNumber).toBe('+15125550199');
		expect(item.json.createdAt).toBeUndefined();
	});

	it('returns every field with Simplify off', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'getCurrent', simplify: false });
		expect(item.json).toMatchObject({ borrowLevel: 'SELF', hasQuotaSeat: true });
		expect(typeof item.json.createdAt).toBe('string');
	});

	it('explains 404 RESOURCE_NOT_EXIST for a user without a Sales Agent', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'getCurrent' }, otherAgent());
		expect(error.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
		expect(error.description).toMatch(/created in Lofty CRM/);
	});
});

describe('Sales Agent: Get Lead Sales Agent', () => {
	it('finds the Sales Agent of the agent assigned to the lead, sending leadId in the query', async () => {
		const leadId = leadAssignedTo(SEED_IDS.demoUserId);
		const [item] = await run(sandbox(), { ...SA, operation: 'getByLead', leadId: byId(leadId) });
		expect(item.json.id).toBe(SALES_AGENT_IDS.demoSalesAgentId);
		expect(sandbox().requests[0].query).toEqual({ leadId });
	});

	it("explains 404 when the lead's agent has no Sales Agent", async () => {
		const leadId = leadAssignedTo(SEED_IDS.otherAgentUserId);
		const error = await runError(sandbox(), { ...SA, operation: 'getByLead', leadId: byId(leadId) });
		expect(error.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
		expect(error.description).toMatch(/lead's agent has no Sales Agent/);
	});

	it('explains 403 PERMISSION_DENIED for a lead the user cannot access', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'getByLead', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
		expect(error.description).toMatch(/cannot access this lead/);
	});

	it('rejects a lead ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'getByLead', leadId: byId('abc') });
		expect(error.message).toMatch(/^Invalid value for "Lead"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Sales Agent: Get Quota', () => {
	it('reports total, used and remaining quota', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'getQuota' });
		expect(item.json).toMatchObject({
			totalQuota: SALES_AGENT_IDS.demoQuota,
			usedQuota: SALES_AGENT_IDS.demoPoolSize,
			remainingQuota: SALES_AGENT_IDS.demoQuota - SALES_AGENT_IDS.demoPoolSize,
			hasQuotaAvailable: true,
			isBorrowed: false,
		});
	});
});

describe('Sales Agent: Get Settings', () => {
	it('returns the settings, simplified by default', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'getSettings' });
		expect(item.json).toMatchObject({ id: SALES_AGENT_IDS.demoSalesAgentId, assistantName: 'Anna', startActiveHour: 8, activeDays: [1, 2, 3, 4, 5] });
		expect(item.json.emailChannel).toBeUndefined();
		const [full] = await run(sandbox(), { ...SA, operation: 'getSettings', simplify: false });
		expect(full.json.emailChannel).toBe(true);
	});

	it('explains 404 for a user without a Sales Agent', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'getSettings' }, otherAgent());
		expect(error.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
	});
});

describe('Sales Agent: Update Settings', () => {
	const update = (updateFields: Record<string, unknown>, id: string = SALES_AGENT_IDS.demoSalesAgentId) =>
		run(sandbox(), { ...SA, operation: 'updateSettings', id, updateFields });

	it('the Sales Agent dropdown offers the current Sales Agent', async () => {
		const context = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getCurrentSalesAgent.call(context as unknown as ILoadOptionsFunctions);
		expect(options).toEqual([{ name: 'Anna for Dana Demo', value: SALES_AGENT_IDS.demoSalesAgentId }]);
	});

	it('changes only the given settings and sends IDs as exact integers', async () => {
		const [item] = await update({ assistantName: 'Ava', activeDays: [6, 0], startActiveHour: 9, allAgents: true, leadSources: ['1001', '9007199254740995'], leadTypes: ['1', '2'] });
		expect(item.json.message).toBe('success');
		const sent = sandbox().requests[0].body;
		expect(sent).toContain('"id":9007199254760001');
		expect(sent).toContain('"agentIds":[-1]');
		expect(sent).toContain('"leadSources":[1001,9007199254740995]');
		expect(sent).toContain('"leadTypes":[1,2]');
		expect(sent).not.toContain('allAgents');
		const [settings] = await run(sandbox(), { ...SA, operation: 'getSettings', simplify: false });
		expect(settings.json).toMatchObject({ assistantName: 'Ava', activeDays: [0, 6], startActiveHour: 9, endActiveHour: 20, agentIds: ['-1'], leadTypes: [1, 2] });
		expect(settings.json.leadSources).toEqual([1001, '9007199254740995']);
	});

	it('sends agents picked from the member list as integers, and All Offices as [-1]', async () => {
		await update({ agentIds: [SEED_IDS.demoUserId, SEED_IDS.otherAgentUserId], allOffices: true });
		expect(sandbox().requests[0].body).toContain(`"agentIds":[${SEED_IDS.demoUserId},${SEED_IDS.otherAgentUserId}]`);
		expect(sandbox().requests[0].body).toContain('"officeIds":[-1]');
		expect(sandbox().requests[0].body).not.toContain('allOffices');
	});

	it('refuses an update without fields, All Agents with an agent list, and a fractional hour, before sending', async () => {
		expect((await runError(sandbox(), { ...SA, operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId })).message).toMatch(/add at least one setting/);
		const offOnly = await runError(sandbox(), { ...SA, operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { allOffices: false } });
		expect(offOnly.message).toMatch(/add at least one setting/);
		const both = await runError(sandbox(), { ...SA, operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { allAgents: true, agentIds: ['1'] } });
		expect(both.message).toMatch(/"All Agents": gives access to all/);
		const hour = await runError(sandbox(), { ...SA, operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { endActiveHour: 8.5 } });
		expect(hour.message).toMatch(/"Active Until \(Hour\)": must be a whole hour/);
		const big = await runError(sandbox(), { ...SA, operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { startActiveHour: 24 } });
		expect(big.message).toMatch(/"Active From \(Hour\)": must be at most 23/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 400 20012 for a Sales Agent ID that is not yours', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'updateSettings', id: '12345', updateFields: { assistantName: 'X' } });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/only changes an existing Sales Agent/);
	});
});

describe('Sales Agent: Check Working Lead', () => {
	it('says yes with the lead basics for a working lead', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'checkWorkingLead', leadId: byId(SEED_IDS.bigLeadId) });
		expect(item.json).toMatchObject({ leadId: SEED_IDS.bigLeadId, isWorkingLead: true });
		expect(typeof item.json.firstName).toBe('string');
	});

	it('says no for a lead outside the pool', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'checkWorkingLead', leadId: byId(SALES_AGENT_IDS.notWorkingLeadId) });
		expect(item.json).toEqual({ leadId: SALES_AGENT_IDS.notWorkingLeadId, isWorkingLead: false });
	});

	it('explains 403 for a lead of another agent', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'checkWorkingLead', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
	});
});

describe('Sales Agent: Mute Lead and Get Mute Status', () => {
	it('mutes a lead, and the status then reads muted', async () => {
		const lead = byId(SEED_IDS.bigLeadId);
		expect((await run(sandbox(), { ...SA, operation: 'getMuteStatus', leadId: lead }))[0].json).toEqual({ leadId: SEED_IDS.bigLeadId, muted: false });
		const [muted] = await run(sandbox(), { ...SA, operation: 'muteLead', leadId: lead });
		expect(muted.json).toMatchObject({ leadId: SEED_IDS.bigLeadId, muted: true });
		expect(sandbox().count('PUT', `/v2.0/sales-agents/working-lead/${SEED_IDS.bigLeadId}/mute`)).toBe(1);
		expect((await run(sandbox(), { ...SA, operation: 'getMuteStatus', leadId: lead }))[0].json).toEqual({ leadId: SEED_IDS.bigLeadId, muted: true });
	});

	it('explains 403 on both for a lead of another agent', async () => {
		for (const operation of ['muteLead', 'getMuteStatus']) {
			const error = await runError(sandbox(), { ...SA, operation, leadId: byId(SEED_IDS.notSharedLeadId) });
			expect(error.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
		}
	});
});

describe('Sales Agent: Get Working Leads', () => {
	it('Return All makes ceil(N/100) requests and returns every working lead', async () => {
		const items = await run(sandbox(), { ...SA, operation: 'getWorkingLeads', returnAll: true });
		expect(items).toHaveLength(SALES_AGENT_IDS.demoPoolSize);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(SALES_AGENT_IDS.demoPoolSize);
		expect(items.map((i) => i.json.leadId)).toContain(SEED_IDS.bigLeadId);
		expect(sandbox().count('GET', '/v2.0/working-leads')).toBe(Math.ceil(SALES_AGENT_IDS.demoPoolSize / 100));
		expect(sandbox().requests.map((r) => r.query)).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '100', offset: '100' },
		]);
	});

	it('Limit stops as soon as it is reached', async () => {
		const items = await run(sandbox(), { ...SA, operation: 'getWorkingLeads', limit: 30 });
		expect(items).toHaveLength(30);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(['30']);
	});

	it('filters by AI stage and sorts', async () => {
		const items = await run(sandbox(), { ...SA, operation: 'getWorkingLeads', returnAll: true, filters: { aiStage: 'HIGH_PRIORITY', sort: 'CreateTime', desc: false } });
		expect(items.length).toBe(Math.ceil(SALES_AGENT_IDS.demoPoolSize / 3));
		for (const { json } of items) expect(json.aiStage).toBe('HIGH_PRIORITY');
		const created = items.map((i) => i.json.createdAt as string);
		expect(created).toEqual([...created].sort());
		expect(sandbox().requests[0].query).toMatchObject({ aiStage: 'HIGH_PRIORITY', sort: 'CreateTime', desc: 'false' });
	});
});

describe('Sales Agent: Add Working Leads', () => {
	it('adds leads and reports which failed', async () => {
		const [item] = await run(sandbox(), {
			...SA,
			operation: 'addWorkingLeads',
			leadIds: [SALES_AGENT_IDS.notWorkingLeadId, SEED_IDS.notSharedLeadId],
			additionalFields: { createPlanTask: true },
		});
		expect(item.json.succeededLeadIds).toEqual([SALES_AGENT_IDS.notWorkingLeadId]);
		expect(item.json.failedLeadIds).toEqual([SEED_IDS.notSharedLeadId]);
		expect(sandbox().requests[0].body).toBe(`{"leadIds":[${SALES_AGENT_IDS.notWorkingLeadId},${SEED_IDS.notSharedLeadId}],"createPlanTask":true}`);
		const [check] = await run(sandbox(), { ...SA, operation: 'checkWorkingLead', leadId: byId(SALES_AGENT_IDS.notWorkingLeadId) });
		expect(check.json.isWorkingLead).toBe(true);
		expect(await run(sandbox(), { ...SA, operation: 'getPlanTasks', leadId: byId(SALES_AGENT_IDS.notWorkingLeadId) })).toHaveLength(3);
	});

	it('refuses more than 100 leads before sending', async () => {
		const leadIds = Array.from({ length: 101 }, (_, i) => String(1000 + i));
		const error = await runError(sandbox(), { ...SA, operation: 'addWorkingLeads', leadIds });
		expect(error.message).toMatch(/"Lead IDs": takes at most 100 leads per request, got 101/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 400 20012 for a user without a Sales Agent', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'addWorkingLeads', leadIds: [SEED_IDS.notSharedLeadId] }, otherAgent());
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/no Sales Agent/);
	});
});

describe('Sales Agent: Create Plan Tasks and Get Plan Tasks', () => {
	it('creates plan tasks for working leads only', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'createPlanTasks', leadIds: [SEED_IDS.bigLeadId, SALES_AGENT_IDS.notWorkingLeadId] });
		expect(item.json).toEqual({ succeededLeadIds: [SEED_IDS.bigLeadId], failedLeadIds: [SALES_AGENT_IDS.notWorkingLeadId] });
		const tasks = await run(sandbox(), { ...SA, operation: 'getPlanTasks', leadId: byId(SEED_IDS.bigLeadId) });
		expect(tasks).toHaveLength(6);
	});

	it('lists the plan tasks of a lead with exact IDs and readable statuses', async () => {
		const tasks = await run(sandbox(), { ...SA, operation: 'getPlanTasks', leadId: byId(SEED_IDS.bigLeadId) });
		expect(tasks.map((t) => t.json.taskType)).toEqual(['CALL', 'TEXT', 'EMAIL']);
		expect(tasks[0].json).toMatchObject({ id: '9007199254780001', status: 'FINISHED', creatorId: SEED_IDS.demoUserId });
	});

	it('refuses an empty lead list before sending, and explains 403 on another agent\'s lead', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'createPlanTasks', leadIds: [] });
		expect(error.message).toBe('Invalid value for "Lead IDs": is required');
		const denied = await runError(sandbox(), { ...SA, operation: 'getPlanTasks', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(denied.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
	});

	it('explains 400 20012 for a user without a Sales Agent', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'createPlanTasks', leadIds: [SEED_IDS.bigLeadId] }, otherAgent());
		expect(error.message).toMatch(/HTTP 400 20012/);
	});
});

describe('Sales Agent: Send SMS From AI Number', () => {
	it('texts the current user from the AI number', async () => {
		const [item] = await run(sandbox(), { ...SA, operation: 'sendSmsViaAiNumber', content: 'New hot lead!' });
		expect(item.json.message).toBe('SMS sent successfully');
		const sms = salesAgentState(sandbox().store).aiSms;
		expect(sms).toHaveLength(1);
		expect(sms[0]).toMatchObject({ from: '+15125550199', content: 'New hot lead!' });
	});

	it('explains 400 20012 when the Sales Agent has no AI number', async () => {
		const token = sandbox().issueToken({ userId: SALES_AGENT_IDS.noNumberUserId });
		const error = await runError(sandbox(), { ...SA, operation: 'sendSmsViaAiNumber', content: 'Hi' }, { credential: oauthCredential(sandbox(), token) });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/no AI virtual number/);
	});

	it('refuses a blank message before sending', async () => {
		const error = await runError(sandbox(), { ...SA, operation: 'sendSmsViaAiNumber', content: '  ' });
		expect(error.message).toMatch(/"Message": is required/);
		expect(sandbox().requests).toHaveLength(0);
	});
});
