/** Wire shapes of communications: CallResponse, call history, email, text, V2 communication, LogTypeResponse. */
import type { Store } from '../../core/store';
import type { Communication } from './state';

/** 'yyyy-MM-dd HH:mm:ss' in UTC (CallResponse, LogTypeResponse). */
export function utcDateTime(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function mmss(seconds: number): string {
	return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** CallResponse; a logged call has no dialer record, so dialer-only fields are omitted. */
export function callView(c: Communication, store: Store): Record<string, unknown> {
	const agent = store.getUser(c.agentId);
	const base: Record<string, unknown> = {
		id: c.id,
		userId: c.agentId,
		leadId: c.leadId,
		leadPhoneNumber: c.leadPhoneNumber ?? '',
		direction: c.direction,
		startTime: utcDateTime(c.time),
		callingOutcome: c.callingOutcome,
		createTime: utcDateTime(c.time),
		updateTime: utcDateTime(c.time),
		note: c.content ?? '',
		agentId: c.agentId,
	};
	if (c.communicationType === 'LOGGED') return base;
	const duration = c.duration ?? 0;
	return {
		...base,
		dialerCallRecordId: c.dialerCallRecordId,
		userPhoneNumber: c.userPhoneNumber ?? agent?.virtualNumber ?? '',
		status: c.status,
		endTime: utcDateTime(c.time + duration * 1000),
		duration,
		rateScore: c.rateScore ?? 0,
		recordingSwitch: c.recordingSwitch ?? false,
		showUserNumber: c.userPhoneNumber ?? agent?.virtualNumber ?? '',
		updateTime: utcDateTime(c.time + duration * 1000),
		isMachineAnswered: c.isMachineAnswered ?? false,
		price: c.price ?? 0,
		elapsedTime: mmss(Math.min(duration, 8)),
	};
}

/** CallHistory of /v1.0/communication/call/v2, with the richer metadata the spec promises (Versioning rule 3). */
export function callHistoryView(c: Communication): Record<string, unknown> {
	return {
		id: c.id,
		agentId: c.agentId,
		leadId: c.leadId,
		createTime: utcDateTime(c.time),
		direction: c.direction.toLowerCase(),
		leadPhoneNumber: c.leadPhoneNumber ?? '',
		communicationType: c.communicationType,
		callingOutcome: c.callingOutcome,
		duration: c.communicationType === 'LOGGED' ? undefined : (c.duration ?? 0),
		note: c.content,
	};
}

/** EmailResponse */
export function emailView(c: Communication): Record<string, unknown> {
	return {
		id: c.id,
		leadId: c.leadId,
		direction: c.direction,
		agentId: c.agentId,
		eventType: c.eventType ?? 'Sent',
		emailEventTime: new Date(c.time).toISOString(),
		emailType: c.communicationType === 'AUTO' ? 'Auto' : 'Manual',
		emailSubject: c.emailSubject ?? '',
		fromPond: c.fromPond,
	};
}

/** TextResponse */
export function textView(c: Communication): Record<string, unknown> {
	return {
		id: c.id,
		leadId: c.leadId,
		direction: c.direction,
		agentId: c.agentId,
		textOutcome: c.textOutcome ?? 'Delivered',
		textTime: new Date(c.time).toISOString(),
		textType: c.communicationType === 'AUTO' ? 'Auto' : 'Manual',
		textContent: c.content ?? '',
	};
}

/** CommunicationResponse (agent searches) */
export function communicationView(c: Communication): Record<string, unknown> {
	const eventType = c.kind === 'CALL' ? 'Call' : c.kind === 'TEXT' ? 'Text' : `${c.eventType ?? 'Sent'} Email`;
	return {
		id: c.id,
		leadId: c.leadId,
		agentId: c.agentId,
		direction: c.direction,
		callOutcome: c.kind === 'CALL' ? (c.callingOutcome ?? '') : undefined,
		callDuration: c.kind === 'CALL' && c.communicationType !== 'LOGGED' ? String(c.duration ?? 0) : undefined,
		status: c.kind === 'CALL' ? (c.status ?? '') : c.kind === 'TEXT' ? (c.textOutcome ?? 'Delivered') : (c.eventType ?? 'Sent'),
		communicationTime: new Date(c.time).toISOString(),
		communicationType: c.communicationType,
		eventType,
		fromPond: c.fromPond,
	};
}

/** LogTypeResponse */
export function logTypeView(c: Communication): Record<string, unknown> {
	const out: Record<string, unknown> = {
		id: c.id,
		leadId: c.leadId,
		content: c.content ?? '',
		createTime: utcDateTime(c.time),
		outboundOrInbound: c.direction === 'Outbound' ? 'outbound' : 'inbound',
		isPin: c.isPin ?? false,
		agentId: c.agentId,
	};
	if (c.logType === 'logCall') Object.assign(out, { leadPhoneNumber: c.leadPhoneNumber ?? '', callingOutcome: c.callingOutcome ?? 'Talked' });
	if (c.logType === 'logEmail') Object.assign(out, { emailSubject: c.emailSubject ?? '', toEmail: c.toEmail ?? '', fromEmail: c.fromEmail ?? '' });
	return out;
}
