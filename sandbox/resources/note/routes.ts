/**
 * Notes (written from api-spec.md and the OpenAPI):
 *   POST   /v1.0/notes             create ({noteId})
 *   GET    /v1.0/notes             all notes of a lead ({notes: [...]}, unpaginated, order not guaranteed)
 *   GET    /v1.0/notes/{noteId}    one note ({note: {...}})
 *   PUT    /v1.0/notes/{noteId}    replace content and pin state (empty body)
 *   DELETE /v1.0/notes/{noteId}    delete (empty body)
 *
 * Codes (OpenAPI; the spec names the codes without numbers): 400 20012 INVALID_PARAMETER,
 * 400 INVALID_UPDATE_OPERATION_LEADID, 404 20006 LEAD_NOT_EXIST, 404 20007 RESOURCE_NOT_EXIST.
 * Content is cut to 2000 characters silently. Creation persists asynchronously: for
 * `readDelayMs` after a create, GET and PUT of the new note answer 404 (DELETE is unaffected);
 * the delay is 0 unless a test sets it. Notes carry `noteType` (Manual, System, AI) and
 * `idOfType` (spec); system notes are listed only with includeSystemNote=true (AI notes are not
 * system notes: a sandbox choice). Edits and deletions add EditNote (17) / DeleteNote (18)
 * entries to the lead's system log, which the spec says GET /v1.0/systemLogs returns.
 */
import { ApiError, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject, boolParam, has, optBool, optString, pathId } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Ctx, Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { TL } from '../../core/timeline';
import type { Lead } from '../../core/types';
import { emitNote } from '../webhook/delivery/emit';

export type NoteType = 'Manual' | 'System' | 'AI';

export interface NoteRecord {
	noteId: bigint;
	/** the timeline row carrying the note */
	timelineId: bigint;
	leadId: bigint;
	creatorId: bigint;
	lastEditorId: bigint;
	content: string;
	isPin: boolean;
	noteType: NoteType;
	idOfType: bigint;
	createTime: number;
	lastUpdate: number;
	deleted: boolean;
	/** GET and PUT answer 404 before this instant (asynchronous persistence) */
	readableAt: number;
}

export const NOTE_MAX_LENGTH = 2000;

export class NoteState {
	notes = new Map<string, NoteRecord>();
	nextNoteId = 9007199254760001n;
	nextTimelineId = 1224565260900000001n;
	/** how long a new note stays unreadable to GET and PUT (ms) */
	readDelayMs = 0;
}

export const noteState = (store: Store): NoteState => store.ext('note', () => new NoteState());

/** Notable seeded notes (IDs above 2^53). */
export const NOTE_SEED = {
	/** manual, pinned note on the demo lead above 2^53 */
	pinned: '9007199254760001',
	/** manual note on the same lead */
	manual: '9007199254760002',
	/** system note on the same lead (listed only with includeSystemNote) */
	system: '9007199254760003',
	/** AI note on the same lead */
	ai: '9007199254760004',
	/** note on a lead of the other agent, not shared with the demo user */
	otherAgentNote: '9007199254760005',
	/** note on the lead shared with the demo user */
	sharedLeadNote: '9007199254760006',
	/** note on the demo user's trashed lead */
	trashedLeadNote: '9007199254760007',
	/** the lead above 2^53 holds 2 manual notes, 1 system, 1 AI */
	leadId: SEED_IDS.bigLeadId,
} as const;

const LEAD_NOT_EXIST = 20006;
const RESOURCE_NOT_EXIST = 20007;

const leadNotExist = (id: bigint): ApiError => new ApiError(404, LEAD_NOT_EXIST, `LEAD_NOT_EXIST: Lead ${id} does not exist or is not accessible`);
const noteNotExist = (id: bigint | string): ApiError => new ApiError(404, RESOURCE_NOT_EXIST, `RESOURCE_NOT_EXIST: Note ${id} does not exist`);

/** UTC 'yyyy-MM-dd HH:mm:ss' (the OpenAPI's format for note times) */
const utcText = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

function userName(store: Store, id: bigint): string {
	const u = store.getUser(id);
	return u ? `${u.firstName} ${u.lastName}`.trim() : '';
}

