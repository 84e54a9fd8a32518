/**
 * Fault injection for resilience tests and benchmarks, plus a count of the writes the sandbox
 * really applied (a handler ran for a non-GET request and answered 2xx, delivered or not).
 *
 *   sandbox.faults.inject({ kind: '429', times: 3 });                     // next 3 requests: 429 + Retry-After
 *   sandbox.faults.inject({ kind: '500', match: { method: 'GET', path: '/v1.0/leads' } });
 *   sandbox.faults.inject({ kind: 'slow', delayMs: 2000 });              // applied, answered late
 *   sandbox.faults.inject({ kind: 'drop' });                             // applied, connection cut
 *   sandbox.faults.inject({ kind: 'drop', when: 'before' });             // cut before the handler runs
 *   sandbox.faults.inject({ kind: 'drop', when: 'body' });               // headers and half the body, then cut
 *   sandbox.faults.inject({ kind: '500', applied: true });               // applied, then answered 500
 *   sandbox.faults.inject({ kind: 'slow', when: 'before', delayMs: 9e9 }); // held until the client hangs up, then applied
 *   sandbox.faults.inject({ kind: 'drop', match: { method: 'POST', body: '"Ann"' } }); // only a request whose body has that text
 *   sandbox.faults.writes('PUT', '/v1.0/leads/{leadId}');                // applied writes
 *   sandbox.faults.inject({ kind: 'expiredLink' });                      // next recording URL handed out has expired
 *   sandbox.faults.inject({ kind: '500', status: 200, page: '<html>..' }); // an HTML page instead of the answer
 *   sandbox.faults.inject({ kind: '500', status: 200, code: 20005, applied: true }); // applied, answered with an error code
 *
 * A repeating server, for the guards of Return All (./pagingFaults.ts):
 *   sandbox.faults.inject({ kind: 'repeatPage', skip: 1, match });        // 2nd request: the 1st answer again
 *   sandbox.faults.inject({ kind: 'staleCursor', param: 'cursor', field: 'nextCursor', skip: 1, match });
 *   sandbox.faults.inject({ kind: 'pageCap', param: 'pageSize', max: 2, times: 50, match });  // serves fewer than asked
 *   sandbox.faults.inject({ kind: 'overstateTotal', field: 'data.total', by: 3, times: 50, match });
 */

export type FaultKind = '429' | '500' | 'slow' | 'drop' | 'expiredLink' | PagingFaultKind;

/** Faults a route handler acts on itself (it reads `ctx.fault`); the request is otherwise served as usual. */
const HANDLER_FAULTS: ReadonlySet<FaultKind> = new Set(['expiredLink']);
export const isHandlerFault = (kind: FaultKind | undefined): boolean => kind !== undefined && HANDLER_FAULTS.has(kind);

/** Where a fault applies when the test gives no match: the request that hands the thing out. */
const DEFAULT_MATCH: Partial<Record<FaultKind, FaultMatch>> = { expiredLink: { method: 'GET', path: '/v1.0/call/url/{callId}' } };

/** Pages that repeat, cursors that stay, pages shorter than asked, totals that promise more. */
export type PagingFaultKind = 'repeatPage' | 'staleCursor' | 'pageCap' | 'overstateTotal';

export interface FaultMatch {
	/** HTTP method, any when left out */
	method?: string;
	/** path pattern (`{param}` or `*` segments) or a RegExp; any when left out */
	path?: string | RegExp;
	/** text the request's body contains (one item's write among many); any when left out */
	body?: string;
}

export interface FaultSpec {
	kind: FaultKind;
	/** how many matching requests get the fault (default 1) */
	times?: number;
	/** let this many matching requests through first (default 0), e.g. to hit the second page of a list */
	skip?: number;
	match?: FaultMatch;
	/** '429': the Retry-After header in seconds (default 1) */
	retryAfterSec?: number;
	/** '500': the status to answer (default 500; 502, 503 work too; 404 for a refusal the handler would not give) */
	status?: number;
	/** '500': Lofty's code and message in the answer (default: an injected BaseApplicationException 20005) */
	code?: string | number;
	message?: string;
	/** '500': answer this text as an HTML page instead of Lofty's JSON error (a proxy's or CDN's error page) */
	page?: string;
	/** '500': the handler runs first (the write is applied), then its answer is replaced by the error */
	applied?: boolean;
	/** 'slow': how long the answer is held back (default 2000 ms); the request is applied first */
	delayMs?: number;
	/** 'slow': hold the answer back until this settles instead (a test lets it go when it has seen what it waits for) */
	until?: Promise<unknown>;
	/**
	 * 'drop': cut the connection before the handler runs, after it applied the request (default), or halfway through
	 * the answer's body. 'slow': hold the answer back after applying (default 'after'), or hold the request back
	 * until the delay ends or the client hangs up and apply it then ('before': a write that lands after the client gave up).
	 */
	when?: 'before' | 'after' | 'body';
	/** 'staleCursor', 'pageCap': the query parameter (the cursor sent, the page size asked) */
	param?: string;
	/** 'staleCursor', 'overstateTotal': the answer's field (dot path: `_metadata.scrollId`, `data.total`) */
	field?: string;
	/** 'pageCap': the largest page size served (default 1) */
	max?: number;
	/** 'overstateTotal': how much larger the total is said to be (default 1) */
	by?: number;
}

