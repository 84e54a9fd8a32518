/**
 * Call > Download Recording against the sandbox: the link Lofty hands out is fetched from the sandbox's file host
 * (loopback) without Lofty's credential, and the file comes back as binary data, byte for byte.
 */
import axios from 'axios';

import { fileFacts, linkExpiry } from '../../nodes/Lofty/model/download';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { recordingAudio } from '../../sandbox/resources/call';
import { binaryInputs } from '../harness/context';
import { run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const download = (callId: string, extra: Record<string, unknown> = {}) => ({ resource: 'call', operation: 'downloadRecording', callId, ...extra });
const RECORDED = COMM_SEED.bigLeadCallId;
const RECORDED_DIALER = COMM_SEED.bigLeadCallDialerId;
const UNRECORDED = COMM_SEED.bigLeadUnrecordedCallId;
const fileRequests = () => sandbox().requests.filter((r) => r.path.startsWith('/recordings/'));
const linkRequests = () => sandbox().requests.filter((r) => r.path.startsWith('/v1.0/call/url/'));

describe('Call: Download Recording', () => {
	it('returns the sandbox\'s file byte for byte, typed and named from the answer and the link, and sends no Authorization to the file host', async () => {
		const [item] = await run(sandbox(), download(RECORDED));
		const expected = recordingAudio(RECORDED_DIALER);
		const file = item.binary!.data;
		expect(Buffer.from(file.data, 'base64').equals(expected)).toBe(true);
		expect(file).toMatchObject({ mimeType: 'audio/wav', fileName: `${RECORDED_DIALER}.wav`, fileExtension: 'wav' });
		expect(item.json).toMatchObject({ callId: RECORDED, fileName: `${RECORDED_DIALER}.wav`, mimeType: 'audio/wav', fileSize: expected.length });
		expect(Date.parse(item.json.linkExpiresAt as string)).toBe(linkRequests()[0].time + 3_600_000);
		expect(item.pairedItem).toEqual({ item: 0 });
		// The link came from Lofty with the API key; the file host got no Authorization header at all.
		expect(linkRequests().map((r) => r.authScheme)).toEqual(['token']);
		expect(fileRequests().map((r) => [r.status, r.authScheme])).toEqual([[200, 'none']]);
		// Handed to n8n as a stream, not buffered by the node.
		expect(binaryInputs.at(-1)).toBe('stream');
	});

	it('the same file as fetching the link of Get Recording URL by hand; each call has its own file', async () => {
		const [viaNode] = await run(sandbox(), download(RECORDED, { binaryPropertyName: 'audio', options: { fileName: 'first call' } }));
		const [link] = await run(sandbox(), { resource: 'call', operation: 'getRecordingUrl', callId: RECORDED });
		const byHand = await axios.get<ArrayBuffer>(link.json.url as string, { responseType: 'arraybuffer' });
		expect(Buffer.from(viaNode.binary!.audio.data, 'base64').equals(Buffer.from(byHand.data))).toBe(true);
		// The name given wins and gets the file type's extension.
		expect(viaNode.json.fileName).toBe('first call.wav');
		expect(viaNode.binary!.data).toBeUndefined();
		expect(recordingAudio(RECORDED_DIALER).equals(recordingAudio(BigInt(RECORDED_DIALER) + 1n))).toBe(false);
	});

	it('a call without a recording fails its item clearly; its neighbours get their files, each paired with its item', async () => {
		const ids = [RECORDED, UNRECORDED, RECORDED];
		const items = await run(sandbox(), (i) => download(ids[i]), { items: ids.map((id) => ({ id })), continueOnFail: true });
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toBe(`Call ${UNRECORDED} has no recording (it was not recorded or was logged by hand)`);
		expect(items[1].binary).toBeUndefined();
		for (const i of [0, 2]) expect(Buffer.from(items[i].binary!.data.data, 'base64').equals(recordingAudio(RECORDED_DIALER))).toBe(true);
		// No file request for the call without a link.
		expect(fileRequests()).toHaveLength(2);
		const error = await runError(sandbox(), download(UNRECORDED));
		expect(error.message).toMatch(/has no recording/);
		expect(error.context?.itemIndex).toBe(0);
	});

	it('an expired link is asked for again once and the fresh one downloaded: one that says so is not tried, one the host refuses is', async () => {
		sandbox().faults.inject({ kind: 'expiredLink' });
		const [item] = await run(sandbox(), download(RECORDED));
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(recordingAudio(RECORDED_DIALER))).toBe(true);
		expect(linkRequests()).toHaveLength(2);
		expect(fileRequests().map((r) => r.status)).toEqual([200]);
		// A link that looks valid but is refused (a host whose clock runs ahead, a revoked signature): 403, then a fresh one.
		sandbox().faults.inject({ kind: '500', status: 403, message: 'Request has expired', match: { path: '/recordings/*' } });
		const [again] = await run(sandbox(), download(RECORDED));
		expect(Buffer.from(again.binary!.data.data, 'base64').equals(recordingAudio(RECORDED_DIALER))).toBe(true);
		expect(linkRequests()).toHaveLength(4);
		expect(fileRequests().map((r) => r.status)).toEqual([200, 403, 200]);
	});

	it('a link refused twice fails as expired, without showing the signature; Continue On Fail keeps the next item', async () => {
		// The first spent link is not tried; the second (as spent) is, and refused.
		sandbox().faults.inject({ kind: 'expiredLink', times: 2 });
		// One item at a time, so that the two expired links go to the first item.
		const items = await run(sandbox(), download(RECORDED, { requestOptions: { parallelRequests: 1 } }), { items: [{}, {}], continueOnFail: true });
		expect(items[0].json.error).toBe('The recording link expired; run again to get a fresh one');
		expect(items[0].json.description).toMatch(/HTTP 403 AccessDenied.*valid until/);
		expect(JSON.stringify(items[0].json)).not.toMatch(/signature|expires=/);
		expect(items[1].binary?.data.mimeType).toBe('audio/wav');
		expect(fileRequests().map((r) => r.status)).toEqual([403, 200]);
	});

	it('an HTML page instead of the file is refused, naming what came; nothing is retried', async () => {
		sandbox().faults.inject({ kind: '500', status: 200, page: '<html><body>Sign in to continue</body></html>', match: { path: '/recordings/*' } });
		const error = await runError(sandbox(), download(RECORDED));
		expect(error.message).toBe(`The link to the recording of call ${RECORDED} answered text/html, not an audio file`);
		expect(`${error.message} ${error.description}`).not.toMatch(/signature/);
		expect(fileRequests()).toHaveLength(1);
	});

	it('a file the host does not have (404): a clear error; 5xx answers and a cut connection are retried as reads', async () => {
		sandbox().faults.inject({ kind: '500', status: 404, match: { path: '/recordings/*' } });
		const missing = await runError(sandbox(), download(RECORDED));
		expect(missing.message).toBe(`The file of the recording of call ${RECORDED} was not found at its link (HTTP 404)`);
		expect(missing.description).toMatch(/^Lofty gave a link to http:\/\/127\.0\.0\.1:\d+\/recordings\/\d+\.wav, but/);
		sandbox().faults.inject({ kind: '500', status: 503, times: 2, match: { path: '/recordings/*' } });
		sandbox().faults.inject({ kind: 'drop', match: { path: '/recordings/*' } });
		const [item] = await run(sandbox(), download(RECORDED));
		expect(item.binary?.data.mimeType).toBe('audio/wav');
		// Two 503s, a cut connection (logged as status 0), then the file: all on the one link, which stays valid.
		expect(fileRequests().slice(1).map((r) => r.status)).toEqual([503, 503, 0, 200]);
		expect(linkRequests()).toHaveLength(2);
	});

	it('a connection cut halfway through the file, before n8n stored anything, is downloaded again like a 5xx: the whole file, once', async () => {
		sandbox().faults.inject({ kind: 'drop', when: 'body', times: 2, match: { path: '/recordings/*' } });
		const [item] = await run(sandbox(), download(RECORDED));
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(recordingAudio(RECORDED_DIALER))).toBe(true);
		expect(item.json.fileSize).toBe(recordingAudio(RECORDED_DIALER).length);
		// Two answers cut mid-body (logged as status 0), then the file, on the one link Lofty gave.
		expect(fileRequests().map((r) => r.status)).toEqual([0, 0, 200]);
		expect(linkRequests()).toHaveLength(1);
	});

	it('cut every time: the item fails after Read Retries, saying nothing was stored', async () => {
		sandbox().faults.inject({ kind: 'drop', when: 'body', times: 10, match: { path: '/recordings/*' } });
		const error = await runError(sandbox(), download(RECORDED, { requestOptions: { readRetries: 1 } }));
		expect(error.message).toBe(`The download of the recording of call ${RECORDED} was cut off`);
		expect(error.description).toMatch(/\(tried 2 times\)\. Nothing was stored/);
		expect(fileRequests().map((r) => r.status)).toEqual([0, 0]);
	});
});

