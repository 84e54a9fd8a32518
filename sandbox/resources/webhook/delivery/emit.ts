/**
 * The events sandbox writes emit, shaped as api-spec.md's payload table ("Events > Payloads"):
 *
 * | listId | key(s)                                              | fields |
 * |---|---|---|
 * | 1  | updatedAgent[]                                          | agentUserId, updateTime |
 * | 2  | createdLead[], updatedLead[], deletedLead[]             | leadId, updateTime |
 * | 3  | updatedLead[]                                           | leadId, updateTime (SiteBrowse, SiteFavorite, SiteSearch) |
 * | 4  | alertId (scalar)                                        | |
 * | 5  | createdTransaction[], updatedTransaction[], deletedTransaction[] | leadId, transactionId, updateTime; updates add updatedField, updatedFields |
 * | 6-8| createdCall[], createdEmail[], createdText[]            | callId/emailId/textId, timelineId, leadId, updateTime, agentId, communicationType |
 * | 9  | createdNote[], updatedNote (object), deletedNote (object) | noteId, leadId, updateTime, noteType, agentId |
 * | 10 | createdTask[], updatedTask[], finishedTask[], deletedTask[] | taskId, leadId, updateTime |
 * | 11 | createdAppt[], updatedAppt[], finishedAppt[], deletedAppt[] | apptId, leadId, updateTime |
 * | 12 | updatedLeadstage[]                                      | leadId, updateTime, changeInfo {oldstage, newstage} |
 *
 * Call, Email and Text fire only for MANUAL and LOGGED communications, never AUTO (rule 5).
 */
import type { Communication } from '../../communication/state';
import type { Store } from '../../../core/store';
import type { TaskRecord } from '../../task/state';
import type { Lead } from '../../../core/types';
import { readingsOf } from '../../../core/readings';
import { deliveryEngine } from './engine';

export const LIST = {
	agent: 1,
	lead: 2,
	leadActivity: 3,
	listingAlert: 4,
	transaction: 5,
	call: 6,
	email: 7,
	text: 8,
	note: 9,
	task: 10,
	appointment: 11,
	pipeline: 12,
} as const;

type Action = 'created' | 'updated' | 'deleted';

export function emitLead(store: Store, action: Action, lead: Lead, time: number): void {
	deliveryEngine(store).emit({
		listId: LIST.lead,
		teamId: lead.teamId,
		leadId: lead.leadId,
		key: `${action}Lead`,
		data: { leadId: lead.leadId, updateTime: time },
	});
}

/** Website activity of a lead (SiteBrowse, SiteFavorite, SiteSearch). */
export function emitLeadActivity(store: Store, lead: Lead, time: number): void {
	deliveryEngine(store).emit({ listId: LIST.leadActivity, teamId: lead.teamId, leadId: lead.leadId, key: 'updatedLead', data: { leadId: lead.leadId, updateTime: time } });
}

/** A stage as Pipeline Change carries it: its name, or (reading `stageChange: ids`) its ID as text. */
function stageText(store: Store, name: string): string {
	if (readingsOf(store).get('stageChange') !== 'ids') return name;
	return store.stageByName(name, false)?.id.toString() ?? name;
}

export function emitStageChange(store: Store, lead: Lead, oldStage: string, newStage: string, time: number): void {
	if (oldStage === newStage) return;
	deliveryEngine(store).emit({
		listId: LIST.pipeline,
		teamId: lead.teamId,
		leadId: lead.leadId,
		key: 'updatedLeadstage',
		data: { leadId: lead.leadId, updateTime: time, changeInfo: { oldstage: stageText(store, oldStage), newstage: stageText(store, newStage) } },
	});
}