export function noteView(n: NoteRecord, store: Store): Record<string, unknown> {
	return {
		id: n.timelineId,
		noteId: n.noteId,
		creatorId: n.creatorId,
		leadId: n.leadId,
		createTime: utcText(n.createTime),
		deleteFlag: n.deleted,
		content: n.content,
		lastUpdate: utcText(n.lastUpdate),
		lastEditorId: n.lastEditorId,
		creatorName: userName(store, n.creatorId),
		lastEditorName: userName(store, n.lastEditorId),
		isPin: n.isPin,
		systemNote: n.noteType === 'System',
		// The OpenAPI's NoteResponse has neither (the noteType reading `openapi`); the spec names both.
		...(readingsOf(store).get('noteType') === 'openapi' ? {} : { noteType: n.noteType, idOfType: n.idOfType }),
	};
}

/** A lead the caller may see and manage, not trashed; otherwise 404 20006. */
function visibleLead(ctx: Ctx, leadId: bigint): Lead {
	const lead = ctx.store.getLead(leadId);
	if (!lead || lead.deletedAt !== null || !ctx.store.canAccess(ctx.user.userId, lead)) throw leadNotExist(leadId);
	return lead;
}

function noteIdParam(ctx: Ctx): bigint {
	return pathId(ctx.params.noteId, 'noteId');
}

function findNote(ctx: Ctx, id: bigint, opts: { readable: boolean }): NoteRecord {
	const n = noteState(ctx.store).notes.get(id.toString());
	if (!n || n.deleted || (opts.readable && ctx.now < n.readableAt)) throw noteNotExist(id);
	return n;
}

/** content (not blank, cut to 2000) and isPin (not null) of a create or update body */
function readNoteBody(o: Record<string, unknown>): { content: string; isPin: boolean } {
	const content = optString(o, 'content');
	if (content === undefined || content.trim() === '') throw invalidParam("'content' must not be blank");
	const isPin = optBool(o, 'isPin');
	if (isPin === undefined) throw invalidParam("'isPin' must not be null");
	return { content: content.slice(0, NOTE_MAX_LENGTH), isPin };
}

