/**
 * The sandbox's readings of the ambiguous contract (sandbox/core/readings.ts, docs/api-readings.md) and its
 * repeating server (core/pagingFaults.ts): per test, the spec's reading by default, and the other reading answered
 * the way a server following it would. Rows whose endpoints have their own test file are tested there too
 * (calendar, communication, manualLog, routing, organization).
 */
import { DEMO_API_KEY, READING_VALUES, SEED_IDS } from '../../sandbox';
import { AI_IDS } from '../../sandbox/resources/ai';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const oauth = () => client(sb.url, { bearer: sb.issueToken() });
const ids = (list: Array<{ leadId?: unknown; id?: unknown }>) => list.map((x) => s(x.leadId ?? x.id));

describe('sandbox.readings', () => {
	it("starts at the spec's reading for every row, switches per test and is reset", () => {
		for (const [name, values] of Object.entries(READING_VALUES)) expect(sb.readings.get(name as keyof typeof READING_VALUES)).toBe(values[0]);
		sb.readings.set({ calendarTime: 'openapi', currentId: 'inclusive' });
		expect([sb.readings.get('calendarTime'), sb.readings.get('currentId'), sb.readings.get('noteType')]).toEqual(['openapi', 'inclusive', 'spec']);
		expect(sb.readings.other('calendarTime')).toBe(true);
		sb.reset();
		expect(sb.readings.get('calendarTime')).toBe('spec');
	});

	it('refuses an unknown reading or value', () => {
		expect(() => sb.readings.set({ nope: 'x' } as never)).toThrow(/unknown reading 'nope'/);
		expect(() => sb.readings.set({ noteType: 'other' } as never)).toThrow(/noteType is one of spec, openapi/);
	});
});

describe('leadPaging', () => {
	const page = (params: Record<string, unknown>) => api().get('/v1.0/leads', { params });

	it('spec: offset or scrollId (scrollId wins); scrollOnly: offset ignored, at most 25 a page', async () => {
		const first = await page({ limit: 50 });
		expect(first.body.leads).toHaveLength(50);
		expect(ids((await page({ limit: 10, offset: 50 })).body.leads)).toEqual(ids((await page({ limit: 60 })).body.leads).slice(50));
		sb.readings.set({ leadPaging: 'scrollOnly' });
		const capped = await page({ limit: 50, offset: 50 });
		expect(capped.body.leads).toHaveLength(25);
		expect(capped.body._metadata).toMatchObject({ limit: 25, offset: 0 });
		expect(ids(capped.body.leads)).toEqual(ids(first.body.leads).slice(0, 25));
		const next = await page({ limit: 50, offset: 999, scrollId: capped.body._metadata.scrollId });
		expect(ids(next.body.leads)).toEqual(ids(first.body.leads).slice(25, 50));
	});
});

