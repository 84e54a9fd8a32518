import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { NOTE_SEED, noteState } from '../../sandbox/resources/note';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const notesOf = async (leadId: string, params: Record<string, unknown> = {}) =>
	(await api().get('/v1.0/notes', { params: { leadId, ...params } })).body.notes as any[];

function expectCode(r: { status: number; body: any }, status: number, code: number | string, pattern?: RegExp) {
	expect(r.status).toBe(status);
	expect(r.body.code).toBe(code);
	if (pattern) expect(r.body.message).toMatch(pattern);
}

describe('POST /v1.0/notes', () => {
	it('creates a note and returns only its ID under noteId', async () => {
		const r = await api().post('/v1.0/notes', { body: { leadId: SEED_IDS.bigLeadId, content: 'Called, no answer', isPin: false } });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(['noteId']);
		const got = await api().get(`/v1.0/notes/${s(r.body.noteId)}`);
		expect(got.body.note).toMatchObject({ content: 'Called, no answer', isPin: false, noteType: 'Manual', systemNote: false, deleteFlag: false });
		expect(s(got.body.note.leadId)).toBe(SEED_IDS.bigLeadId);
		expect(s(got.body.note.creatorId)).toBe(SEED_IDS.demoUserId);
		expect(got.body.note.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
	});

	it('cuts content to 2000 characters silently', async () => {
		const r = await api().post('/v1.0/notes', { body: { leadId: SEED_IDS.bigLeadId, content: 'x'.repeat(2500), isPin: true } });
		expect(noteState(sb.store).notes.get(s(r.body.noteId))!.content).toHaveLength(2000);
	});

	it.each([
		[{ content: 'a', isPin: false }, /'leadId' is required/],
		[{ leadId: -1, content: 'a', isPin: false }, /'leadId' must be a lead ID/],
		[{ leadId: SEED_IDS.bigLeadId, content: '   ', isPin: false }, /'content' must not be blank/],
		[{ leadId: SEED_IDS.bigLeadId, isPin: false }, /'content' must not be blank/],
		[{ leadId: SEED_IDS.bigLeadId, content: 'a' }, /'isPin' must not be null/],
		[{ leadId: SEED_IDS.bigLeadId, content: 'a', isPin: null }, /'isPin' must not be null/],
	])('refuses %j with 400 20012', async (body, pattern) => {
		expectCode(await api().post('/v1.0/notes', { body }), 400, 20012, pattern);
	});

	it.each([
		['a lead of another agent', SEED_IDS.notSharedLeadId],
		['a trashed lead', SEED_IDS.trashedLeadId],
		['a missing lead', '123'],
	])('answers 404 20006 LEAD_NOT_EXIST for %s', async (_, leadId) => {
		expectCode(await api().post('/v1.0/notes', { body: { leadId, content: 'a', isPin: false } }), 404, 20006, /LEAD_NOT_EXIST/);
	});

	it('persists asynchronously: with a delay, GET and PUT answer 404 20007 at first, DELETE works', async () => {
		noteState(sb.store).readDelayMs = 60_000;
		const id = s((await api().post('/v1.0/notes', { body: { leadId: SEED_IDS.bigLeadId, content: 'new', isPin: false } })).body.noteId);
		expectCode(await api().get(`/v1.0/notes/${id}`), 404, 20007);
		expectCode(await api().put(`/v1.0/notes/${id}`, { body: { content: 'b', isPin: false } }), 404, 20007);
		expect((await api().delete(`/v1.0/notes/${id}`)).status).toBe(200);
	});
});

describe('GET /v1.0/notes', () => {
	it('lists user notes of a lead under notes; system notes only with includeSystemNote=true', async () => {
		const plain = await notesOf(SEED_IDS.bigLeadId);
		expect(plain.map((n) => s(n.noteId)).sort()).toEqual([NOTE_SEED.pinned, NOTE_SEED.manual, NOTE_SEED.ai].sort());
		const all = await notesOf(SEED_IDS.bigLeadId, { includeSystemNote: true });
		expect(all).toHaveLength(4);
		const system = all.find((n) => s(n.noteId) === NOTE_SEED.system);
		expect(system).toMatchObject({ noteType: 'System', systemNote: true });
		expect(all.find((n) => s(n.noteId) === NOTE_SEED.ai).noteType).toBe('AI');
	});

	it('writes note IDs above 2^53 as exact integers', async () => {
		const r = await api().get('/v1.0/notes', { params: { leadId: SEED_IDS.bigLeadId } });
		expect(r.text).toContain(`"noteId":${NOTE_SEED.pinned}`);
		expect(typeof r.body.notes[0].noteId).toBe('bigint');
	});

	it('gives an empty array for a lead without notes', async () => {
		expect(await notesOf(SEED_IDS.logsLeadId)).toEqual([]);
	});

	it('lists notes of a lead shared with the caller', async () => {
		expect((await notesOf(SEED_IDS.sharedLeadId)).map((n) => s(n.noteId))).toEqual([NOTE_SEED.sharedLeadNote]);
	});

	it('answers 404 20006 for a lead of another agent or in the trash, 400 20012 without leadId', async () => {
		expectCode(await api().get('/v1.0/notes', { params: { leadId: SEED_IDS.notSharedLeadId } }), 404, 20006);
		expectCode(await api().get('/v1.0/notes', { params: { leadId: SEED_IDS.trashedLeadId } }), 404, 20006);
		expectCode(await api().get('/v1.0/notes'), 400, 20012);
		expectCode(await api().get('/v1.0/notes', { params: { leadId: 0 } }), 400, 20012);
		expectCode(await api().get('/v1.0/notes', { params: { leadId: SEED_IDS.bigLeadId, includeSystemNote: 'maybe' } }), 400, 20012);
	});
});

describe('GET /v1.0/notes/{noteId}', () => {
	it('returns the note under note', async () => {
		const r = await api().get(`/v1.0/notes/${NOTE_SEED.pinned}`);
		expect(r.status).toBe(200);
		expect(r.body.note).toMatchObject({ isPin: true, noteType: 'Manual', creatorName: 'Dana Demo' });
		expect(s(r.body.note.id)).toMatch(/^\d+$/);
		expect(s(r.body.note.id)).not.toBe(NOTE_SEED.pinned);
	});

	it('answers 404 20007 for a missing note or one of a lead the caller cannot see; 400 20012 for a bad ID', async () => {
		expectCode(await api().get('/v1.0/notes/1'), 404, 20007, /RESOURCE_NOT_EXIST/);
		expectCode(await api().get(`/v1.0/notes/${NOTE_SEED.otherAgentNote}`), 404, 20007);
		expectCode(await api().get(`/v1.0/notes/${NOTE_SEED.trashedLeadNote}`), 404, 20007);
		expectCode(await api().get('/v1.0/notes/abc'), 400, 20012);
		expectCode(await api().get('/v1.0/notes/0'), 400, 20012);
	});
});

describe('PUT /v1.0/notes/{noteId}', () => {
	it('replaces content and pin state, answers with an empty body, logs an EditNote (17) system event', async () => {
		const r = await api().put(`/v1.0/notes/${NOTE_SEED.manual}`, { body: { content: 'Edited', isPin: true, leadId: SEED_IDS.bigLeadId } });
		expect(r.status).toBe(200);
		expect(r.text).toBe('');
		expect(noteState(sb.store).notes.get(NOTE_SEED.manual)).toMatchObject({ content: 'Edited', isPin: true });
		const log = sb.store.systemLogsOf(SEED_IDS.bigLeadId)[0];
		expect(log.timelineType).toBe(17);
		expect(s(log.refId)).toBe(NOTE_SEED.manual);
	});

	it('takes leadId as optional, but refuses one of another lead: 400 INVALID_UPDATE_OPERATION_LEADID', async () => {
		expect((await api().put(`/v1.0/notes/${NOTE_SEED.manual}`, { body: { content: 'a', isPin: false } })).status).toBe(200);
		expectCode(await api().put(`/v1.0/notes/${NOTE_SEED.manual}`, { body: { content: 'a', isPin: false, leadId: SEED_IDS.bigLeadId2 } }), 400, 'INVALID_UPDATE_OPERATION_LEADID');
	});

	it('refuses blank content or a missing isPin (400 20012), a missing note (404 20007), a lead out of reach (404 20006)', async () => {
		expectCode(await api().put(`/v1.0/notes/${NOTE_SEED.manual}`, { body: { content: '', isPin: false } }), 400, 20012);
		expectCode(await api().put(`/v1.0/notes/${NOTE_SEED.manual}`, { body: { content: 'a' } }), 400, 20012);
		expectCode(await api().put('/v1.0/notes/5', { body: { content: 'a', isPin: false } }), 404, 20007);
		expectCode(await api().put(`/v1.0/notes/${NOTE_SEED.otherAgentNote}`, { body: { content: 'a', isPin: false } }), 404, 20006);
	});
});

describe('DELETE /v1.0/notes/{noteId}', () => {
	it('deletes with an empty body and logs a DeleteNote (18) system event; the note is gone', async () => {
		const r = await api().delete(`/v1.0/notes/${NOTE_SEED.manual}`);
		expect(r.status).toBe(200);
		expect(r.text).toBe('');
		expect(sb.store.systemLogsOf(SEED_IDS.bigLeadId)[0].timelineType).toBe(18);
		expectCode(await api().get(`/v1.0/notes/${NOTE_SEED.manual}`), 404, 20007);
		expect((await notesOf(SEED_IDS.bigLeadId)).map((n) => s(n.noteId))).not.toContain(NOTE_SEED.manual);
		expectCode(await api().delete(`/v1.0/notes/${NOTE_SEED.manual}`), 404, 20007);
	});

	it('answers 404 20006 when the note belongs to a lead the caller does not manage', async () => {
		expectCode(await api().delete(`/v1.0/notes/${NOTE_SEED.otherAgentNote}`), 404, 20006);
		expect(noteState(sb.store).notes.get(NOTE_SEED.otherAgentNote)!.deleted).toBe(false);
	});
});
