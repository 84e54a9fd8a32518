/**
 * The cases of the fault-injecting differential test (test/resilience/faultDifferential.test.ts), as fast-check
 * arbitraries, so that a failing case shrinks to its smallest form: a few people (each with an email and a phone,
 * some with a lead from before, found by its email, its phone or both), up to three executions of Lead > Create or
 * Update (every Match By, Only Fill Empty Fields or Update All), Lead > Create and Lead > Update items on those people,
 * one after the other or at once (a restart, a lead deleted or merged in Lofty between them), at Parallel Requests 1
 * to 8, with Continue On Fail on or off, maybe cancelled; and the faults Lofty's contract names.
 *
 * Every item carries its own mark, a tag (`Mark E<execution>I<item>`) that every write it makes sends, so that each
 * write Lofty applied is known to be that item's (test/harness/leadModel.ts).
 */
import fc from 'fast-check';

export type ItemKind = 'upsert' | 'create' | 'update';
export type MatchBy = 'emailThenPhone' | 'email' | 'phone';

export interface LeadItem {
	kind: ItemKind;
	person: number;
	/** Create or Update: how the lead is found */
	matchBy: MatchBy;
	/** the contacts the item gives: the person's email, phone, and a second email of theirs */
	email: boolean;
	phone: boolean;
	altEmail: boolean;
	/** the last name the item sets (Update All replaces it, Only Fill Empty Fields sets it where empty) */
	lastName: string | null;
	fillEmpty: boolean;
	/** a tag of the team's besides the mark, in another case than the team spells it */
	tag: string | null;
	/** Request Options > Timeout (ms) for this item, when the case holds answers back */
	timeoutMs?: number;
}

/** What happens in Lofty or the n8n process just before an execution starts (one after the other only). */
export type Between = 'none' | 'restart' | 'delete' | 'merge';

/**
 * The n8n credential an execution runs with, all of one Lofty user (one account, transport/target.ts): the API key,
 * another n8n credential holding the same key (another workflow's author), or OAuth2 Client Credentials whose
 * Customer Key is that key.
 */
export type Auth = 'apiKey' | 'apiKey2' | 'oauth2';

export interface Execution {
	items: LeadItem[];
	parallel: number;
	continueOnFail: boolean;
	/** at once with the execution before, or after it ended */
	together: boolean;
	between: Between;
	/** the person whose lead `delete` or `merge` removes */
	betweenPerson: number;
	/** cancelled once Lofty has seen this many requests of the case (none: not cancelled) */
	cancelAfter: number | null;
	auth: Auth;
}

export type FaultName =
	| '429'
	| 'dropBeforePost'
	| 'dropAfterPost'
	| 'dropBeforePut'
	| 'dropAfterPut'
	| '500BeforePut'
	| '500AfterPost'
	| '500AfterPut'
	| 'slowPost'
	| 'slowPut'
	| 'latePost'
	| 'latePut'
	| '500Get'
	| '500Search'
	| '20005AfterPost'
	| '20005AfterPut'
	| 'refusedPost'
	| 'refusedPut';

export interface Fault {
	name: FaultName;
	/** let this many matching requests through first */
	skip: number;
	/** only the writes of the item with this mark (markOf) */
	mark?: string;
}

export interface LeadCase {
	/** per person: which of its contacts its lead from before has (none: no lead) */
	before: Array<'none' | 'email' | 'phone' | 'both'>;
	executions: Execution[];
	faults: Fault[];
	/** how long Lofty takes to make a new lead readable: none, shorter, or longer than the node's 3.75 s wait */
	readDelayMs: 0 | 300 | 5000;
	/** how much later the search finds a new lead than GET does */
	searchLagMs: 0 | 400;
	/** tags written as {tagName} objects (the other reading) */
	objectTags: boolean;
	/** OAuth2 (an execution's `auth`): the access token expires after this many requests (401, n8n fetches a new one) */
	expireTokenAfter: number | null;
	/** Lofty's rate limit: far away, or a real one the node must pace to (429 when it does not) */
	rateLimit: 'loose' | 'tight';
}

/** The faults that hold an answer back until the client gives up: its items get a short Timeout. */
export const HOLDING: ReadonlySet<FaultName> = new Set(['slowPost', 'slowPut', 'latePost', 'latePut']);

/**
 * The Timeout an item gets when the case holds answers back. Short, to keep the run brief: on a loaded machine an
 * answer that was not held back may run out of it too, which only makes that item's outcome "may have been
 * applied", a case every property allows.
 */
export const SHORT_TIMEOUT_MS = 1000;

export const PEOPLE = 3;

/** An item with the first choice of each field, for the patterns below. */
const PLAIN: LeadItem = { kind: 'upsert', person: 0, matchBy: 'emailThenPhone', email: true, phone: true, altEmail: false, lastName: null, fillEmpty: true, tag: null };

const item = (people: number): fc.Arbitrary<LeadItem> =>
	fc
		.record({
			kind: fc.constantFrom<ItemKind>('upsert', 'update', 'create'),
			person: fc.nat({ max: people - 1 }),
			matchBy: fc.constantFrom<MatchBy>('emailThenPhone', 'email', 'phone'),
			email: fc.boolean(),
			phone: fc.boolean(),
			altEmail: fc.boolean(),
			lastName: fc.option(fc.constantFrom('Lane', 'Moss', 'Reyes'), { nil: null }),
			fillEmpty: fc.boolean(),
			tag: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom('hot lead', 'VIP', 'investor') }),
		})
		.map((i) => ({
			...i,
			// What Match By needs is given; Create or Update needs an email or a phone.
			email: i.email || i.matchBy !== 'phone' || (!i.phone && i.kind !== 'update'),
			phone: i.phone || i.matchBy === 'phone',
		}));