describe('listingShape, noteType, agentLicenses, communicationType', () => {
	it('listingShape openapi: the records of listIng and soldListing sit in another key of the untyped object', async () => {
		const spec = await oauth().get('/v1.0/listing', { params: { agentListings: true } });
		expect(Array.isArray(spec.body.listIng.listings)).toBe(true);
		sb.readings.set({ listingShape: 'openapi' });
		const other = await oauth().get('/v1.0/listing', { params: { agentListings: true } });
		expect(other.body.listIng.listings).toBeUndefined();
		expect(other.body.listIng.data).toEqual(spec.body.listIng.listings);
		expect(other.body.soldListing).toHaveProperty('data');
	});

	it('noteType openapi: note records have systemNote, not noteType or idOfType', async () => {
		const read = async () => (await api().get(`/v1.0/notes/${NOTE_SEED.system}`)).body.note;
		expect(await read()).toMatchObject({ noteType: 'System', systemNote: true });
		sb.readings.set({ noteType: 'openapi' });
		const note = await read();
		expect(note.systemNote).toBe(true);
		expect(note).not.toHaveProperty('noteType');
		expect(note).not.toHaveProperty('idOfType');
	});

	it('agentLicenses openapi: workInfo.licenses is not read, workInfo.licenseId is', async () => {
		sb.readings.set({ agentLicenses: 'openapi' });
		const body = (email: string) => ({ accountType: 1, accountInfo: { firstName: 'A', lastName: 'B', emailAddress: email, phoneNumber: '5125550000' }, workInfo: { licenses: [{ label: 'TX', value: 'TX-1' }, { label: 'CA', value: 'CA-2' }], licenseId: 'TX-1' } });
		const created = await api().post('/v1.0/agent/profile/add', { body: body('lic@example.com') });
		const member = await api().get(`/v1.0/users/${s(created.body.data)}`);
		expect(member.body.agentInfo).toMatchObject({ licenseId: 'TX-1', licenses: [{ label: 'License', value: 'TX-1' }] });
	});

	it('communicationType openapi: without type, calls only; spec: all three kinds', async () => {
		const params = { startTime: COMM_SEED.windowStart, endTime: COMM_SEED.windowEnd, limit: 1000 };
		const kinds = async () => new Set((await api().get('/v2.0/communication/agent', { params })).body.data.map((e: { eventType: string }) => e.eventType.replace(/^\w+ (?=Email)/, '')));
		expect((await kinds()).size).toBeGreaterThan(1);
		sb.readings.set({ communicationType: 'openapi' });
		expect((await kinds()).size).toBe(1);
	});
});

