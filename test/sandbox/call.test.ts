import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import axios from 'axios';

import { COMM_SEED } from '../../sandbox/resources/communication';
import { RECORDING_LINK_TTL_MS, recordingAudio } from '../../sandbox/resources/call';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const HISTORY = COMM_SEED.historyLeadId;
const ALL_CALLS = COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls;

describe('GET /v1.0/calls', () => {
	it('pages by offset/limit (default 10) with _metadata.total', async () => {
		const first = await api().get('/v1.0/calls', { params: { leadId: HISTORY } });
		expect(first.status).toBe(200);
		expect(first.body._metadata).toMatchObject({ collection: 'calls', limit: 10, offset: 0, total: ALL_CALLS });
		expect(first.body.calls).toHaveLength(10);
		const page = await api().get('/v1.0/calls', { params: { leadId: HISTORY, limit: 100, offset: ALL_CALLS - 50 } });
		expect(page.body.calls).toHaveLength(50);
		expect(page.body._metadata.offset).toBe(ALL_CALLS - 50);
	});

	it('limit 1 to 100, else LIMIT_NOT_VALID', async () => {
		for (const limit of [0, 101]) {
			const r = await api().get('/v1.0/calls', { params: { leadId: HISTORY, limit } });
			expect([r.status, r.body.code]).toEqual([400, 'LIMIT_NOT_VALID']);
		}
	});

	it('404 LEAD_NOT_FOUND for a missing, non-positive, unknown or trashed lead; 400 PERMISSION_DENIED without access', async () => {
		for (const params of [{}, { leadId: 0 }, { leadId: '123456789' }, { leadId: SEED_IDS.trashedLeadId }]) {
			const r = await api().get('/v1.0/calls', { params });
			expect([params, r.status, r.body.code]).toEqual([params, 404, 'LEAD_NOT_FOUND']);
		}
		const denied = await api().get('/v1.0/calls', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect([denied.status, denied.body.code]).toEqual([400, 'PERMISSION_DENIED']);
		expect((await other().get('/v1.0/calls', { params: { leadId: SEED_IDS.notSharedLeadId } })).status).toBe(200);
	});
});

describe('GET /v1.0/calls/{callId} and /v1.0/call/url/{callId}', () => {
	it('returns the call under "calls", by id or by dialer record id', async () => {
		const byId = await api().get(`/v1.0/calls/${COMM_SEED.bigLeadCallId}`);
		expect(byId.status).toBe(200);
		expect(s(byId.body.calls.id)).toBe(COMM_SEED.bigLeadCallId);
		expect(byId.body.calls).toMatchObject({ duration: 225, recordingSwitch: true, note: 'Discussed pre-approval timeline.' });
		expect(byId.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const byDialer = await api().get(`/v1.0/calls/${COMM_SEED.bigLeadCallDialerId}`);
		expect(byDialer.text).toBe(byId.text);
	});

	it('gives a temporary recording URL, empty when the call was not recorded or logged', async () => {
		const recorded = await api().get(`/v1.0/call/url/${COMM_SEED.bigLeadCallId}`);
		expect(s(recorded.body.calls.id)).toBe(COMM_SEED.bigLeadCallId);
		expect(recorded.body.calls.url).toBe(
			`${sb.url}/recordings/${COMM_SEED.bigLeadCallDialerId}.wav?expires=${sb.requests[0].time + RECORDING_LINK_TTL_MS}&signature=${new URL(recorded.body.calls.url).searchParams.get('signature')}`,
		);
		for (const id of [COMM_SEED.bigLeadUnrecordedCallId, COMM_SEED.bigLeadLoggedCallId]) {
			expect((await api().get(`/v1.0/call/url/${id}`)).body.calls.url).toBe('');
		}
	});

	it('400 PERMISSION_DENIED for an unknown call, a non-call or another agent\'s lead; 404 LEAD_NOT_FOUND when the lead is trashed', async () => {
		for (const id of ['424242', COMM_SEED.bigLeadEmailId, COMM_SEED.notSharedCallId]) {
			for (const path of [`/v1.0/calls/${id}`, `/v1.0/call/url/${id}`]) {
				const r = await api().get(path);
				expect([path, r.status, r.body.code]).toEqual([path, 400, 'PERMISSION_DENIED']);
			}
		}
		const trashed = await api().get(`/v1.0/calls/${COMM_SEED.trashedLeadCallId}`);
		expect([trashed.status, trashed.body.code]).toEqual([404, 'LEAD_NOT_FOUND']);
		expect((await api().get('/v1.0/calls/0')).body.code).toBe(20012);
	});
});

describe('GET /recordings/{file}: the file host behind the recording link (a signed URL)', () => {
	const link = async () => String((await api().get(`/v1.0/call/url/${COMM_SEED.bigLeadCallId}`)).body.calls.url);
	const fetchFile = (url: string, headers: Record<string, string> = {}) =>
		axios.get<ArrayBuffer>(url, { responseType: 'arraybuffer', headers, validateStatus: () => true });

	it('serves a real WAV with its type and length, and ignores an Authorization header (logged as sent)', async () => {
		const url = await link();
		const plain = await fetchFile(url);
		expect(plain.status).toBe(200);
		expect(plain.headers['content-type']).toBe('audio/wav');
		const body = Buffer.from(plain.data);
		expect(Number(plain.headers['content-length'])).toBe(body.length);
		expect(body.equals(recordingAudio(COMM_SEED.bigLeadCallDialerId))).toBe(true);
		// RIFF/WAVE, PCM, 8 kHz mono, 16 bit, one second.
		expect([body.toString('ascii', 0, 4), body.toString('ascii', 8, 12), body.readUInt32LE(24), body.readUInt16LE(34), body.readUInt32LE(40)]).toEqual(['RIFF', 'WAVE', 8000, 16, 16000]);
		const withAuth = await fetchFile(url, { Authorization: `token ${DEMO_API_KEY}` });
		expect(Buffer.from(withAuth.data).equals(body)).toBe(true);
		expect(sb.requests.filter((r) => r.path.startsWith('/recordings/')).map((r) => r.authScheme)).toEqual(['none', 'token']);
	});

	it('403 after the expiry or with a changed expiry, signature or path; the expiredLink fault hands out a spent link', async () => {
		const url = await link();
		const tampered = url.replace(/expires=(\d+)/, (_, ms: string) => `expires=${Number(ms) + 3_600_000}`);
		const forged = url.replace(/signature=[0-9a-f]+/, 'signature=00000000000000000000000000000000');
		for (const bad of [tampered, forged]) {
			const r = await fetchFile(bad);
			expect([r.status, Buffer.from(r.data).toString()]).toEqual([403, expect.stringContaining('<Code>SignatureDoesNotMatch</Code>')]);
		}
		const realNow = sb.store.now;
		sb.store.now = () => realNow() + RECORDING_LINK_TTL_MS + 1000;
		try {
			const late = await fetchFile(url);
			expect([late.status, late.headers['content-type'], Buffer.from(late.data).toString()]).toEqual([403, 'application/xml', expect.stringContaining('Request has expired')]);
		} finally {
			sb.store.now = realNow;
		}
		const unrecorded = url.replace(`${COMM_SEED.bigLeadCallDialerId}.wav`, '400000012346.wav');
		expect((await fetchFile(unrecorded)).status).toBe(403); // the signature covers the path
		sb.faults.inject({ kind: 'expiredLink' });
		const spent = await link();
		expect((await fetchFile(spent)).status).toBe(403);
		expect((await fetchFile(await link())).status).toBe(200);
	});
});