export const noteRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/notes',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const leadId = toInt64(o.leadId);
			if (leadId === undefined) throw invalidParam("'leadId' is required");
			if (leadId === null || leadId === -1n || leadId < 1n) throw invalidParam(`'leadId' must be a lead ID, got ${String(o.leadId)}`);
			const { content, isPin } = readNoteBody(o);
			const lead = visibleLead(ctx, leadId);
			const state = noteState(ctx.store);
			// the timeline row carrying the note (AddNote 16 is not a system type: never in /v1.0/systemLogs)
			const row = ctx.store.addSystemLog(lead.leadId, { timelineType: TL.ADD_NOTE, timelineTime: ctx.now, agentId: ctx.user.userId, content: {} });
			const n: NoteRecord = {
				noteId: state.nextNoteId++,
				timelineId: row.id,
				leadId: lead.leadId,
				creatorId: ctx.user.userId,
				lastEditorId: ctx.user.userId,
				content,
				isPin,
				noteType: 'Manual',
				idOfType: 0n,
				createTime: ctx.now,
				lastUpdate: ctx.now,
				deleted: false,
				readableAt: ctx.now + state.readDelayMs,
			};
			row.refId = n.noteId;
			row.content = { noteId: n.noteId };
			state.notes.set(n.noteId.toString(), n);
			emitNote(ctx.store, 'created', { noteId: n.noteId, leadId: n.leadId, noteType: n.noteType, agentId: ctx.user.userId }, ctx.now);
			return { body: { noteId: n.noteId } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/notes',
		handler: (ctx) => {
			if (!has(ctx.query, 'leadId')) throw invalidParam("'leadId' is required");
			const raw = ctx.query.get('leadId')!;
			const leadId = toInt64(raw);
			if (leadId === null || leadId === undefined || leadId < 1n) throw invalidParam(`'leadId' must be at least 1, got '${raw}'`);
			const includeSystem = boolParam(ctx.query, 'includeSystemNote') ?? false;
			const lead = visibleLead(ctx, leadId);
			const notes = [...noteState(ctx.store).notes.values()]
				.filter((n) => n.leadId === lead.leadId && !n.deleted && ctx.now >= n.readableAt && (includeSystem || n.noteType !== 'System'))
				.sort((a, b) => b.createTime - a.createTime || (b.noteId > a.noteId ? 1 : -1))
				.map((n) => noteView(n, ctx.store));
			return { body: { notes } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/notes/{noteId}',
		handler: (ctx) => {
			const id = noteIdParam(ctx);
			const n = findNote(ctx, id, { readable: true });
			// the note must belong to a lead visible to the caller; otherwise it is "not found" too
			const lead = ctx.store.getLead(n.leadId);
			if (!lead || lead.deletedAt !== null || !ctx.store.canAccess(ctx.user.userId, lead)) throw noteNotExist(id);
			return { body: { note: noteView(n, ctx.store) } };
		},
	},
	{
		method: 'PUT',
		pattern: '/v1.0/notes/{noteId}',
		body: 'json',
		handler: (ctx) => {
			const id = noteIdParam(ctx);
			const o = asObject(ctx.body);
			const { content, isPin } = readNoteBody(o);
			const leadId = toInt64(o.leadId);
			if (leadId === null) throw invalidParam("'leadId' must be an int64 integer");
			const n = findNote(ctx, id, { readable: true });
			visibleLead(ctx, n.leadId);
			// the OpenAPI marks leadId required in NoteRequest, but the update rules make it optional
			if (leadId !== undefined && leadId !== n.leadId) {
				throw new ApiError(400, 'INVALID_UPDATE_OPERATION_LEADID', `leadId ${leadId} does not match the lead of note ${id}`);
			}
			n.content = content;
			n.isPin = isPin;
			n.lastEditorId = ctx.user.userId;
			n.lastUpdate = ctx.now;
			ctx.store.addSystemLog(n.leadId, { timelineType: TL.EDIT_NOTE, timelineTime: ctx.now, agentId: ctx.user.userId, refId: n.noteId, content: { noteId: n.noteId } });
			emitNote(ctx.store, 'updated', { noteId: n.noteId, leadId: n.leadId, noteType: n.noteType, agentId: ctx.user.userId }, ctx.now);
			return { raw: '' };
		},
	},
	{
		method: 'DELETE',
		pattern: '/v1.0/notes/{noteId}',
		handler: (ctx) => {
			const id = noteIdParam(ctx);
			const n = findNote(ctx, id, { readable: false });
			visibleLead(ctx, n.leadId);
			n.deleted = true;
			n.lastUpdate = ctx.now;
			ctx.store.addSystemLog(n.leadId, { timelineType: TL.DELETE_NOTE, timelineTime: ctx.now, agentId: ctx.user.userId, refId: n.noteId, content: { noteId: n.noteId } });
			emitNote(ctx.store, 'deleted', { noteId: n.noteId, leadId: n.leadId, noteType: n.noteType, agentId: ctx.user.userId }, ctx.now);
			return { raw: '' };
		},
	},
];

export function seedNotes(store: Store): void {
	const state = noteState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const t0 = Date.UTC(2025, 3, 22, 10, 15, 30);
	let k = 0;
	const add = (leadId: string | bigint, creatorId: bigint, content: string, noteType: NoteType = 'Manual', isPin = false, idOfType = 0n): NoteRecord => {
		const time = t0 + k++ * 3_600_000;
		const n: NoteRecord = {
			noteId: state.nextNoteId++,
			timelineId: state.nextTimelineId++,
			leadId: BigInt(leadId),
			creatorId,
			lastEditorId: creatorId,
			content,
			isPin,
			noteType,
			idOfType,
			createTime: time,
			lastUpdate: time,
			deleted: false,
			readableAt: 0,
		};
		state.notes.set(n.noteId.toString(), n);
		return n;
	};
	// notable notes first, so their IDs are fixed (see NOTE_SEED)
	add(SEED_IDS.bigLeadId, demo, 'Pre-approved up to $650k with First Lending; wants a pool.', 'Manual', true);
	add(SEED_IDS.bigLeadId, demo, 'Discussed Austin inventory, will send pre-approval doc tomorrow.');
	add(SEED_IDS.bigLeadId, 0n, 'Lead registered on the website from a Zillow listing.', 'System', false, 2033115n);
	add(SEED_IDS.bigLeadId, 0n, 'AI summary: motivated buyer, timeline 1-3 months, prefers Round Rock.', 'AI', false, 7700000001n);
	add(SEED_IDS.notSharedLeadId, other, "Other agent's private note.");
	add(SEED_IDS.sharedLeadId, other, 'Shared lead: seller wants to list in spring.');
	add(SEED_IDS.trashedLeadId, demo, 'Duplicate of another lead.');
	// a few notes on more of the demo user's leads
	const leads = [...store.leads.values()]
		.filter((l) => l.ownerUserId === demo && l.deletedAt === null && l.leadId.toString() !== SEED_IDS.bigLeadId)
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1))
		.slice(0, 20);
	leads.forEach((lead, i) => {
		for (let j = 0; j <= i % 3; j++) add(lead.leadId, demo, `Note ${j + 1} about ${lead.firstName}: follow up on financing.`, 'Manual', j === 0 && i % 4 === 0);
		if (i % 5 === 0) add(lead.leadId, 0n, `${lead.firstName} opened the listing alert email.`, 'System');
	});
}
