/** Route table: method + path template (`/v1.0/leads/{leadId}`), scope name, handler. */
import type { IncomingHttpHeaders } from 'node:http';

import type { AuthRegistry, Caller } from './auth';
import type { ActiveFault } from './faults';
import type { JsonValue } from './json';
import type { Store } from './store';
import type { User } from './types';

export interface Ctx {
	method: string;
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	/** parsed JSON body (lossless) for `body: 'json'` routes */
	body: JsonValue | undefined;
	rawBody: string;
	/** authenticated caller (absent on public routes) */
	caller: Caller | undefined;
	user: User;
	store: Store;
	auth: AuthRegistry;
	now: number;
	/** a fault this request drew that the handler acts on itself (an expired link) */
	fault?: ActiveFault;
}

export interface Reply {
	status?: number;
	/** JSON-serialized with lossless bigint output */
	body?: unknown;
	/** sent verbatim instead of `body` (a Buffer for files) */
	raw?: string | Buffer;
	headers?: Record<string, string>;
}

export interface Route {
	method: string;
	pattern: string;
	/** public routes skip API authentication (OAuth endpoints) */
	public?: boolean;
	/** 'json': a JSON body is required (Content-Type enforced); 'form': urlencoded; default none */
	body?: 'json' | 'form';
	/** errors of this route are written as bare JSON strings (GET /v1.0/systemLogs) */
	plainStringErrors?: boolean;
	handler: (ctx: Ctx) => Reply;
}

/** The scope name a token must hold to call a route, e.g. "GET /v1.0/leads/{leadId}". */
export const scopeOf = (r: Pick<Route, 'method' | 'pattern'>): string => `${r.method} ${r.pattern}`;

interface Compiled {
	route: Route;
	segments: string[];
	statics: number;
}

export class Router {
	private compiled: Compiled[] = [];

	add(routes: Route[]): void {
		for (const route of routes) {
			const segments = route.pattern.split('/').filter(Boolean);
			this.compiled.push({ route, segments, statics: segments.filter((s) => !s.startsWith('{')).length });
		}
		this.compiled.sort((a, b) => b.statics - a.statics);
	}

	get routes(): Route[] {
		return this.compiled.map((c) => c.route);
	}

	match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
		const parts = path.split('/').filter(Boolean);
		for (const c of this.compiled) {
			if (c.route.method !== method || c.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			let ok = true;
			for (let i = 0; i < parts.length && ok; i++) {
				const seg = c.segments[i];
				if (seg.startsWith('{')) {
					try {
						params[seg.slice(1, -1)] = decodeURIComponent(parts[i]);
					} catch {
						ok = false;
					}
				} else ok = seg === parts[i];
			}
			if (ok) return { route: c.route, params };
		}
		return undefined;
	}
}