describe('queryArrays, statusEnvelope, integers, errorBodies, currentId', () => {
	it('queryArrays openapi: groupIds repeated is read, comma-joined is not an integer', async () => {
		const members = (params: string) => api().get(`/v1.0/members?${params}`);
		const both = `groupIds=${SEED_IDS.downtownOfficeId}&groupIds=${SEED_IDS.northOfficeId}`;
		const joined = `groupIds=${SEED_IDS.downtownOfficeId},${SEED_IDS.northOfficeId}`;
		const total = (await members(both)).body._metadata.total;
		expect((await members(joined)).body._metadata.total).toBe(total);
		sb.readings.set({ queryArrays: 'openapi' });
		expect((await members(both)).body._metadata.total).toBe(total);
		const refused = await members(joined);
		expect([refused.status, refused.body.code]).toEqual([400, 20012]);
	});

	it('statusEnvelope openapi: an AI call-summary failure is HTTP 200 with a non-zero status.code', async () => {
		const get = () => api().get('/v2.0/ai/call-summary', { params: { callRecordId: AI_IDS.unknownCallRecordId } });
		expect([(await get()).status, (await get()).body.code]).toEqual([400, 20012]);
		sb.readings.set({ statusEnvelope: 'openapi' });
		const r = await get();
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ status: { code: 20012, msg: expect.stringMatching(/no call summary/) }, data: null });
		const alert = await api().post('/v1.0/agent/send-notification', { body: { notificationType: 11 } });
		expect([alert.status, alert.body.status.code]).toEqual([200, 20012]);
	});

	it('integers openapi: decimals in integer fields are cut to their whole part, as Jackson reads them', async () => {
		const put = () => api().post(`/v1.0/leads/${SEED_IDS.bigLeadId}/property`, { body: { city: 'Austin', bedrooms: 2.5, bathrooms: 1.5 } });
		const bedrooms = async () => (await api().get(`/v1.0/leads/${SEED_IDS.bigLeadId}`)).body.lead.leadPropertyList.find((p: { city: string }) => p.city === 'Austin');
		await put();
		expect(await bedrooms()).toMatchObject({ bedrooms: 2.5, bathrooms: 1.5 });
		sb.reset();
		sb.readings.set({ integers: 'openapi' });
		await put();
		expect(await bedrooms()).toMatchObject({ bedrooms: 2, bathrooms: 1.5 });
		const hook = await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: 'https://example.com/h', limit: 250.7 } });
		expect(hook.status).toBe(200);
	});

	it("errorBodies bareCode: the endpoint's own errors are the bare code; gateway errors stay objects", async () => {
		sb.readings.set({ errorBodies: 'bareCode' });
		const missing = await api().get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}`);
		expect([missing.status, missing.text]).toEqual([404, '"LEAD_NOT_EXIST"']);
		const assignee = await api().post('/v1.0/leads/assignee', { body: { firstName: 'Ada' } });
		expect([assignee.status, assignee.text]).toEqual([400, '"PARAM_EMAIL_MUST_FILL"']);
		const unauthenticated = await client(sb.url, { token: 'wrong' }).get('/v1.0/me');
		expect(unauthenticated.body).toMatchObject({ code: 'BAD_CREDENTIALS' });
	});

	it('currentId inclusive: My Tasks and lead activities start at that id', async () => {
		const own = (list: Array<{ id: unknown }>) => list.map((x) => s(x.id));
		const tasks = async (currentId?: string) => own((await api().get('/v2.0/tasks/my-tasks', { params: { limit: 5, currentId } })).body.tasks);
		const activities = async (currentId?: string) => own((await api().get(`/v2.0/leads/${SEED_IDS.activityLeadId}/activities`, { params: { limit: 5, currentId } })).body.activities);
		const [t, a] = [await tasks(), await activities()];
		expect((await tasks(t[2])).slice(0, 2)).toEqual(t.slice(3, 5));
		sb.readings.set({ currentId: 'inclusive' });
		expect((await tasks(t[2])).slice(0, 3)).toEqual(t.slice(2, 5));
		expect((await activities(a[2])).slice(0, 3)).toEqual(a.slice(2, 5));
	});
});

describe('a repeating server (faults for the guards of Return All)', () => {
	const LEADS = { method: 'GET', path: '/v1.0/leads' };
	const page = (params: Record<string, unknown>) => api().get('/v1.0/leads', { params });

	it('repeatPage answers with the previous answer of the same path', async () => {
		sb.faults.inject({ kind: 'repeatPage', skip: 1, match: LEADS });
		const first = await page({ limit: 5 });
		expect((await page({ limit: 5, offset: 5 })).text).toBe(first.text);
		expect((await page({ limit: 5, offset: 5 })).text).not.toBe(first.text);
	});

	it('staleCursor leaves the cursor field at the cursor sent; pageCap serves less than asked; overstateTotal raises the total', async () => {
		const first = await page({ limit: 5 });
		sb.faults.inject({ kind: 'staleCursor', param: 'scrollId', field: '_metadata.scrollId', match: LEADS });
		const stale = await page({ limit: 5, scrollId: first.body._metadata.scrollId });
		expect(stale.body._metadata.scrollId).toBe(first.body._metadata.scrollId);
		sb.faults.inject({ kind: 'pageCap', param: 'limit', max: 3, match: LEADS });
		const capped = await page({ limit: 5 });
		expect(capped.body.leads).toHaveLength(3);
		expect(sb.requests.at(-1)!.query.limit).toBe('5');
		sb.faults.inject({ kind: 'overstateTotal', field: '_metadata.total', by: 4, match: LEADS });
		expect((await page({ limit: 5 })).body._metadata.total).toBe(first.body._metadata.total + 4);
		expect(sb.faults.served).toMatchObject({ staleCursor: 1, pageCap: 1, overstateTotal: 1 });
	});

	it('needs the fields it works on, and is cleared by reset', () => {
		expect(() => sb.faults.inject({ kind: 'staleCursor', field: 'nextCursor' })).toThrow(/needs param/);
		expect(() => sb.faults.inject({ kind: 'overstateTotal' })).toThrow(/needs field/);
		sb.faults.inject({ kind: 'repeatPage', times: 3 });
		sb.reset();
		expect(sb.faults.remaining).toBe(0);
	});
});