const execution = (people: number, first: boolean): fc.Arbitrary<Execution> =>
	fc.record({
		items: fc.array(item(people), { minLength: 1, maxLength: 6 }),
		parallel: fc.integer({ min: 1, max: 8 }),
		continueOnFail: fc.boolean(),
		together: first ? fc.constant(false) : fc.boolean(),
		between: first ? fc.constant<Between>('none') : fc.constantFrom<Between>('none', 'restart', 'delete', 'merge'),
		betweenPerson: fc.nat({ max: people - 1 }),
		// Cancelled now and then (fc.option's freq is the odds against a value: 1 in 6 here).
		cancelAfter: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }),
		auth: fc.constantFrom<Auth>('apiKey', 'apiKey2', 'oauth2'),
	});

const fault: fc.Arbitrary<Fault> = fc.record({
	name: fc.constantFrom<FaultName>(
		'dropAfterPost',
		'500AfterPost',
		'dropAfterPut',
		'500AfterPut',
		'dropBeforePost',
		'dropBeforePut',
		'500BeforePut',
		'429',
		'500Get',
		'500Search',
		'slowPost',
		'slowPut',
		'latePost',
		'latePut',
		'20005AfterPost',
		'20005AfterPut',
		'refusedPost',
		'refusedPut',
	),
	skip: fc.nat({ max: 3 }),
});

/** True three times in four (the patterns below), shrinking to false. */
const often = fc.oneof({ weight: 1, arbitrary: fc.constant(false) }, { weight: 3, arbitrary: fc.constant(true) });

/**
 * A case: shrinks toward one execution of one item, no faults, no read delay. Two patterns are added to some cases,
 * where item order and the memory of uncertain creates are put to the test: `overtake` (a Create or Update, then a
 * Lead > Update of the lead it finds, in one execution at Parallel Requests 2 or more) and `twin` (a new person's
 * create whose answer is lost, then another Create or Update of that person while Lofty cannot show the lead yet).
 */
export const leadCase: fc.Arbitrary<LeadCase> = fc
	// Shrunk field by field in this order: what costs time (faults held past the Timeout, the read delay, more
	// executions) first, so that each step of the shrinking runs faster than the one before.
	.record({
		faults: fc.array(fault, { maxLength: 3 }),
		readDelayMs: fc.constantFrom<LeadCase['readDelayMs']>(0, 300, 0, 300, 5000),
		rateLimit: fc.constantFrom<LeadCase['rateLimit']>('loose', 'tight'),
		more: fc.array(execution(PEOPLE, false), { maxLength: 2 }),
		first: execution(PEOPLE, true),
		before: fc.array(fc.constantFrom<LeadCase['before'][number]>('none', 'email', 'phone', 'both'), { minLength: PEOPLE, maxLength: PEOPLE }),
		searchLagMs: fc.constantFrom<LeadCase['searchLagMs']>(0, 400),
		objectTags: fc.boolean(),
		expireTokenAfter: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
		overtake: often,
		twin: often,
	})
	.map(({ first, more, overtake, twin, ...c }) => {
		const before = [...c.before];
		const faults = [...c.faults];
		let readDelayMs = c.readDelayMs;
		let head = first;
		if (twin) {
			// A new person twice in one execution, the create's answer lost, Lofty slow to show the new lead.
			before[1] = 'none';
			const upsert: LeadItem = { ...PLAIN, kind: 'upsert', person: 1, matchBy: 'email', phone: false };
			// With Continue On Fail, so that the second item runs after the first one's failure.
			head = { ...head, items: [upsert, { ...upsert, lastName: 'Reyes' }, ...head.items], continueOnFail: true };
			// Its create is the third item when the overtake pattern goes first.
			faults.unshift({ name: 'dropAfterPost', skip: 0, mark: markOf(0, overtake ? 2 : 0) });
			// Slower than the node's 3.75 s wait when the case has none: only the memory of the lost create then keeps the
			// second item from making a second lead, however slow the machine.
			if (readDelayMs === 0) readDelayMs = 5000;
		}
		if (overtake) {
			// Create or Update of person 0, whose lead it must find, then a Lead > Update of that lead, at once: the first
			// two items, so that nothing before them holds the slots of Parallel Requests.
			before[0] = 'both';
			const upsert: LeadItem = { ...PLAIN, kind: 'upsert', person: 0, lastName: 'Lane' };
			head = { ...head, items: [upsert, { ...PLAIN, kind: 'update', person: 0, lastName: 'Moss' }, ...head.items], parallel: Math.max(2, head.parallel) };
		}
		const holding = faults.some((f) => HOLDING.has(f.name));
		const executions = [head, ...more].map((e) => ({ ...e, items: e.items.map((i) => (holding ? { ...i, timeoutMs: SHORT_TIMEOUT_MS } : i)) }));
		const oauth2 = executions.some((e) => e.auth === 'oauth2');
		return { ...c, before, faults, readDelayMs, executions, expireTokenAfter: oauth2 ? c.expireTokenAfter : null };
	});

/** The contacts of person `p`. */
export const personEmail = (p: number) => `fd.p${p}@example.com`;
export const personAltEmail = (p: number) => `fd.p${p}.alt@example.com`;
export const personPhone = (p: number) => `+1 512 555 07${p}${p}`;
export const personPhoneNormal = (p: number) => `+151255507${p}${p}`;

/** The mark of item `i` of execution `e`, as a tag. */
export const markOf = (e: number, i: number) => `Mark E${e}I${i}`;
export const MARK = /Mark E(\d+)I(\d+)/g;
