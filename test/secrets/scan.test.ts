/**
 * The whole-suite secret scan can fail: the shapes catch every secret the sandbox hands out, the file scan reads
 * binary files, and the reporter fails a run on a hit or on a watch that saw nothing, printing hits masked.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import axios from 'axios';

import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, OTHER_AGENT_API_KEY, OTHER_CLIENT_SECRET } from '../../sandbox/core/auth';
import { SEED_IDS } from '../../sandbox';
import { callbackUrlOf, ensureSecret } from '../../nodes/LoftyTrigger/subscriptionState';
import { redactCallbackUrl } from '../../nodes/Lofty/resources/webhook/redact';
import { textOf } from './observe';
import { useSandbox } from '../harness/sandbox';

/* eslint-disable @typescript-eslint/no-require-imports */
const { findSecrets, scanFiles } = require('../../scripts/secret-scan');
const Reporter = require('./reporter');
/* eslint-enable @typescript-eslint/no-require-imports */

type Hit = { kind: string; secret: string; where: string; excerpt: string };
const sandbox = useSandbox();

describe('secret shapes', () => {
	it('catch every kind of secret the sandbox hands out, and print them masked', async () => {
		const s = sandbox();
		const redirect = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
		const authorize = await axios.get(`${s.url}/page/vendor-auth.html`, {
			params: { clientId: DEMO_CLIENT_ID, redirect_uri: redirect },
			maxRedirects: 0,
			validateStatus: () => true,
		});
		const code = new URL(String(authorize.headers.location)).searchParams.get('code')!;
		const token = await axios.post(`${s.url}/api/user-web/oauth/token`, new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect }).toString(), {
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			auth: { username: DEMO_CLIENT_ID, password: DEMO_CLIENT_SECRET },
		});
		const cases: Array<[string, string]> = [
			['API key', DEMO_API_KEY],
			['API key', OTHER_AGENT_API_KEY],
			['OAuth client secret', DEMO_CLIENT_SECRET],
			['OAuth client secret', OTHER_CLIENT_SECRET],
			['OAuth access token', s.issueToken()],
			['OAuth access token', token.data.access_token],
			['OAuth refresh token', token.data.refresh_token],
			['OAuth authorization code', code],
			['webhook callback secret', callbackUrlOf('https://n8n.example.com/webhook/abc/webhook', ensureSecret({}))],
		];
		for (const [kind, secret] of cases) {
			const hits: Hit[] = findSecrets(`Authorization failed for "${secret}" at /v1.0/me`, 'test');
			expect(hits.map((h) => h.kind)).toEqual([kind]);
			expect(JSON.stringify(hits)).not.toContain(secret);
			expect(hits[0].excerpt).toContain('Authorization failed for');
		}
	});

	it('do not flag what is not secret: IDs, the client id, URLs', () => {
		const redacted = redactCallbackUrl(callbackUrlOf('https://n8n.example.com/webhook/abc/webhook', ensureSecret({})));
		const text = `${SEED_IDS.bigLeadId} ${DEMO_CLIENT_ID} ${sandbox().url}/v1.0/leads token lofty_sbx_ sbx_at_short ${String(redacted)}`;
		expect(findSecrets(text, 'test')).toEqual([]);
	});

	it('an error is seen with its description and stack', () => {
		const error = Object.assign(new Error('Lofty error (HTTP 401)'), { description: `key ${DEMO_API_KEY}` });
		expect(findSecrets(textOf(error), 'test')).toHaveLength(1);
		expect(findSecrets(textOf({ json: { nested: [{ deeper: { header: `token ${DEMO_API_KEY}` } }] } }), 'test')).toHaveLength(1);
	});
});