describe('Download Recording: names, types and expiry read from the answer and the link', () => {
	const audio = { kind: 'audio/' } as Parameters<typeof fileFacts>[0];
	const facts = (headers: Record<string, string>, url: string, chosen = '') => fileFacts(audio, headers, url, chosen, 'recording-7.mp3');
	it('Content-Disposition wins over the link; a generic type takes the name\'s; the fallback is recording-<id>.mp3', () => {
		expect(facts({ 'content-type': 'audio/mpeg', 'content-disposition': 'attachment; filename="call 7.mp3"' }, 'https://x.test/a/b.wav?sig=1')).toMatchObject({ fileName: 'call 7.mp3', mimeType: 'audio/mpeg' });
		expect(facts({ 'content-type': 'audio/mpeg', 'content-disposition': "attachment; filename*=UTF-8''r%C3%A9union.mp3" }, 'https://x.test/a')).toMatchObject({ fileName: 'réunion.mp3' });
		expect(facts({ 'content-type': 'application/octet-stream' }, 'https://x.test/rec/55.wav?X-Amz-Signature=abc')).toMatchObject({ fileName: '55.wav', mimeType: 'audio/wav' });
		expect(facts({ 'content-type': 'binary/octet-stream' }, 'https://x.test/rec/55')).toMatchObject({ fileName: 'recording-7.mp3', mimeType: 'audio/mpeg' });
		expect(facts({ 'content-type': 'text/html; charset=utf-8' }, 'https://x.test/rec/55.mp3')).toMatchObject({ mimeType: undefined, declared: 'text/html' });
		expect(facts({ 'content-type': 'audio/mpeg' }, 'https://x.test/rec/55.wav', '../../etc/my call')).toMatchObject({ fileName: 'my call.mp3' });
	});
	it('reads an expiry in ms or s, and S3\'s X-Amz-Date plus X-Amz-Expires', () => {
		expect(linkExpiry('https://x.test/a?expires=1764000000000')?.toISOString()).toBe('2025-11-24T16:00:00.000Z');
		expect(linkExpiry('https://x.test/a?Expires=1764000000')?.toISOString()).toBe('2025-11-24T16:00:00.000Z');
		expect(linkExpiry('https://x.test/a?X-Amz-Date=20251124T150000Z&X-Amz-Expires=3600')?.toISOString()).toBe('2025-11-24T16:00:00.000Z');
		expect(linkExpiry('https://x.test/a')).toBeUndefined();
	});
});
