/**
 * What the end-to-end suite runs in a real n8n: one workflow per resource, Manual Trigger followed by a chain
 * of Lofty nodes (each set to Execute Once, so a list does not multiply the next node's runs), and what a user
 * would see in each node's output. Parameter sets come from the node tests (test/node/*.test.ts); records a
 * step needs are either seeded by the sandbox or created by an earlier step of the same workflow and reached
 * with an expression, as a user would chain them.
 *
 * Steps that change seeded records restore them or work on records they created, so flows do not depend on
 * their order.
 */
import { SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { TASK_SEED } from '../../sandbox/resources/task';
import { AI_IDS } from '../../sandbox/resources/ai';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { NOTIFICATION_IDS } from '../../sandbox/resources/notification';
import { POND_IDS } from '../../sandbox/resources/leadPond';
import { ROUTING_IDS, STRATEGY } from '../../sandbox/resources/routing';
import { SALES_AGENT_IDS } from '../../sandbox/resources/salesAgent';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { noCodeFlows } from './planNoCode';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Step {
	/** Node name in the workflow (unique within it); later steps reach its output with `ref()`. */
	name: string;
	resource: string;
	operation: string;
	params?: Record<string, unknown>;
	/** Run with the Lofty OAuth2 API credential (token from the sandbox's authorize + token exchange). */
	oauth?: boolean;
	/** Expected number of items: exact, or [min, max]; default at least 1. */
	count?: number | [number, number];
	/** Assertions on the items' JSON (jest `expect`). */
	check?: (items: Json[]) => void;
}

export interface Flow {
	/** Workflow name suffix and the resource it is about. */
	title: string;
	steps: Step[];
}

const DAY = 86_400_000;
/** A date (yyyy-MM-dd) some days ahead, so that times on it are in the future. */
const dayAhead = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const iso = (ms: number): string => new Date(ms).toISOString();

/** A resource locator set "By ID". */
export const byId = (value: string): Json => ({ __rl: true, mode: 'id', value });
/** An expression reading a field of an earlier node's first output item. */
export const ref = (node: string, field: string): string => `={{ $('${node}').first().json.${field} }}`;

const numericId = /^\d+$/;
const isId = (v: unknown): void => {
	expect(typeof v).toBe('string');
	expect(v).toMatch(numericId);
};
const allHave = (items: Json[], field: string): void => {
	for (const it of items) isId(it[field]);
};

export function buildPlan(): Flow[] {
	const BIG = SEED_IDS.bigLeadId;
	const day = dayAhead(3);
	return [
		{
			title: 'lead',
			steps: [
				{
					name: 'Create Lead',
					resource: 'lead',
					operation: 'create',
					params: { firstName: 'Eve', additionalFields: { lastName: 'E2E', emails: ['eve.e2e@example.com'], tags: ['VIP'], stage: 'New' } },
					count: 1,
					check: ([lead]) => isId(lead.leadId),
				},
				{
					name: 'Get Lead',
					resource: 'lead',
					operation: 'get',
					params: { leadId: byId(ref('Create Lead', 'leadId')) },
					count: 1,
					check: ([lead]) => {
						isId(lead.leadId);
						expect(lead.firstName).toBe('Eve');
					},
				},
				{
					name: 'Update Lead',
					resource: 'lead',
					operation: 'update',
					params: { leadId: byId(ref('Create Lead', 'leadId')), updateFields: { lastName: 'Updated', tagsAdd: ['Investor'] } },
					count: 1,
				},
				{
					name: 'Add Inquiry',
					resource: 'lead',
					operation: 'addInquiry',
					params: { leadId: byId(ref('Create Lead', 'leadId')), inquiryFields: { priceMin: 300000, priceMax: 500000, propertyType: ['Condo'] } },
					count: 1,
					check: ([it]) => isId(it.leadId),
				},
				{
					name: 'Update Property',
					resource: 'lead',
					operation: 'updateProperty',
					params: { leadId: byId(ref('Create Lead', 'leadId')), propertyFields: { streetAddress: '1 Main St', city: 'Austin', bedrooms: 3 } },
					count: 1,
				},
				{
					name: 'Assign Lead',
					resource: 'lead',
					operation: 'assign',
					params: { leadId: byId(ref('Create Lead', 'leadId')), assignees: { values: [{ role: 'Agent', assignee: 'demo.owner@example.com' }] } },
					count: 1,
				},
				{
					name: 'Add Activity',
					resource: 'lead',
					operation: 'addActivity',
					params: {
						leadId: byId(ref('Create Lead', 'leadId')),
						type: 'Search',
						created: '2026-03-01T10:00:00.000Z',
						text: 'Condo in Austin',
						link: 'https://example.com/search',
						picture: 'https://example.com/p.png',
					},
					count: 1,
				},
				{
					name: 'Get Lead After Changes',
					resource: 'lead',
					operation: 'get',
					params: { leadId: byId(ref('Create Lead', 'leadId')) },
					count: 1,
					check: ([lead]) => {
						expect(lead.lastName).toBe('Updated');
						expect(String(lead.assignedUserId)).toBe(SEED_IDS.demoUserId);
					},
				},
				{
					name: 'Delete Lead',
					resource: 'lead',
					operation: 'delete',
					params: { leadId: byId(ref('Create Lead', 'leadId')), reason: 'duplicate' },
					count: 1,
				},
				{
					name: 'Get Many Leads',
					resource: 'lead',
					operation: 'getAll',
					params: { returnAll: false, limit: 5 },
					count: 5,
					check: (items) => allHave(items, 'leadId'),
				},
				{
					name: 'Resolve Assignee',
					resource: 'lead',
					operation: 'resolveAssignee',
					params: { firstName: 'Zed', email: 'zed.e2e@example.com' },
				},
				{
					name: 'Site Activities',
					resource: 'lead',
					operation: 'getSiteActivities',
					params: { leadId: byId(SEED_IDS.activityLeadId), returnAll: false, limit: 20 },
					count: 20,
				},
				{
					name: 'Activities V2',
					resource: 'lead',
					operation: 'getActivities',
					params: { leadId: byId(SEED_IDS.activityLeadId), returnAll: true },
					count: [2, 1000],
				},
				{
					name: 'Saved Searches',
					resource: 'lead',
					operation: 'getSavedSearches',
					params: { leadId: byId(SEED_IDS.savedSearchLeadId), options: { includeInactive: true } },
					count: [2, 100],
				},
				{
					name: 'Sync Lead From Brokermint',
					resource: 'lead',
					operation: 'syncFromBrokermint',
					params: { contactFields: { externalId: TX_SEED.brokermintContactId, firstName: 'Brook' } },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ code: 0, message: 'success' }),
				},
			],
		},
		{
			title: 'systemLog',
			steps: [
				{
					name: 'System Logs',
					resource: 'systemLog',
					operation: 'getAll',
					params: { leadId: byId(SEED_IDS.logsLeadId), returnAll: false, limit: 50 },
					count: 50,
				},
			],
		},
		{
			title: 'agent',
			steps: [
				{
					name: 'Add Agent Tags',
					resource: 'agent',
					operation: 'addTags',
					params: { agentId: byId(SEED_IDS.otherAgentUserId), tagNames: ['Mentor'], additionalFields: { autoCreate: true } },
					count: 1,
					check: ([it]) => expect(it.added).toBe(true),
				},
				{
					name: 'Deactivate Agent',
					resource: 'agent',
					operation: 'deactivate',
					params: { agentId: byId(SEED_IDS.otherAgentUserId) },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ agentId: SEED_IDS.otherAgentUserId, status: 'deactivated' }),
				},
				{
					name: 'Reactivate Agent',
					resource: 'agent',
					operation: 'reactivate',
					params: { agentId: byId(SEED_IDS.otherAgentUserId) },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ agentId: SEED_IDS.otherAgentUserId, status: 'active' }),
				},
				{
					name: 'Create Agent',
					resource: 'agent',
					operation: 'create',
					params: { accountType: 1, firstName: 'Nina', lastName: 'E2E', emailAddress: 'nina.e2e@example.com', phoneNumber: '5125559876' },
					count: 1,
					check: ([it]) => {
						isId(it.agentId);
						expect(it.created).toBe(true);
					},
				},
			],
		},
		{
			title: 'ai',
			steps: [
				{ name: 'Call Script', resource: 'ai', operation: 'generateCallScript', params: { leadId: byId(BIG), taskId: '9007199254740999' }, count: 1 },
				{ name: 'Generate Call Summary', resource: 'ai', operation: 'generateCallSummary', params: { callRecordId: '555', leadId: byId(BIG) }, count: 1 },
				{ name: 'Get Call Summary', resource: 'ai', operation: 'getCallSummary', params: { callRecordId: AI_IDS.finishedCallRecordId }, count: 1 },
				{ name: 'Prepare Insight', resource: 'ai', operation: 'prepareInsight', params: { leadId: byId(BIG), appointmentId: '200001' }, count: 1 },
				{ name: 'Create Lead Analysis', resource: 'ai', operation: 'createLeadAnalysis', params: { leadIds: [BIG, SEED_IDS.bigLeadId2] }, count: 1 },
				{ name: 'Get Lead Analyses', resource: 'ai', operation: 'getLeadAnalyses', params: { returnAll: false, limit: 5 }, count: 5 },
			],
		},
		{
			title: 'appointment',
			steps: [
				{
					name: 'Create Appointment',
					resource: 'appointment',
					operation: 'create',
					params: {
						leadId: byId(TASK_SEED.leadId),
						content: 'Showing at 9 Elm St',
						startAt: '2026-05-02T10:00:00-05:00',
						endAt: '2026-05-02T11:00:00-05:00',
						assignedRole: 'Agent',
						additionalFields: { address: '9 Elm St, Austin, TX', timeZoneCode: 'America/Chicago' },
					},
					count: 1,
					check: ([it]) => isId(it.taskId),
				},
				{
					name: 'Get Appointment',
					resource: 'appointment',
					operation: 'get',
					params: { appointmentId: byId(ref('Create Appointment', 'taskId')) },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ type: 'Appointment', content: 'Showing at 9 Elm St' }),
				},
				{
					name: 'Update Appointment',
					resource: 'appointment',
					operation: 'update',
					params: { appointmentId: byId(ref('Create Appointment', 'taskId')), updateFields: { address: '14 Oak Ave' } },
					count: 1,
				},
				{ name: 'Finish Appointment', resource: 'appointment', operation: 'finish', params: { appointmentId: byId(ref('Create Appointment', 'taskId')) }, count: 1 },
				{ name: 'Unfinish Appointment', resource: 'appointment', operation: 'unfinish', params: { appointmentId: byId(ref('Create Appointment', 'taskId')) }, count: 1 },
				{
					name: 'Get Many Appointments',
					resource: 'appointment',
					operation: 'getAll',
					params: { leadId: byId(TASK_SEED.leadId) },
					count: [3, 100],
					check: (items) => expect(items.every((i) => i.type === 'Appointment')).toBe(true),
				},
				{ name: 'Get Many Appointments V1', resource: 'appointment', operation: 'getAllV1', params: { leadId: byId(TASK_SEED.leadId) }, count: [1, 100] },
				{
					name: 'Delete Appointment',
					resource: 'appointment',
					operation: 'delete',
					params: { appointmentId: byId(ref('Create Appointment', 'taskId')) },
					count: 1,
					check: ([it]) => expect(it.deleted).toBe(true),
				},
			],
		},
		{
			title: 'calendar',
			steps: [
				{
					name: 'Create Calendar Task',
					resource: 'calendar',
					operation: 'create',
					params: {
						type: 'TASK',
						leadId: byId(BIG),
						content: 'Call about the offer',
						startAt: `${day}T09:00:00`,
						endAt: `${day}T09:30:00`,
						timeZoneCode: 'America/Los_Angeles',
						taskWay: 'Call',
						assignedRole: 'Agent',
					},
					count: 1,
					check: ([it]) => expect(it.id).toMatch(/^\d+-task$/),
				},
				{
					name: 'Update Calendar Entry',
					resource: 'calendar',
					operation: 'update',
					params: { calendarId: byId(ref('Create Calendar Task', 'id')), updateFields: { content: 'Call about the counter-offer' } },
					count: 1,
				},
				{ name: 'Finish Calendar Entry', resource: 'calendar', operation: 'finish', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
				{ name: 'Unfinish Calendar Entry', resource: 'calendar', operation: 'unfinish', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
				{ name: 'Delete Calendar Entry', resource: 'calendar', operation: 'delete', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
				{
					name: 'Get Many Calendar Entries',
					resource: 'calendar',
					operation: 'getAll',
					params: { returnAll: false, limit: 30, filters: { startTime: iso(CALENDAR_SEED.from), endTime: iso(CALENDAR_SEED.to) } },
					count: 30,
				},
				{
					name: 'Available Slots',
					resource: 'calendar',
					operation: 'getAvailableSlots',
					params: { startTime: `${dayAhead(2)}T00:00:00Z`, endTime: `${dayAhead(16)}T00:00:00Z`, options: { limit: 3 } },
					count: 3,
					check: (items) => expect(Object.keys(items[0]).sort()).toEqual(['endTime', 'endTimeMs', 'startTime', 'startTimeMs']),
				},
			],
		},
		{
			title: 'call',
			steps: [
				{ name: 'Get Many Calls', resource: 'call', operation: 'getAll', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 150 }, count: 150 },
				{ name: 'Get Call', resource: 'call', operation: 'get', params: { callId: COMM_SEED.bigLeadCallId }, count: 1 },
				{ name: 'Recording URL', resource: 'call', operation: 'getRecordingUrl', params: { callId: COMM_SEED.bigLeadCallId }, count: 1 },
				{
					name: 'Download Recording',
					resource: 'call',
					operation: 'downloadRecording',
					params: { callId: COMM_SEED.bigLeadCallDialerId },
					count: 1,
					check: (items) => expect(items[0]).toMatchObject({ callId: COMM_SEED.bigLeadCallDialerId, mimeType: 'audio/wav', fileSize: 16044 }),
				},
				{ name: 'Call By Communication ID', resource: 'call', operation: 'getByCommunicationId', params: { communicationId: COMM_SEED.bigLeadLoggedCallId }, count: 1 },
			],
		},
		{
			title: 'communication',
			steps: [
				{ name: 'Call History', resource: 'communication', operation: 'getCallHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 7 }, count: 7 },
				{ name: 'Call History V1', resource: 'communication', operation: 'getCallHistoryV1', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 7 }, count: 7 },
				{ name: 'Email History', resource: 'communication', operation: 'getEmailHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: true }, count: [COMM_SEED.historyEmails, 100000] },
				{ name: 'Text History', resource: 'communication', operation: 'getTextHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 10 }, count: 10 },
				{ name: 'Get Call Communication', resource: 'communication', operation: 'getCall', params: { communicationId: COMM_SEED.bigLeadCallId }, count: 1 },
				{ name: 'Get Email Communication', resource: 'communication', operation: 'getEmail', params: { communicationId: COMM_SEED.bigLeadLoggedEmailId }, count: 1 },
				{ name: 'Get Text Communication', resource: 'communication', operation: 'getText', params: { communicationId: COMM_SEED.bigLeadTextId }, count: 1 },
				{
					name: 'Search By Agent',
					resource: 'communication',
					operation: 'searchByAgent',
					params: { startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowEnd), returnAll: false, limit: 25 },
					count: 25,
				},
				{
					name: 'Search By Agent V1',
					resource: 'communication',
					operation: 'searchByAgentV1',
					params: { type: 'ALL', startTime: iso(COMM_SEED.busyDay), endTime: iso(COMM_SEED.busyDay + DAY - 1), returnAll: false, limit: 10 },
					count: 10,
				},
				{
					name: 'Send SMS',
					resource: 'communication',
					operation: 'sendSms',
					params: { leadId: byId(BIG), content: 'See you at 5', additionalFields: { phoneNumber: '4155559876', phoneCode: '1' } },
					count: 1,
				},
				{
					name: 'Send Email',
					resource: 'communication',
					operation: 'sendEmail',
					params: { leadId: byId(BIG), subject: 'Open house', content: 'Saturday 2pm', additionalFields: { toEmail: 'second@example.com' } },
					count: 1,
				},
			],
		},
		{
			title: 'customField',
			steps: [
				{
					name: 'Create Custom Field',
					resource: 'customField',
					operation: 'create',
					params: { attributeName: 'E2E Garage Size', attributeType: 'number' },
					count: 1,
				},
				{
					name: 'Get Many Custom Fields',
					resource: 'customField',
					operation: 'getAll',
					count: [2, 1000],
					check: (items) => expect(JSON.stringify(items)).toContain('E2E Garage Size'),
				},
			],
		},
		{
			title: 'leadPipeline',
			steps: [
				{
					name: 'Lead Stages',
					resource: 'leadPipeline',
					operation: 'getAll',
					params: { returnAll: true },
					count: [8, 1000],
					check: (items) => {
						allHave(items, 'id');
						expect(items.map((i) => i.name)).toContain('Under Contract');
					},
				},
			],
		},
		{
			title: 'leadPond',
			steps: [
				{ name: 'Lead Ponds', resource: 'leadPond', operation: 'getAll', count: [1, 100], check: (items) => allHave(items, 'id') },
				{ name: 'Get Lead Pond', resource: 'leadPond', operation: 'get', params: { id: POND_IDS.company }, count: 1, check: ([it]) => expect(it.id).toBe(POND_IDS.company) },
			],
		},
		{
			title: 'listing',
			steps: [
				{ name: 'Search Listings', resource: 'listing', operation: 'search', params: { returnAll: false, limit: 30 }, count: 30, check: (items) => allHave(items, 'listingId') },
				{ name: 'Active Listings', resource: 'listing', operation: 'getActive', oauth: true, params: { returnAll: false, limit: 20 }, count: [1, 20] },
				{
					name: 'Sold Listings',
					resource: 'listing',
					operation: 'getSold',
					oauth: true,
					params: { returnAll: true, filters: { userId: SEED_IDS.otherAgentUserId, officeListings: true } },
					count: [1, 10000],
				},
				{
					name: 'Published Feed',
					resource: 'listing',
					operation: 'getPublishedFeed',
					params: { type: 'AllOnMarket' },
					count: 1,
					check: ([it]) => expect(String(it.xml)).toMatch(/^<\?xml|</),
				},
			],
		},
		{
			title: 'manualLog',
			steps: [
				{
					name: 'Log Call',
					resource: 'manualLog',
					operation: 'create',
					params: { leadId: byId(BIG), logType: 'logCall', content: 'Talked about financing', additionalFields: { leadPhoneNumber: '5865865860' } },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ leadId: BIG, logType: 'logCall' }),
				},
				{ name: 'Get Manual Log', resource: 'manualLog', operation: 'get', params: { logTypeId: COMM_SEED.bigLeadLoggedCallId }, count: 1 },
				{
					name: 'Get Many Manual Logs',
					resource: 'manualLog',
					operation: 'getAll',
					params: { leadId: byId(COMM_SEED.historyLeadId), logType: 'logText', returnAll: false, limit: 500 },
					count: COMM_SEED.historyLoggedTexts,
				},
				{
					name: 'Delete Manual Log',
					resource: 'manualLog',
					operation: 'delete',
					params: { logTypeId: COMM_SEED.bigLeadLoggedTextId },
					count: 1,
					check: ([it]) => expect(it).toEqual({ deleted: true, logTypeId: COMM_SEED.bigLeadLoggedTextId }),
				},
			],
		},
		{
			title: 'member',
			steps: [
				{ name: 'Me', resource: 'member', operation: 'getMe', count: 1 },
				{ name: 'Get Many Members', resource: 'member', operation: 'getAll', params: { returnAll: false, limit: 7 }, count: 7 },
				{ name: 'Get Member', resource: 'member', operation: 'get', params: { userId: byId(SEED_IDS.otherAgentUserId) }, count: 1 },
				{ name: 'Member By Email', resource: 'member', operation: 'getByEmail', params: { account: 'demo.owner@example.com' }, count: 1 },
			],
		},
		{
			title: 'note',
			steps: [
				{
					name: 'Create Note',
					resource: 'note',
					operation: 'create',
					params: { leadId: byId(BIG), content: 'Wants a pool', isPin: true },
					count: 1,
					check: ([it]) => isId(it.noteId),
				},
				{
					name: 'Get Note',
					resource: 'note',
					operation: 'get',
					params: { noteId: ref('Create Note', 'noteId') },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ content: 'Wants a pool', isPin: true }),
				},
				{ name: 'Update Note', resource: 'note', operation: 'update', params: { noteId: ref('Create Note', 'noteId'), content: 'Wants a pool and a garden', isPin: false }, count: 1 },
				{ name: 'Get Many Notes', resource: 'note', operation: 'getAll', params: { leadId: byId(NOTE_SEED.leadId) }, count: [3, 100] },
				{ name: 'Delete Note', resource: 'note', operation: 'delete', params: { noteId: ref('Create Note', 'noteId') }, count: 1 },
			],
		},
		{
			title: 'notification',
			steps: [
				{
					name: 'Task Reminder',
					resource: 'notification',
					operation: 'sendTaskReminder',
					params: { type: 'TASK', taskId: NOTIFICATION_IDS.bigTaskId },
					count: 1,
					check: ([it]) => expect(it.message).toBe('Push sent successfully'),
				},
				{ name: 'SMS To Agent', resource: 'notification', operation: 'sendSms', params: { content: 'Call back Ada' }, count: 1, check: ([it]) => expect(it.message).toBe('SMS sent successfully') },
				{
					name: 'Email To Agent',
					resource: 'notification',
					operation: 'sendEmail',
					params: { subject: 'New lead', content: '<p>Hello</p>' },
					count: 1,
					check: ([it]) => expect(it.message).toBe('Email sent successfully'),
				},
				{ name: 'SMS Via AI Number', resource: 'notification', operation: 'sendSmsViaAiNumber', params: { content: 'Hi from Anna' }, count: 1 },
			],
		},
		{
			title: 'opportunity',
			steps: [
				{
					name: 'Send Alert',
					resource: 'opportunity',
					operation: 'sendAlert',
					params: { leadId: byId(BIG), notificationType: 65, additionalFields: { message: 'Tour on Saturday?' } },
					count: 1,
					check: ([it]) => expect(it.dispatched).toBe(true),
				},
			],
		},
		{
			title: 'organization',
			steps: [
				{ name: 'Get Organization', resource: 'organization', operation: 'get', count: 1, check: ([it]) => expect(it.orgType).toBe('SIGNAL_INSTANCE') },
				{ name: 'Update Company', resource: 'organization', operation: 'updateCompany', params: { updateFields: { name: 'Lone Star Realty' } }, count: 1 },
				{
					name: 'Create Office',
					resource: 'organization',
					operation: 'createOffice',
					params: { name: 'E2E Office', additionalFields: { parentId: SEED_IDS.northOfficeId, city: 'Lakeway', state: 'TX' } },
					count: 1,
					check: ([it]) => {
						isId(it.id);
						expect(it.name).toBe('E2E Office');
					},
				},
				{
					name: 'Update Office',
					resource: 'organization',
					operation: 'updateOffice',
					params: { officeId: ref('Create Office', 'id'), updateFields: { zipcode: '78734' } },
					count: 1,
					check: ([it]) => expect(it.zipcode).toBe('78734'),
				},
				{ name: 'Permission Profiles', resource: 'organization', operation: 'getPermissionProfiles', count: [1, 100], check: (items) => allHave(items, 'id') },
			],
		},
		{
			title: 'routing',
			steps: [
				{ name: 'Routing Rules', resource: 'routing', operation: 'getRules', params: { type: '1' }, count: 3, check: ([it]) => expect(it.id).toBe(ROUTING_IDS.zillowRuleId) },
				{
					name: 'Update Routing Rule',
					resource: 'routing',
					operation: 'updateRule',
					params: { type: '1', ruleId: ROUTING_IDS.zillowRuleId, updateFields: { hoursStart: 9, hoursEnd: 17 } },
					count: 1,
				},
				{ name: 'Default Rule', resource: 'routing', operation: 'getDefaultRule', params: { type: '1' }, count: 1 },
				{
					name: 'Update Default Rule',
					resource: 'routing',
					operation: 'updateDefaultRule',
					params: { type: '1', strategyType: STRATEGY.DEFAULT_ASSIGNEE, additionalFields: { assigneeGroupId: SEED_IDS.downtownOfficeId } },
					count: 1,
					check: ([it]) => expect(it).toMatchObject({ updated: true, businessType: '1' }),
				},
				{ name: 'Routing Roles', resource: 'routing', operation: 'getRoles', count: [1, 100] },
				{ name: 'Routing Members', resource: 'routing', operation: 'getMembers', params: { type: '1' }, count: [1, 1000] },
			],
		},
		{
			title: 'salesAgent',
			steps: [
				{ name: 'Current Sales Agent', resource: 'salesAgent', operation: 'getCurrent', count: 1, check: ([it]) => expect(it.id).toBe(SALES_AGENT_IDS.demoSalesAgentId) },
				{
					name: 'Create Lead For Sales Agent',
					resource: 'lead',
					operation: 'create',
					params: { firstName: 'Sal', additionalFields: { assignedUserId: SEED_IDS.demoUserId } },
					count: 1,
				},
				{
					name: 'Sales Agent By Lead',
					resource: 'salesAgent',
					operation: 'getByLead',
					params: { leadId: byId(ref('Create Lead For Sales Agent', 'leadId')) },
					count: 1,
					check: ([it]) => expect(it.id).toBe(SALES_AGENT_IDS.demoSalesAgentId),
				},
				{ name: 'Quota', resource: 'salesAgent', operation: 'getQuota', count: 1 },
				{ name: 'Settings', resource: 'salesAgent', operation: 'getSettings', count: 1 },
				{
					name: 'Update Settings',
					resource: 'salesAgent',
					operation: 'updateSettings',
					params: { id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { assistantName: 'Ava' } },
					count: 1,
					check: ([it]) => expect(it.message).toBe('success'),
				},
				{ name: 'Check Working Lead', resource: 'salesAgent', operation: 'checkWorkingLead', params: { leadId: byId(BIG) }, count: 1 },
				{ name: 'Mute Lead', resource: 'salesAgent', operation: 'muteLead', params: { leadId: byId(BIG) }, count: 1 },
				{
					name: 'Mute Status',
					resource: 'salesAgent',
					operation: 'getMuteStatus',
					params: { leadId: byId(BIG) },
					count: 1,
					check: ([it]) => expect(it).toEqual({ leadId: BIG, muted: true }),
				},
				{ name: 'Working Leads', resource: 'salesAgent', operation: 'getWorkingLeads', params: { returnAll: false, limit: 30 }, count: 30 },
				{
					name: 'Add Working Leads',
					resource: 'salesAgent',
					operation: 'addWorkingLeads',
					params: { leadIds: [SALES_AGENT_IDS.notWorkingLeadId] },
					count: 1,
					check: ([it]) => expect(it.succeededLeadIds).toEqual([SALES_AGENT_IDS.notWorkingLeadId]),
				},
				{ name: 'Create Plan Tasks', resource: 'salesAgent', operation: 'createPlanTasks', params: { leadIds: [BIG] }, count: 1 },
				{ name: 'Plan Tasks', resource: 'salesAgent', operation: 'getPlanTasks', params: { leadId: byId(BIG) }, count: [1, 100] },
				{ name: 'Sales Agent SMS', resource: 'salesAgent', operation: 'sendSmsViaAiNumber', params: { content: 'New hot lead!' }, count: 1 },
			],
		},
		{
			title: 'tag',
			steps: [
				{
					name: 'Tags',
					resource: 'tag',
					operation: 'getAll',
					count: [3, 1000],
					check: (items) => {
						expect(items.map((i) => i.tagName)).toEqual(expect.arrayContaining(['Hot Lead', 'VIP']));
						expect(items.find((i) => i.tagName === 'Hot Lead')?.tagId).toBe('9007199254740995');
					},
				},
			],
		},
		{
			title: 'task',
			steps: [
				{
					name: 'Create Task',
					resource: 'task',
					operation: 'create',
					params: { leadId: byId(TASK_SEED.leadId), type: 'Email', content: 'Send the CMA', endAt: '2026-03-01T16:00:00-08:00', assignedRole: 'Agent' },
					count: 1,
					check: ([it]) => isId(it.taskId),
				},
				{ name: 'Get Task', resource: 'task', operation: 'get', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1, check: ([it]) => expect(it.content).toBe('Send the CMA') },
				{
					name: 'Update Task',
					resource: 'task',
					operation: 'update',
					params: { taskId: byId(ref('Create Task', 'taskId')), updateFields: { content: 'Send the updated CMA' } },
					count: 1,
				},
				{ name: 'Finish Task', resource: 'task', operation: 'finish', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
				{ name: 'Unfinish Task', resource: 'task', operation: 'unfinish', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
				{ name: 'Get Many Tasks', resource: 'task', operation: 'getAll', params: { leadId: byId(TASK_SEED.leadId) }, count: [2, 100] },
				{ name: 'My Tasks', resource: 'task', operation: 'getMyTasks', params: { returnAll: false, limit: 150 }, count: 150 },
				{ name: 'Delete Task', resource: 'task', operation: 'delete', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
				{
					name: 'Create Task V1',
					resource: 'task',
					operation: 'createV1',
					params: { leadId: byId(TASK_SEED.leadId), type: 'Text', content: 'Text the lead', deadline: '2026-03-01T21:20:00Z', assignedRole: 'Agent' },
					count: 1,
					check: ([it]) => isId(it.taskId),
				},
				{ name: 'Get Task V1', resource: 'task', operation: 'getV1', params: { taskId: byId(ref('Create Task V1', 'taskId')) }, count: 1 },
				{ name: 'Get Many Tasks V1', resource: 'task', operation: 'getAllV1', params: { leadId: byId(TASK_SEED.leadId) }, count: [1, 100] },
				{
					name: 'Update Task V1',
					resource: 'task',
					operation: 'updateV1',
					params: { taskId: byId(ref('Create Task V1', 'taskId')), updateFields: { content: 'Changed', type: 'Other' } },
					count: 1,
				},
				{ name: 'Delete Task V1', resource: 'task', operation: 'deleteV1', params: { taskId: byId(ref('Create Task V1', 'taskId')) }, count: 1 },
			],
		},
		{
			title: 'transaction',
			steps: [
				{
					name: 'Create Transaction',
					resource: 'transaction',
					operation: 'create',
					params: {
						leadId: byId(BIG),
						transactionName: '500 Congress Ave',
						additionalFields: { transactionType: 'Listing', transactionStatus: 'Active Listing', homePrice: 650000, expectedCloseDate: '2026-03-01T00:00:00Z' },
					},
					count: 1,
					check: ([it]) => {
						isId(it.transactionId);
						expect(it).toMatchObject({ transactionName: '500 Congress Ave', homePrice: 650000 });
					},
				},
				{
					name: 'Get Transaction',
					resource: 'transaction',
					operation: 'get',
					params: { leadId: byId(BIG), transactionId: byId(ref('Create Transaction', 'transactionId')) },
					count: 1,
				},
				{
					name: 'Update Transaction',
					resource: 'transaction',
					operation: 'update',
					params: { leadId: byId(BIG), transactionId: byId(ref('Create Transaction', 'transactionId')), updateFields: { homePrice: 660000 } },
					count: 1,
				},
				{ name: 'Transactions Of Lead', resource: 'transaction', operation: 'getAllForLead', params: { leadId: byId(BIG) }, count: [3, 100] },
				{ name: 'Get Many Transactions', resource: 'transaction', operation: 'getAll', params: { transactionType: 'Purchase', returnAll: false, limit: 30 }, count: [1, 30] },
				{
					name: 'Property Address',
					resource: 'transaction',
					operation: 'getPropertyAddress',
					params: { leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) },
					count: 1,
				},
				{
					name: 'Update Property Address',
					resource: 'transaction',
					operation: 'updatePropertyAddress',
					params: { leadId: byId(BIG), transactionId: byId(TX_SEED.listingId), addressFields: { streetAddress: '77 Lamar Blvd', city: 'Austin', zipCode: '78703' } },
					count: 1,
				},
				{ name: 'Transaction Custom Fields', resource: 'transaction', operation: 'getCustomFields', count: [1, 1000] },
				{ name: 'Transaction Pipelines', resource: 'transaction', operation: 'getPipelines', count: [1, 1000] },
				{
					name: 'Sync Transaction From Brokermint',
					resource: 'transaction',
					operation: 'syncFromBrokermint',
					params: { transactionId: byId(TX_SEED.purchaseId), additionalFields: { price: 801000 } },
					count: 1,
					check: ([it]) => expect(it).toEqual({ code: 0, message: 'success' }),
				},
			],
		},
		{
			title: 'vendor',
			steps: [{ name: 'Vendors', resource: 'vendor', operation: 'getAll', count: [1, 1000] }],
		},
		{
			title: 'webhook',
			steps: [
				{
					name: 'Create Webhook',
					resource: 'webhook',
					operation: 'create',
					params: { listId: 2, callbackUrl: 'https://example.com/hooks/lofty-e2e' },
					count: 1,
					check: ([it]) => {
						isId(it.subscribeId);
						expect(it.callbackUrl).toBe('https://example.com/hooks/lofty-e2e');
					},
				},
				{
					name: 'Webhooks',
					resource: 'webhook',
					operation: 'getAll',
					count: [2, 100],
					check: (items) => expect(items.map((i) => i.callbackUrl)).toContain('https://example.com/hooks/lofty-e2e'),
				},
				{ name: 'Delete Webhook', resource: 'webhook', operation: 'delete', params: { subscribeId: ref('Create Webhook', 'subscribeId') }, count: 1 },
				{
					// what the Lofty Trigger hands on: the record of a lead event
					name: 'Event Record',
					resource: 'webhook',
					operation: 'getEventRecord',
					params: { event: JSON.stringify({ listId: 2, action: 'updated', event: 'lead.updated', leadId: SEED_IDS.bigLeadId }) },
					count: 1,
					check: ([it]) => {
						expect(it).toMatchObject({ event: 'lead.updated', leadId: SEED_IDS.bigLeadId });
						expect(String((it.record as Json).leadId)).toBe(SEED_IDS.bigLeadId);
					},
				},
			],
		},
		...noCodeFlows(),
	];
}

/** The smaller set run on the older n8n line: one read per kind of output, a write chain, OAuth2. */
export function buildSmallPlan(): Flow[] {
	const full = buildPlan();
	const pick = (title: string, names?: string[]): Flow => {
		const flow = full.find((f) => f.title === title)!;
		return { title, steps: names ? flow.steps.filter((s) => names.includes(s.name)) : flow.steps };
	};
	return [
		pick('lead', ['Create Lead', 'Get Lead', 'Update Lead', 'Delete Lead', 'Get Many Leads']),
		pick('task'),
		pick('listing', ['Search Listings', 'Active Listings']),
		pick('member'),
		pick('webhook'),
		pick('lead create or update'),
	];
}
