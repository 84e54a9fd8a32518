/**
 * Readings of the contract: where api-spec.md and the vendor OpenAPI disagree, or a public client reports
 * something else, the sandbox can answer either way. Each switch is per test, like fault injection
 * (`sandbox.readings.set({ calendarTime: 'openapi' })`), and `sandbox.reset()` restores the defaults:
 * the spec's reading (where the spec is silent, the sandbox's earlier behaviour; unsetNumbers: the live service's).
 * docs/api-readings.md lists each one with both texts; READING_VALUES lets a test run under every value (`describe.each`).
 */
import { ApiError } from './errors';
import type { Ctx, Reply } from './router';
import type { Store } from './store';

export const READING_VALUES = {
	/** 1. Calendar V2 list and meeting slots: `spec` startTime/endTime are epoch ms; `openapi` they are ISO 8601
	 *  with offset (epoch ms text there is refused with 400 20012 naming the format), epoch ms goes in startTimeMs. */
	calendarTime: ['spec', 'openapi'],
	/** 2. GET /v1.0/leads: `spec` offset or scrollId (scrollId wins); `scrollOnly` offset ignored, at most 25 a page. */
	leadPaging: ['spec', 'scrollOnly'],
	/** 3. Call history V1 and V2: `spec` needs leadUserId (400 MISSING_PARAMETER without); `openapi` reads leadId only. */
	callHistoryLead: ['spec', 'openapi'],
	/** 4. GET /v1.0/listing: `spec` records in listIng.listings; `openapi` listIng is an untyped object (records in listIng.data). */
	listingShape: ['spec', 'openapi'],
	/** 5. Notes: `spec` records carry noteType; `openapi` only systemNote (NoteResponse). */
	noteType: ['spec', 'openapi'],
	/** 6. Routing Update Rule: `spec` memberWeights is a list; `openapi` one object (a list is a JSON parse error). */
	memberWeights: ['spec', 'openapi'],
	/** 7. Agent create: `spec` licenses in workInfo.licenses; `openapi` only workInfo.licenseId is read. */
	agentLicenses: ['spec', 'openapi'],
	/** 8. GET /v2.0/communication/agent without `type`: `spec` ALL; `openapi` (default undocumented) calls only. */
	communicationType: ['spec', 'openapi'],
	/** 9. currentId paging: `spec` exclusive (after that id); `inclusive` starts at that id. */
	currentId: ['spec', 'inclusive'],
	/** 9. Manual Log list: `spec` sort and order hold on every page; `openapi` with currentId > 0 sort is ignored (by id). */
	manualLogSort: ['spec', 'openapi'],
	/** 10. Array query parameters (groupIds of members): `spec` comma-joined or repeated; `openapi` repeated only. */
	queryArrays: ['spec', 'openapi'],
	/** 11. AI Get Call Summary, Opportunity alert: `spec` failures are HTTP errors with {code, message};
	 *  `openapi` they are HTTP 200 {status: {code != 0, msg}, data: null}. */
	statusEnvelope: ['spec', 'openapi'],
	/** 12. Integer fields (prices, bedrooms, square feet, limits): `spec` decimals kept; `openapi` cut to integers (Jackson). */
	integers: ['spec', 'openapi'],
	/** 13. Office writes: `spec` POST without id creates, PUT updates (id required); `openapi` PUT creates, POST updates. */
	officeCreate: ['spec', 'openapi'],
	/** 14. Error bodies: `spec` {code, message}; `bareCode` the endpoint's own errors are a bare JSON string, the code. */
	errorBodies: ['spec', 'bareCode'],
	/** 15. GET /v1.0/leads `phone` (precise): `suffix` digits compared, numbers of 10 digits or more by their last 10;
	 *  `digits` all digits must be equal (a +1 code written on one side only is a different number). */
	phoneSearch: ['suffix', 'digits'],
	/** 16. Unset numeric lead fields (assigned agent, lender, pond, ownership, inquiry and property numbers): `live` -1 as
	 *  Lofty's live service answers (api-notes.md; the spec is silent); `null` null, as the sandbox answered before. */
	unsetNumbers: ['live', 'null'],
	/** 17. OAuth client_credentials `customer_key` (the acting user's API key; the spec does not show the request):
	 *  `required` as the vendor docs say (400 invalid_request without); `optional` without it the app owner (demo user). */
	ccCustomerKey: ['required', 'optional'],
	/** 18. OAuth client_credentials client authentication: `either` HTTP Basic or client_id/client_secret form fields;
	 *  `basic` only HTTP Basic, as the Authorization Code flow documents it; `body` only the form fields. */
	ccClientAuth: ['either', 'basic', 'body'],
	/** 19. Pipeline Change (list 12) `changeInfo {oldstage, newstage}`, "string": `names` the stage names; `ids` the
	 *  stage IDs as text (the spec does not say which). */
	stageChange: ['names', 'ids'],
	/** 20. Transaction updates (list 5) `updatedField` (object) and `updatedFields` (array), shapes not shown: `names`
	 *  updatedFields the changed field names, updatedField `{name: newValue}`; `objects` updatedFields
	 *  `[{fieldName, newValue}]`, updatedField the first of them. */
	updatedFields: ['names', 'objects'],
	/** 21. Lead tag writes (create and update `tags`, `tagsAdd`, `tagsRemove`): `strings` tag names, as the spec and the
	 *  OpenAPI; `objects` `[{tagName}]`, as Lofty's lead management guide writes them. The other shape is a 400 JSON
	 *  parse error (Jackson's), and nothing is written. */
	tagWrites: ['strings', 'objects'],
	/** 22. Routing rule `activeHours.activeDays`, "between 1 and 7" (which day is 1 not said): `iso` 1 = Monday ...
	 *  7 = Sunday; `fromSunday` 1 = Sunday ... 7 = Saturday. The sandbox names a rule's days by it (activeWeekdays). */
	activeDays: ['iso', 'fromSunday'],
} as const;

