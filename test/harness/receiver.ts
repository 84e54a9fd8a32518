/** A scripted loopback webhook receiver, for the sandbox delivery engine's own tests. */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { heldBack } from '../../sandbox/core/server';

/** One answer of a scripted receiver: a status, optional headers, and an optional delay before answering. */
export type ScriptedAnswer = number | { status: number; headers?: Record<string, string>; delayMs?: number; body?: string };

export interface ReceivedRequest {
	headers: Record<string, string | string[] | undefined>;
	path: string;
	text: string;
	json: any;
}

/**
 * A loopback webhook receiver for the delivery engine's own tests: answers each request with the
 * next scripted answer (the last one repeats; 200 when the script is empty) and records it.
 */
export class ScriptedReceiver {
	readonly requests: ReceivedRequest[] = [];
	private server: Server | undefined;
	private port = 0;

	/** `script`: answers in order (the last repeats); `respond`, when set, decides instead from the request. */
	constructor(
		public script: ScriptedAnswer[] = [],
		public respond?: (request: ReceivedRequest) => ScriptedAnswer,
	) {}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}/hook`;
	}

	/** Requests that were events (not pings). */
	get deliveries(): ReceivedRequest[] {
		return this.requests.filter((r) => r.json?.eventType !== 'ping');
	}

	get pings(): ReceivedRequest[] {
		return this.requests.filter((r) => r.json?.eventType === 'ping');
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString('utf8');
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const index = this.requests.length;
		this.requests.push({ headers: req.headers, path: req.url ?? '', text, json });
		const step = this.respond
			? this.respond(this.requests[index])
			: this.script.length === 0
				? 200
				: this.script[Math.min(index, this.script.length - 1)];
		const answer = typeof step === 'number' ? { status: step } : step;
		if (answer.delayMs) await heldBack(req, answer.delayMs);
		if (res.destroyed) return;
		res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) }).end(answer.body ?? '{}');
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		await closeServer(server);
	}
}

/** Closes a loopback server and its open connections. */
export async function closeServer(server: Server | undefined): Promise<void> {
	if (!server) return;
	await new Promise<void>((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}
