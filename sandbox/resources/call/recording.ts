/**
 * Call recordings as a storage service serves them: Lofty hands out a signed link (valid one hour) to a file on
 * another host; here that host is the sandbox's own server (loopback), under /recordings/.
 *
 * Like an S3 presigned URL: the query carries `expires` (epoch ms) and a `signature` over path and expiry; a wrong
 * signature or a link past its expiry is answered 403 with an XML error, an unknown file 404. An Authorization
 * header is ignored (a real signed URL ignores it too); the request log's `authScheme` shows whether one came.
 * The file is a real WAV (8 kHz, 16-bit mono, one second) of a tone whose pitch follows the call, built in code.
 */
import { createHmac } from 'node:crypto';

import type { Ctx, Reply, Route } from '../../core/router';
import { commState } from '../communication/state';

/** How long a link stays valid (api-spec.md: "valid for 1 hour"). */
export const RECORDING_LINK_TTL_MS = 3_600_000;
const SIGNING_KEY = 'sandbox-recording-signing-key';
const SAMPLE_RATE = 8000;

/** The recording of a dialer call: a one-second tone, different for each call, as a WAV file. */
export function recordingAudio(dialerCallRecordId: bigint | string): Buffer {
	const hz = 300 + Number(BigInt(dialerCallRecordId) % 500n);
	const samples = SAMPLE_RATE;
	const data = Buffer.alloc(samples * 2);
	for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE)), i * 2);
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + data.length, 4);
	header.write('WAVEfmt ', 8, 'ascii');
	header.writeUInt32LE(16, 16); // fmt chunk size
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(SAMPLE_RATE, 24);
	header.writeUInt32LE(SAMPLE_RATE * 2, 28); // bytes per second
	header.writeUInt16LE(2, 32); // block align
	header.writeUInt16LE(16, 34); // bits per sample
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(data.length, 40);
	return Buffer.concat([header, data]);
}

const sign = (path: string, expires: number): string => createHmac('sha256', SIGNING_KEY).update(`${path}\n${expires}`).digest('hex').slice(0, 32);

/** The signed link to a call's recording, on the host the request came to; `expires` in epoch ms. */
export function recordingUrl(ctx: Ctx, dialerCallRecordId: bigint, expires: number): string {
	const path = `/recordings/${dialerCallRecordId}.wav`;
	return `http://${ctx.headers.host ?? '127.0.0.1'}${path}?expires=${expires}&signature=${sign(path, expires)}`;
}

function storageError(status: number, code: string, message: string): Reply {
	return {
		status,
		raw: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
		headers: { 'Content-Type': 'application/xml' },
	};
}

export const recordingRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/recordings/{file}',
		public: true,
		handler: (ctx) => {
			const expires = Number(ctx.query.get('expires'));
			if (ctx.query.get('signature') !== sign(ctx.path, expires)) return storageError(403, 'SignatureDoesNotMatch', 'The request signature does not match.');
			if (!(ctx.now <= expires)) return storageError(403, 'AccessDenied', 'Request has expired');
			const match = /^(\d+)\.wav$/.exec(ctx.params.file);
			const id = match ? BigInt(match[1]) : undefined;
			const call = id === undefined ? undefined : commState(ctx.store).list(ctx.now, (c) => c.kind === 'CALL' && c.dialerCallRecordId === id)[0];
			if (!call || call.recordingSwitch !== true) return storageError(404, 'NoSuchKey', 'The specified key does not exist.');
			return { raw: recordingAudio(id!), headers: { 'Content-Type': 'audio/wav', 'Cache-Control': 'private, max-age=3600' } };
		},
	},
];