export type ReadingName = keyof typeof READING_VALUES;
export type ReadingSet = { [K in ReadingName]: (typeof READING_VALUES)[K][number] };

const defaults = (): ReadingSet =>
	Object.fromEntries(Object.entries(READING_VALUES).map(([name, values]) => [name, values[0]])) as ReadingSet;

export class Readings {
	private current: ReadingSet = defaults();

	/** Switch some readings (the rest keep theirs); an unknown name or value throws. */
	set(changes: Partial<ReadingSet>): void {
		for (const [name, value] of Object.entries(changes)) {
			const allowed = READING_VALUES[name as ReadingName] as readonly string[] | undefined;
			if (!allowed) throw new Error(`readings.set: unknown reading '${name}'`);
			if (!allowed.includes(value as string)) throw new Error(`readings.set: ${name} is one of ${allowed.join(', ')}, got '${String(value)}'`);
		}
		this.current = { ...this.current, ...changes };
	}

	get<K extends ReadingName>(name: K): ReadingSet[K] {
		return this.current[name];
	}

	/** True when the reading is not the default (the spec's). */
	other(name: ReadingName): boolean {
		return this.current[name] !== READING_VALUES[name][0];
	}

	/** Every reading back to the spec's. */
	reset(): void {
		this.current = defaults();
	}
}

/** The readings of a sandbox (kept in its store, so that resetting the store resets them). */
export function readingsOf(store: Store): Readings {
	return store.ext('readings', () => new Readings());
}

/**
 * The statusEnvelope reading `openapi` for a handler: its failures come back as HTTP 200
 * `{status: {code, msg}, data: null}` (CallSummaryResponse, SendOpportunityNotificationResponse), not as HTTP errors.
 */
export function statusEnvelopeFailures(handler: (ctx: Ctx) => Reply): (ctx: Ctx) => Reply {
	return (ctx) => {
		try {
			return handler(ctx);
		} catch (e) {
			if (!(e instanceof ApiError) || readingsOf(ctx.store).get('statusEnvelope') !== 'openapi') throw e;
			return { status: 200, body: { status: { code: typeof e.code === 'number' ? e.code : 20012, msg: `${e.code}: ${e.message}` }, data: null } };
		}
	};
}

/**
 * The integers reading `openapi`: fields the OpenAPI types as integers are read the way Jackson reads them,
 * a decimal silently cut to its whole part (2.5 bedrooms are stored as 2). Under the spec's reading they stay.
 */
export function truncateIntegers(store: Store, o: Record<string, unknown>, fields: string[]): void {
	if (readingsOf(store).get('integers') !== 'openapi') return;
	for (const name of fields) {
		const v = o[name];
		if (typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)) o[name] = Math.trunc(v);
	}
}
