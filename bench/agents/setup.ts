/**
 * A task's starting state: the sandbox's seed (a team of 30, ~256 leads, their history) plus what the task adds, as
 * a team's Lofty would hold it: its own leads (with notes, texts, tasks, appointments and transactions), members'
 * time zones, who Lofty's round-robin routing gives the next new lead to, and faults (a write whose answer is lost).
 * Written straight into the sandbox's store, never through the tools under test.
 */
import { DateTime } from 'luxon';

import type { FaultSpec, Lead, Sandbox, User } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication';
import { noteState } from '../../sandbox/resources/note';
import { newTaskRecord, taskState } from '../../sandbox/resources/task';
import { transactionState } from '../../sandbox/resources/transaction';

export interface LeadSpec {
	firstName: string;
	lastName?: string;
	email?: string;
	phone?: string;
	stage?: string;
	/** a member's email; the credential's user (Dana Demo) when left out */
	assignedTo?: string;
	/** Do Not Text set in Lofty */
	cannotText?: boolean;
	source?: string;
	notes?: string[];
	/** the text history, oldest first: "in" from the lead, "out" from the agent */
	texts?: Array<{ dir: 'in' | 'out'; text: string }>;
	/** open (or finished) tasks: due is local time in `zone` (default the assignee's) */
	tasks?: Array<{ type: string; content: string; due: string; finished?: boolean }>;
	appointments?: Array<{ content: string; start: string; end: string }>;
	transactions?: Array<{ name: string; type: string; status: string; price: number; expectedClose: string }>;
}

export interface Setup {
	/** member email -> IANA zone */
	zones?: Record<string, string>;
	/** the member Lofty's routing gives the next new lead to */
	routeNext?: string;
	leads?: LeadSpec[];
	faults?: FaultSpec[];
}

export const ME = 'demo.owner@example.com';

/** A lead's natural key: its first email, else its first phone (digits), else its ID. */
export function leadKey(lead: Pick<Lead, 'emails' | 'phones' | 'leadId'>): string {
	if (lead.emails.length > 0) return lead.emails[0].toLowerCase();
	if (lead.phones.length > 0) return lead.phones[0].replace(/\D/g, '').replace(/^1(\d{10})$/, '$1');
	return `id:${lead.leadId}`;
}

export function memberByEmail(sandbox: Sandbox, email: string): User {
	const user = sandbox.store.findUserByEmail(email);
	if (!user) throw new Error(`setup: no member ${email}`);
	return user;
}

const phoneOf = (raw: string) => `+1${raw.replace(/\D/g, '').replace(/^1(\d{10})$/, '$1')}`;

/** Epoch ms of a local wall time ("2030-06-04T09:00") in a zone. */
export function localMs(local: string, zone: string): number {
	const t = DateTime.fromISO(local, { zone });
	if (!t.isValid) throw new Error(`not a local time: ${local} (${zone})`);
	return t.toMillis();
}

/** Puts the sandbox back to its seed, then adds the task's starting state; returns the task's lead IDs by key. */
export function applySetup(sandbox: Sandbox, setup: Setup = {}): Map<string, string> {
	sandbox.reset();
	sandbox.setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 });
	const { store } = sandbox;
	for (const [email, zone] of Object.entries(setup.zones ?? {})) memberByEmail(sandbox, email).timeZoneId = zone;
	const me = memberByEmail(sandbox, ME);
	const ids = new Map<string, string>();
	const base = Date.UTC(2030, 4, 1);
	let k = 0;
	for (const spec of setup.leads ?? []) {
		const agent = memberByEmail(sandbox, spec.assignedTo ?? ME);
		const created = base + k++ * 3_600_000;
		const lead = store.addLead({
			firstName: spec.firstName,
			lastName: spec.lastName ?? '',
			emails: spec.email ? [spec.email] : [],
			phones: spec.phone ? [phoneOf(spec.phone)] : [],
			ownerUserId: me.userId,
			stage: spec.stage ?? 'New',
			source: spec.source ?? 'Website',
			cannotText: spec.cannotText ?? false,
			createTime: created,
		});
		store.assignAgent(lead, agent, me, false, created);
		ids.set(leadKey(lead), lead.leadId.toString());
		addHistory(sandbox, lead, agent, spec, created);
	}
	if (setup.routeNext) routeNextTo(sandbox, setup.routeNext);
	for (const fault of setup.faults ?? []) sandbox.faults.inject(fault);
	return ids;
}

function addHistory(sandbox: Sandbox, lead: Lead, agent: User, spec: LeadSpec, created: number): void {
	const { store } = sandbox;
	const notes = noteState(store);
	for (const [i, content] of (spec.notes ?? []).entries()) {
		const t = created + (i + 1) * 60_000;
		const noteId = notes.nextNoteId++;
		notes.notes.set(noteId.toString(), {
			noteId,
			timelineId: notes.nextTimelineId++,
			leadId: lead.leadId,
			creatorId: agent.userId,
			lastEditorId: agent.userId,
			content,
			isPin: false,
			noteType: 'Manual',
			idOfType: 0n,
			createTime: t,
			lastUpdate: t,
			deleted: false,
			readableAt: 0,
		});
	}
	const comms = commState(store);
	for (const [i, text] of (spec.texts ?? []).entries()) {
		comms.add({
			leadId: lead.leadId,
			agentId: agent.userId,
			kind: 'TEXT',
			communicationType: 'MANUAL',
			direction: text.dir === 'in' ? 'Inbound' : 'Outbound',
			time: created + (i + 1) * 120_000,
			content: text.text,
			textOutcome: 'Delivered',
		});
	}
	const zone = agent.timeZoneId || 'America/Chicago';
	const tasks = taskState(store);
	for (const t of spec.tasks ?? []) {
		const record = newTaskRecord(lead, agent.userId, created, { kind: 'task', type: t.type as 'Call', content: t.content, endAt: localMs(t.due, zone), assignedUserId: agent.userId, timeZoneCode: zone });
		tasks.add({ ...record, finishFlag: t.finished ?? false });
	}
	for (const a of spec.appointments ?? []) {
		tasks.add(newTaskRecord(lead, agent.userId, created, { kind: 'appointment', type: 'Appointment', content: a.content, startAt: localMs(a.start, zone), endAt: localMs(a.end, zone), assignedUserId: agent.userId, timeZoneCode: zone }));
	}
	const txs = transactionState(store);
	for (const tx of spec.transactions ?? []) {
		txs.add({
			transactionId: txs.nextTransactionId++,
			leadId: lead.leadId,
			propertyId: txs.nextPropertyId++,
			transactionName: tx.name,
			transactionType: tx.type,
			transactionStatus: tx.status,
			assignedAgent: agent.userId,
			values: { homePrice: tx.price, commissionRate: 3, gci: tx.price * 0.03, expectedCloseDate: localMs(`${tx.expectedClose}T12:00`, zone) },
			customFields: [],
			commissions: { preSplit: [], split: [], postSplit: [] },
			created,
			updated: created,
			deleted: false,
			address: null,
			brokermintLinked: false,
		});
	}
}

/** Sets Lofty's round robin so that the next new lead goes to this member (store.routeAgent's order). */
function routeNextTo(sandbox: Sandbox, email: string): void {
	const { store } = sandbox;
	const target = memberByEmail(sandbox, email);
	for (let i = 0; i < 64; i++) {
		if (store.routeAgent(target.teamId, false)?.userId === target.userId) return;
		store.routingCursor++;
	}
	throw new Error(`setup: routing never reaches ${email}`);
}
