/** The response object n8n hands a webhook node, as far as the Lofty Trigger uses it. */
import { EventEmitter } from 'node:events';

export /** An express-like response: records what was sent, emits 'finish' and 'close' like Node's. */
class FakeResponse extends EventEmitter {
	statusCode = 200;
	sent = false;
	/** Settles once the answer went out: 'finish' and 'close' were emitted and their listeners ran. */
	readonly closed: Promise<void> = new Promise((resolve) => this.once('close', () => resolve()));
	body: unknown;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		if (this.sent) return this;
		this.body = body;
		this.sent = true;
		setImmediate(() => {
			this.emit('finish');
			this.emit('close');
		});
		return this;
	}

	send(body: unknown): this {
		return this.json(body);
	}

	end(body?: unknown): this {
		return this.json(body);
	}

	/** The connection went away without an answer. */
	abort(): void {
		if (!this.sent) this.emit('close');
	}

	get headersSent(): boolean {
		return this.sent;
	}
}
