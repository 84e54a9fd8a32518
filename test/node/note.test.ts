import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { NOTE_SEED, noteState } from '../../sandbox/resources/note';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const notes = () => noteState(sandbox().store).notes;

describe('Note: Create', () => {
	it('adds a note to a lead above 2^53 and returns its ID as a string', async () => {
		const [item] = await run(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.bigLeadId), content: 'Wants a pool', isPin: true });
		expect(typeof item.json.noteId).toBe('string');
		expect(notes().get(item.json.noteId as string)).toMatchObject({ content: 'Wants a pool', isPin: true, noteType: 'Manual' });
		expect(sandbox().requests[0].body).toBe(`{"leadId":${SEED_IDS.bigLeadId},"content":"Wants a pool","isPin":true}`);
	});

	it('sends Pin as false by default', async () => {
		await run(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.bigLeadId), content: 'Plain' });
		expect(JSON.parse(sandbox().requests[0].body).isPin).toBe(false);
	});

	it('refuses content over 2000 characters (Lofty would cut it silently) and blank content, before sending', async () => {
		const long = await runError(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.bigLeadId), content: 'x'.repeat(2001) });
		expect(long.message).toBe('Invalid value for "Content": must be at most 2000 characters, got 2001');
		const blank = await runError(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.bigLeadId), content: '  ' });
		expect(blank.message).toBe('Invalid value for "Content": is required');
		const lead = await runError(sandbox(), { resource: 'note', operation: 'create', leadId: byId('-1'), content: 'a' });
		expect(lead.message).toMatch(/^Invalid value for "Lead": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 20006 for a lead the user cannot see', async () => {
		const error = await runError(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.notSharedLeadId), content: 'a' });
		expect(error.message).toMatch(/HTTP 404 20006/);
		expect(error.description).toMatch(/cannot see it/);
	});
});