export interface ActiveFault extends Required<Pick<FaultSpec, 'kind' | 'retryAfterSec' | 'status' | 'delayMs' | 'when'>> {
	param?: string;
	field?: string;
	max: number;
	by: number;
	code?: string | number;
	message?: string;
	page?: string;
	applied: boolean;
	until?: Promise<unknown>;
}

export interface AppliedWrite {
	method: string;
	path: string;
	status: number;
	/** false when the answer never reached the client (dropped, or replaced by a 5xx after applying) */
	delivered: boolean;
	/** the request's body and the handler's answer, as text */
	body: string;
	answer: string;
	/** applied after the client hung up (a 'slow' fault held it 'before') */
	late: boolean;
}

export function pathMatcher(pattern: string | RegExp): (path: string) => boolean {
	if (pattern instanceof RegExp) return (p) => pattern.test(p);
	const re = new RegExp(
		`^${pattern
			.split('/')
			.map((seg) => (seg === '*' || /^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
			.join('/')}/?$`,
	);
	return (p) => re.test(p);
}

interface Pending {
	spec: ActiveFault;
	left: number;
	skip: number;
	method?: string;
	path?: (path: string) => boolean;
	body?: string;
}

export class Faults {
	private pending: Pending[] = [];
	/** every write a handler applied, oldest first (cleared by reset) */
	readonly applied: AppliedWrite[] = [];
	/** faults served so far, by kind */
	readonly served: Record<FaultKind, number> = { '429': 0, '500': 0, slow: 0, drop: 0, expiredLink: 0, repeatPage: 0, staleCursor: 0, pageCap: 0, overstateTotal: 0 };
	/** the last answer to each `METHOD path` (for 'repeatPage'); cleared by clear() */
	readonly lastAnswers = new Map<string, string>();

	/** Queue a fault for the next `times` matching requests (faults are served in the order injected). */
	inject(spec: FaultSpec): void {
		const times = spec.times ?? 1;
		if (!(times >= 1)) throw new Error('faults.inject: times must be at least 1');
		if ((spec.kind === 'staleCursor' || spec.kind === 'pageCap') && !spec.param) throw new Error(`faults.inject: ${spec.kind} needs param`);
		if ((spec.kind === 'staleCursor' || spec.kind === 'overstateTotal') && !spec.field) throw new Error(`faults.inject: ${spec.kind} needs field`);
		this.pending.push({
			spec: {
				kind: spec.kind,
				retryAfterSec: spec.retryAfterSec ?? 1,
				status: spec.status ?? 500,
				delayMs: spec.delayMs ?? 2000,
				when: spec.when ?? 'after',
				param: spec.param,
				field: spec.field,
				max: spec.max ?? 1,
				by: spec.by ?? 1,
				code: spec.code,
				message: spec.message,
				page: spec.page,
				applied: spec.applied ?? false,
				until: spec.until,
			},
			left: times,
			skip: spec.skip ?? 0,
			method: (spec.match ?? DEFAULT_MATCH[spec.kind])?.method?.toUpperCase(),
			path: (spec.match ?? DEFAULT_MATCH[spec.kind])?.path === undefined ? undefined : pathMatcher((spec.match ?? DEFAULT_MATCH[spec.kind])!.path!),
			body: spec.match?.body,
		});
	}

	/** Faults still waiting for a matching request. */
	get remaining(): number {
		return this.pending.reduce((sum, p) => sum + p.left, 0);
	}

	/** The fault for this request, if one is due (consumes it). */
	take(method: string, path: string, body = ''): ActiveFault | undefined {
		const found = this.pending.find((p) => (!p.method || p.method === method) && (!p.path || p.path(path)) && (p.body === undefined || body.includes(p.body)));
		if (!found) return undefined;
		if (found.skip > 0) {
			found.skip--;
			return undefined;
		}
		found.left--;
		if (found.left <= 0) this.pending.splice(this.pending.indexOf(found), 1);
		this.served[found.spec.kind]++;
		return found.spec;
	}

	/** Notes a write the handler applied; the record is the caller's to mark undelivered when its answer never arrives. */
	recordWrite(write: AppliedWrite): AppliedWrite {
		this.applied.push(write);
		return write;
	}

	/** Applied writes whose method (or '*') and path match. */
	writes(method = '*', pathPattern: string | RegExp = /.*/): number {
		const m = method.toUpperCase();
		const match = pathMatcher(pathPattern);
		return this.applied.filter((w) => (m === '*' || w.method === m) && match(w.path)).length;
	}

	clear(): void {
		this.pending = [];
		this.applied.length = 0;
		this.lastAnswers.clear();
		for (const kind of Object.keys(this.served) as FaultKind[]) this.served[kind] = 0;
	}
}
