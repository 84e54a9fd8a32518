/**
 * The nginx recipe (examples/proxy/nginx-webhook-503.conf) on loopback, in front of a fake n8n: n8n's "webhook not
 * registered" 404 on /webhook/ reaches Lofty as 503 (retried), everything else passes through as n8n answered.
 * Needs Debian's nginx (`apt-get install -y nginx-light`; .ci/run installs it); skipped with a message without it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RECIPE = join(__dirname, '../../examples/proxy/nginx-webhook-503.conf');

function nginxPath(): string | undefined {
	for (const candidate of ['/usr/sbin/nginx', 'nginx']) {
		try {
			execFileSync(candidate, ['-v'], { stdio: 'ignore' });
			return candidate;
		} catch {
			// not this one
		}
	}
	return undefined;
}

const nginx = nginxPath();
if (!nginx) console.warn('proxyRecipe.test.ts: nginx is not installed (apt-get install -y nginx-light): the proxy recipe test is skipped');
const maybe = nginx ? describe : describe.skip;

interface Answer {
	status: number;
	body: string;
	headers: Record<string, unknown>;
}

function send(port: number, method: string, path: string, body?: string): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port, method, path, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

async function freePort(): Promise<number> {
	const s = createServer();
	await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
	const { port } = s.address() as AddressInfo;
	await new Promise((resolve) => s.close(resolve));
	return port;
}

maybe('nginx recipe: the webhook path answers n8n\'s 404 as 503', () => {
	let upstream: Server;
	let proc: ChildProcess;
	let dir: string;
	let port: number;
	const seen: Array<{ method: string; url: string; body: string }> = [];

	beforeAll(async () => {
		// A fake n8n: registered webhook -> 200, unregistered -> n8n's 404, other paths as n8n would.
		upstream = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				seen.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString() });
				if (req.url?.startsWith('/webhook/registered/')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":1}');
				else if (req.url === '/rest/missing') res.writeHead(404).end('not found');
				else if (req.url === '/webhook/failing/webhook') res.writeHead(500).end('{"code":0}');
				else res.writeHead(404, { 'content-type': 'text/html' }).end(`<pre>Cannot ${req.method} ${req.url}</pre>`);
			});
		});
		await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
		const upstreamPort = (upstream.address() as AddressInfo).port;
		port = await freePort();
		dir = mkdtempSync(join(tmpdir(), 'lofty-nginx-'));
		const recipe = readFileSync(RECIPE, 'utf8').replace(/\blisten 80;/, `listen 127.0.0.1:${port};`).replace('server 127.0.0.1:5678;', `server 127.0.0.1:${upstreamPort};`);
		expect(recipe).toContain(`listen 127.0.0.1:${port};`);
		writeFileSync(join(dir, 'recipe.conf'), recipe);
		const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
		writeFileSync(
			join(dir, 'nginx.conf'),
			`daemon off; master_process off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} warn;
events {}
http { access_log off; ${temp} include ${join(dir, 'recipe.conf')}; }
`,
		);
		proc = spawn(nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
		const until = Date.now() + 30_000;
		for (;;) {
			try {
				await send(port, 'GET', '/healthz');
				break;
			} catch {
				if (proc.exitCode !== null || Date.now() > until) throw new Error(`nginx did not start: ${stderr}`);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		}
	});

	afterAll(async () => {
		if (proc && proc.exitCode === null) {
			const exited = new Promise((resolve) => proc.once('exit', resolve));
			proc.kill('SIGTERM');
			await exited;
		}
		await new Promise((resolve) => upstream?.close(resolve));
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it('a delivery to a webhook n8n has not registered gets 503 (Lofty retries), with Retry-After', async () => {
		const answer = await send(port, 'POST', '/webhook/abc/webhook?token=x', '{"listId":2}');
		expect(answer.status).toBe(503);
		expect(answer.headers['retry-after']).toBe('30');
		expect(JSON.parse(answer.body)).toEqual({ message: expect.stringContaining('not registered') });
		expect(seen.at(-1)).toEqual({ method: 'POST', url: '/webhook/abc/webhook?token=x', body: '{"listId":2}' });
	});

	it('a registered webhook passes through with its body and answer', async () => {
		const answer = await send(port, 'POST', '/webhook/registered/webhook', '{"listId":6}');
		expect([answer.status, answer.body]).toEqual([200, '{"received":1}']);
		expect(seen.at(-1)?.body).toBe('{"listId":6}');
	});

	it("other answers of the webhook path and n8n's other paths are unchanged (500 stays 500, a 404 elsewhere stays 404)", async () => {
		expect((await send(port, 'POST', '/webhook/failing/webhook', '{}')).status).toBe(500);
		expect((await send(port, 'GET', '/rest/missing')).status).toBe(404);
		expect((await send(port, 'POST', '/webhook-test/abc/webhook', '{}')).status).toBe(404);
	});
});