describe('Note: Get', () => {
	it('returns the note unwrapped, with exact IDs', async () => {
		const [item] = await run(sandbox(), { resource: 'note', operation: 'get', noteId: NOTE_SEED.pinned });
		expect(item.json).toMatchObject({ noteId: NOTE_SEED.pinned, leadId: SEED_IDS.bigLeadId, isPin: true, noteType: 'Manual' });
		expect(item.json.note).toBeUndefined();
	});

	it('explains 20007, including the delay after creating a note', async () => {
		noteState(sandbox().store).readDelayMs = 60_000;
		const [created] = await run(sandbox(), { resource: 'note', operation: 'create', leadId: byId(SEED_IDS.bigLeadId), content: 'just now' });
		const error = await runError(sandbox(), { resource: 'note', operation: 'get', noteId: created.json.noteId });
		expect(error.message).toMatch(/HTTP 404 20007/);
		expect(error.description).toMatch(/take a few seconds to become readable/);
	});

	it('refuses a note ID that is not a whole number before sending', async () => {
		const error = await runError(sandbox(), { resource: 'note', operation: 'get', noteId: '12-ab' });
		expect(error.message).toMatch(/^Invalid value for "Note ID": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Note: Get Many', () => {
	const getAll = (options: Record<string, unknown> = {}, leadId: string = SEED_IDS.bigLeadId) =>
		run(sandbox(), { resource: 'note', operation: 'getAll', leadId: byId(leadId), options });

	it('returns one item per note; system notes only when asked', async () => {
		const plain = await getAll();
		expect(plain.map((i) => i.json.noteId).sort()).toEqual([NOTE_SEED.pinned, NOTE_SEED.manual, NOTE_SEED.ai].sort());
		expect(sandbox().requests[0].query).toEqual({ leadId: SEED_IDS.bigLeadId });
		const all = await getAll({ includeSystemNote: true });
		expect(all).toHaveLength(4);
	});

	it('keeps only the chosen note types, without sending them to Lofty; System switches system notes on', async () => {
		const ai = await getAll({ noteTypes: ['AI'] });
		expect(ai.map((i) => i.json.noteId)).toEqual([NOTE_SEED.ai]);
		expect(sandbox().requests[0].query).toEqual({ leadId: SEED_IDS.bigLeadId });
		const system = await getAll({ noteTypes: ['System'] });
		expect(system.map((i) => i.json.noteId)).toEqual([NOTE_SEED.system]);
		expect(sandbox().requests[1].query).toEqual({ leadId: SEED_IDS.bigLeadId, includeSystemNote: 'true' });
	});

	// docs/api-readings.md, row 5: the spec's notes carry noteType; the OpenAPI's only systemNote.
	describe.each(READING_VALUES.noteType)('Note Types filter (noteType %s)', (reading) => {
		beforeEach(() => sandbox().readings.set({ noteType: reading }));
		const ids = (items: Array<{ json: Record<string, unknown> }>) => items.map((i) => i.json.noteId).sort();

		it('System, and the others together, are told apart by noteType or by systemNote', async () => {
			expect(ids(await getAll({ noteTypes: ['System'] }))).toEqual([NOTE_SEED.system]);
			expect(ids(await getAll({ noteTypes: ['Manual', 'AI'] }))).toEqual([NOTE_SEED.pinned, NOTE_SEED.manual, NOTE_SEED.ai].sort());
			expect(ids(await getAll({ noteTypes: ['Manual', 'AI', 'System'] }))).toHaveLength(4);
			const [record] = await getAll({ noteTypes: ['System'] });
			expect(record.json.systemNote).toBe(true);
			expect('noteType' in record.json).toBe(reading === 'spec');
		});

		it('AI or Manual alone: filtered by noteType, or refused naming the other reading when notes carry only systemNote', async () => {
			if (reading === 'spec') {
				expect(ids(await getAll({ noteTypes: ['AI'] }))).toEqual([NOTE_SEED.ai]);
				expect(ids(await getAll({ noteTypes: ['Manual'] }))).toEqual([NOTE_SEED.pinned, NOTE_SEED.manual].sort());
				return;
			}
			for (const noteTypes of [['AI'], ['Manual', 'System']]) {
				const error = await runError(sandbox(), { resource: 'note', operation: 'getAll', leadId: byId(SEED_IDS.bigLeadId), options: { noteTypes } });
				expect(error.message).toMatch(/^Invalid value for "Note Types": Lofty's notes carry no noteType here, only systemNote \(as in its OpenAPI\), so AI notes cannot be told from manual ones/);
				expect(error.description).toMatch(/^Lofty's answer cannot give what the field asks for/);
			}
		});
	});

	it('returns nothing for a lead without notes', async () => {
		expect(await getAll({}, SEED_IDS.logsLeadId)).toEqual([]);
	});

	it('explains 20006 for a lead in the trash', async () => {
		const error = await runError(sandbox(), { resource: 'note', operation: 'getAll', leadId: byId(SEED_IDS.trashedLeadId) });
		expect(error.message).toMatch(/HTTP 404 20006/);
		expect(error.description).toMatch(/in the trash/);
	});
});

describe('Note: Update', () => {
	const update = (extra: Record<string, unknown>) => run(sandbox(), { resource: 'note', operation: 'update', noteId: NOTE_SEED.manual, content: 'Edited', ...extra });

	it('replaces text and pin state and says which note was updated', async () => {
		const [item] = await update({ isPin: true });
		expect(item.json).toEqual({ noteId: NOTE_SEED.manual, updated: true });
		expect(notes().get(NOTE_SEED.manual)).toMatchObject({ content: 'Edited', isPin: true });
		expect(JSON.parse(sandbox().requests[0].body)).toEqual({ content: 'Edited', isPin: true });
	});

	it('sends the lead check exactly and explains INVALID_UPDATE_OPERATION_LEADID', async () => {
		await update({ additionalFields: { leadId: byId(SEED_IDS.bigLeadId) } });
		expect(sandbox().requests[0].body).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const error = await runError(sandbox(), { resource: 'note', operation: 'update', noteId: NOTE_SEED.manual, content: 'x', additionalFields: { leadId: SEED_IDS.bigLeadId2 } });
		expect(error.message).toMatch(/HTTP 400 INVALID_UPDATE_OPERATION_LEADID/);
		expect(error.description).toMatch(/belongs to another lead/);
	});

	it('explains 20006 for a note of a lead the user cannot see, and 20007 for a missing note', async () => {
		const hidden = await runError(sandbox(), { resource: 'note', operation: 'update', noteId: NOTE_SEED.otherAgentNote, content: 'x' });
		expect(hidden.message).toMatch(/HTTP 404 20006/);
		const missing = await runError(sandbox(), { resource: 'note', operation: 'update', noteId: '42', content: 'x' });
		expect(missing.message).toMatch(/HTTP 404 20007/);
		expect(missing.description).toMatch(/does not exist, was deleted/);
	});

	it('refuses blank or too long content before sending', async () => {
		for (const content of ['', 'y'.repeat(2001)]) {
			const error = await runError(sandbox(), { resource: 'note', operation: 'update', noteId: NOTE_SEED.manual, content });
			expect(error.message).toMatch(/^Invalid value for "Content"/);
		}
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Note: Delete', () => {
	it('deletes the note and returns {deleted: true, noteId}', async () => {
		const [item] = await run(sandbox(), { resource: 'note', operation: 'delete', noteId: NOTE_SEED.pinned });
		expect(item.json).toEqual({ deleted: true, noteId: NOTE_SEED.pinned });
		expect(notes().get(NOTE_SEED.pinned)!.deleted).toBe(true);
		const again = await runError(sandbox(), { resource: 'note', operation: 'delete', noteId: NOTE_SEED.pinned });
		expect(again.message).toMatch(/HTTP 404 20007/);
	});

	it('explains 20006 when the note belongs to a lead the user does not manage', async () => {
		const error = await runError(sandbox(), { resource: 'note', operation: 'delete', noteId: NOTE_SEED.otherAgentNote });
		expect(error.message).toMatch(/HTTP 404 20006/);
		expect(error.description).toMatch(/cannot see it/);
	});
});
