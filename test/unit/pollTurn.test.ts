/**
 * One poll of a polling trigger at a time (LoftyPollingTrigger/pollTurn.ts), on a clock the test sets: a poll that
 * starts while another runs gets no turn, a stale turn is taken over, and the poll that lost it knows. The node runs:
 * test/node/pollingOverlap.test.ts.
 */
import { STALE_AFTER_MS, takePollTurn, triggerKey } from '../../nodes/LoftyPollingTrigger/pollTurn';

let now = 1_000_000;
beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
afterEach(() => jest.restoreAllMocks());

describe('takePollTurn', () => {
	it('a second poll of the trigger gets no turn while the first holds it; another trigger does; after release the next one does', () => {
		const first = takePollTurn('t1', now + 1000)!;
		expect(first.held).toBe(true);
		expect(takePollTurn('t1', now + 1000)).toBeUndefined();
		const other = takePollTurn('t2', now + 1000)!;
		expect(other.held).toBe(true);
		first.release();
		expect(first.held).toBe(false);
		const next = takePollTurn('t1', now + 1000)!;
		expect(next.held).toBe(true);
		next.release();
		other.release();
	});

	it('held until its deadline plus STALE_AFTER_MS; from then on the next poll takes it over and the first holds nothing', () => {
		const deadline = now + 1000;
		const first = takePollTurn('t3', deadline)!;
		now = deadline + STALE_AFTER_MS - 1;
		expect(takePollTurn('t3', now + 1000)).toBeUndefined();
		now = deadline + STALE_AFTER_MS;
		const next = takePollTurn('t3', now + 1000)!;
		expect(next.held).toBe(true);
		expect(first.held).toBe(false);
		// The stale poll's release leaves the new holder's turn alone.
		first.release();
		expect(next.held).toBe(true);
		expect(takePollTurn('t3', now + 1000)).toBeUndefined();
		next.release();
		expect(next.held).toBe(false);
	});
});

describe('triggerKey', () => {
	it('the workflow and the node ID, else the node name', () => {
		expect(triggerKey('w1', 'n1', 'Lofty Polling Trigger')).toBe('["w1","n1"]');
		expect(triggerKey(undefined, '', 'Lofty Polling Trigger')).toBe('["","Lofty Polling Trigger"]');
		expect(triggerKey('w1', undefined, 'Name')).toBe('["w1","Name"]');
	});
});