export function emitTransaction(
	store: Store,
	action: Action,
	tx: { leadId: bigint; transactionId: bigint },
	teamId: bigint,
	time: number,
	changed?: Record<string, unknown>,
): void {
	const data: Record<string, unknown> = { leadId: tx.leadId, transactionId: tx.transactionId, updateTime: time };
	if (action === 'updated') {
		const names = changed ? Object.keys(changed) : [];
		if (readingsOf(store).get('updatedFields') === 'objects') {
			const entries = names.map((fieldName) => ({ fieldName, newValue: changed![fieldName] }));
			data.updatedField = entries[0] ?? null;
			data.updatedFields = entries;
		} else {
			data.updatedField = names.length ? changed : null;
			data.updatedFields = names;
		}
	}
	deliveryEngine(store).emit({ listId: LIST.transaction, teamId, leadId: tx.leadId, key: `${action}Transaction`, data });
}

/** Tasks (listId 10) and appointments (listId 11) share one record kind. */
export function emitTask(store: Store, action: Action | 'finished', entry: TaskRecord, time: number): void {
	const appointment = entry.kind === 'appointment';
	deliveryEngine(store).emit({
		listId: appointment ? LIST.appointment : LIST.task,
		teamId: entry.teamId,
		leadId: entry.leadId,
		key: `${action}${appointment ? 'Appt' : 'Task'}`,
		data: { [appointment ? 'apptId' : 'taskId']: entry.id, leadId: entry.leadId, updateTime: time },
	});
}

/**
 * The legacy record id of a MANUAL email or text (the email/SMS system's own id). The sandbox keeps
 * none, so it derives one that differs from the timeline id, as on the live service.
 */
export function legacyCommunicationId(c: Communication): bigint {
	if (c.communicationType === 'LOGGED') return c.id;
	if (c.kind === 'CALL' && c.dialerCallRecordId !== undefined) return c.dialerCallRecordId;
	return 700000000000n + (c.id % 1000000000n);
}

/** A new call, email or text; AUTO ones never fire. Manual logs are delivered once readable. */
export function emitCommunication(store: Store, c: Communication, time = c.time): void {
	if (c.communicationType === 'AUTO') return;
	const lead = store.getLead(c.leadId);
	if (!lead) return;
	const spec = { CALL: ['Call', 'callId', LIST.call], EMAIL: ['Email', 'emailId', LIST.email], TEXT: ['Text', 'textId', LIST.text] } as const;
	const [name, idField, listId] = spec[c.kind];
	deliveryEngine(store).emit({
		listId,
		teamId: lead.teamId,
		leadId: lead.leadId,
		key: `created${name}`,
		notBefore: c.visibleAt,
		data: {
			[idField]: legacyCommunicationId(c),
			timelineId: c.id,
			leadId: c.leadId,
			updateTime: time,
			agentId: c.agentId,
			communicationType: c.communicationType,
		},
	});
}

export interface NoteEventInput {
	noteId: bigint;
	leadId: bigint;
	noteType: 'Manual' | 'System' | 'AI';
	agentId: bigint;
}

/** Notes: createdNote is an array; updatedNote and deletedNote are single objects. */
export function emitNote(store: Store, action: Action, note: NoteEventInput, time: number): void {
	const lead = store.getLead(note.leadId);
	if (!lead) return;
	deliveryEngine(store).emit({
		listId: LIST.note,
		teamId: lead.teamId,
		leadId: lead.leadId,
		key: `${action}Note`,
		shape: action === 'created' ? 'array' : 'object',
		data: { noteId: note.noteId, leadId: note.leadId, updateTime: time, noteType: note.noteType, agentId: note.agentId },
	});
}

/** An agent was created or updated. */
export function emitAgent(store: Store, teamId: bigint, agentUserId: bigint, time: number): void {
	deliveryEngine(store).emit({ listId: LIST.agent, teamId, key: 'updatedAgent', data: { agentUserId, updateTime: time } });
}

/** A listing alert fired (the payload carries only `alertId`). */
export function emitListingAlert(store: Store, teamId: bigint, alertId: bigint, leadId?: bigint): void {
	deliveryEngine(store).emit({ listId: LIST.listingAlert, teamId, leadId, key: 'alertId', shape: 'scalar', data: alertId });
}