describe('the scan of files', () => {
	it('reads binary files byte for byte and skips installed code', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-scan-'));
		try {
			fs.writeFileSync(path.join(dir, 'database.sqlite'), Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(DEMO_CLIENT_SECRET), Buffer.from([0])]));
			fs.mkdirSync(path.join(dir, 'node_modules'));
			fs.writeFileSync(path.join(dir, 'node_modules', 'fixture.js'), DEMO_API_KEY);
			fs.writeFileSync(path.join(dir, 'n8n.log'), 'Workflow executed successfully\n');
			const result = scanFiles([dir]);
			expect(result.files).toBe(2);
			expect(result.hits.map((h: Hit) => [path.basename(h.where), h.kind])).toEqual([['database.sqlite', 'OAuth client secret']]);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('the reporter', () => {
	let root: string;
	let stderr: jest.SpyInstance;
	// A reporter names its run in the environment; this worker's run keeps its own name.
	const runName = process.env.LOFTY_SECRET_SCAN_RUN;
	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-reporter-'));
		stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
	});
	afterEach(() => {
		stderr.mockRestore();
		fs.rmSync(root, { recursive: true, force: true });
		if (runName === undefined) delete process.env.LOFTY_SECRET_SCAN_RUN;
		else process.env.LOFTY_SECRET_SCAN_RUN = runName;
	});

	const fileResult = (file: string, consoleMessage = 'fine') => ({
		testFilePath: path.join(root, file),
		numPassingTests: 1,
		numFailingTests: 0,
		console: [{ message: consoleMessage, origin: '', type: 'log' }],
		testResults: [{ fullName: 'a test', failureMessages: [] }],
	});
	const tally = (reporter: { tallyDir: string }, file: string, observed: number, hits: Hit[] = []) => {
		fs.mkdirSync(reporter.tallyDir, { recursive: true });
		fs.writeFileSync(path.join(reporter.tallyDir, `${file.replace(/\W/g, '_')}.json`), JSON.stringify({ testPath: path.join(root, file), observed, bytes: 10, hits }));
	};
	const printed = () => stderr.mock.calls.map((c) => String(c[0])).join('');

	it('passes a clean run and says what it scanned', () => {
		const reporter = new Reporter({ rootDir: root }, { mustObserve: ['test/node/'] });
		reporter.onRunStart();
		tally(reporter, 'test/node/lead.test.ts', 12);
		reporter.onTestFileResult({}, fileResult('test/node/lead.test.ts'));
		reporter.onRunComplete();
		expect(reporter.getLastError()).toBeUndefined();
		expect(printed()).toContain('12 node outputs, errors and log lines');
	});

	it('fails on a secret in the console, masked in what it prints', () => {
		const reporter = new Reporter({ rootDir: root }, {});
		reporter.onRunStart();
		reporter.onTestFileResult({}, fileResult('test/unit/x.test.ts', `sent token ${DEMO_API_KEY}`));
		reporter.onRunComplete();
		expect(reporter.getLastError()?.message).toContain(`1 secret(s) found:\n  API key lofty_sbx_…(${DEMO_API_KEY.length} chars) in test/unit/x.test.ts (jest output)`);
		expect(printed()).toContain('Secret scan FAILED');
		expect(printed() + reporter.getLastError().message).not.toContain(DEMO_API_KEY);
	});

	it('fails on a hit a worker observed, and on a watched folder that saw nothing', () => {
		const reporter = new Reporter({ rootDir: root }, { mustObserve: ['test/node/'] });
		reporter.onRunStart();
		tally(reporter, 'test/node/a.test.ts', 3, findSecrets(`Bearer ${DEMO_CLIENT_SECRET}`, 'Lofty error'));
		reporter.onTestFileResult({}, fileResult('test/node/a.test.ts'));
		reporter.onTestFileResult({}, fileResult('test/node/b.test.ts'));
		reporter.onRunComplete();
		const message = reporter.getLastError()?.message ?? '';
		expect(message).toContain(`OAuth client secret sbx-demo-s…(${DEMO_CLIENT_SECRET.length} chars) in Lofty error`);
		expect(message).toContain('saw no node output from test/node/b.test.ts');
	});

	it('scans the folders it is given (the e2e run: n8n log and database)', () => {
		fs.mkdirSync(path.join(root, '.e2e/2.41.1'), { recursive: true });
		fs.writeFileSync(path.join(root, '.e2e/2.41.1/n8n.log'), `request with token ${OTHER_AGENT_API_KEY}`);
		const reporter = new Reporter({ rootDir: root }, { scan: ['.e2e'] });
		reporter.onRunStart();
		reporter.onTestFileResult({}, fileResult('test/e2e/n8n.e2e.ts'));
		reporter.onRunComplete();
		expect(reporter.getLastError()?.message).toContain(`API key lofty_sbx_…(${OTHER_AGENT_API_KEY.length} chars) in .e2e/2.41.1/n8n.log`);
	});
});
