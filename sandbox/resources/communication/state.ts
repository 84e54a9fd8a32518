/**
 * Shared state of the Communication, Call and Manual Log endpoint groups: one list of
 * communications (calls, texts, emails) keyed by their lead-timeline id, which is the
 * `communicationId` of the V2 lookups, the id of history entries and of manual logs.
 *
 * - `communicationType` AUTO and MANUAL are dialer / SMS / email-system records; LOGGED entries are
 *   manual logs written with POST /v1.0/logType (they carry `logType`).
 * - Manual-log writes are asynchronous (spec, General rule 5): an entry is readable from `visibleAt`
 *   on, measured on the store's clock (`store.now`, which tests may replace). `manualLogDelayMs`
 *   sets the delay.
 */
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

export type CommKind = 'CALL' | 'TEXT' | 'EMAIL';
export type CommType = 'AUTO' | 'MANUAL' | 'LOGGED';
export type LogType = 'logCall' | 'logEmail' | 'logText';
export type Direction = 'Outbound' | 'Inbound';

export const CALLING_OUTCOMES = ['Talked', 'VoiceMessage', 'NoAnswer', 'BadNumber', 'DNCNumber', 'DNCContact'] as const;
export const CALL_STATUSES = ['Completed', 'Missed', 'Failed', 'Busy', 'NoAnswer', 'VoiceMail'] as const;
export const LOG_KIND: Record<LogType, CommKind> = { logCall: 'CALL', logEmail: 'EMAIL', logText: 'TEXT' };

export interface Communication {
	/** lead-timeline row id: communicationId, history entry id, manual-log id */
	id: bigint;
	leadId: bigint;
	agentId: bigint;
	kind: CommKind;
	communicationType: CommType;
	direction: Direction;
	/** when the communication happened (epoch ms) */
	time: number;
	/** readable from this moment on (manual logs are written asynchronously) */
	visibleAt: number;
	deleted: boolean;
	fromPond: boolean;
	/** manual logs only */
	logType?: LogType;
	content?: string;
	isPin?: boolean;
	// calls
	dialerCallRecordId?: bigint;
	leadPhoneNumber?: string;
	userPhoneNumber?: string;
	status?: (typeof CALL_STATUSES)[number];
	duration?: number;
	callingOutcome?: string;
	rateScore?: number;
	recordingSwitch?: boolean;
	isMachineAnswered?: boolean;
	price?: number;
	// texts
	textOutcome?: string;
	// emails
	eventType?: 'Sent' | 'Opened' | 'Bounced';
	emailSubject?: string;
	toEmail?: string;
	fromEmail?: string;
}

export class CommunicationState {
	entries = new Map<string, Communication>();
	nextId = 1224565261000000001n;
	nextDialerId = 400000100001n;
	nextMessageId = 7100000001;
	/** delay before a manual-log write becomes readable */
	manualLogDelayMs = 2000;

	add(input: Omit<Communication, 'id' | 'visibleAt' | 'deleted' | 'fromPond'> & Partial<Communication>): Communication {
		const entry: Communication = { visibleAt: 0, deleted: false, fromPond: false, ...input, id: input.id ?? this.nextId++ };
		this.entries.set(entry.id.toString(), entry);
		return entry;
	}

	/** An entry that exists, is not deleted and is readable at `now`. */
	get(id: bigint, now: number): Communication | undefined {
		const e = this.entries.get(id.toString());
		return e && !e.deleted && e.visibleAt <= now ? e : undefined;
	}

	/** Readable entries matching `filter`, by id ascending. */
	list(now: number, filter: (e: Communication) => boolean): Communication[] {
		return [...this.entries.values()].filter((e) => !e.deleted && e.visibleAt <= now && filter(e)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	}
}

export function commState(store: Store): CommunicationState {
	return store.ext('communication', () => new CommunicationState());
}

/** ACCESS_ALL_TEAM_LEADS: held by team owners and admins. */
export function canSeeAllTeamLeads(user: User): boolean {
	return user.isAdmin || user.roleName === 'Owner' || user.roleName === 'Admin';
}
