/**
 * What the node keeps in the n8n process across executions, cleared so that each test case starts from nothing: the
 * pace per credential (transport/pacing.ts), the leads Create or Update made a moment ago (resources/lead/keys.ts), the
 * creates without a certain answer (resources/lead/uncertainCreates.ts),
 * the turns (model/turns.ts; none are held once every run has ended) and the Lofty Polling Trigger's lead backlog readers
 * (LoftyPollingTrigger/backlogReader.ts).
 */
import { forgetTurns } from '../../nodes/Lofty/model/turns';
import { forgetRecentLeads } from '../../nodes/Lofty/resources/lead/keys';
import { forgetUncertainCreates } from '../../nodes/Lofty/resources/lead/uncertainCreates';
import { forgetBacklogReaders } from '../../nodes/LoftyPollingTrigger/backlogReader';
import { resetPacing } from '../../nodes/Lofty/transport/pacing';

export function forgetProcessMemory(): void {
	resetPacing();
	forgetRecentLeads();
	forgetUncertainCreates();
	forgetTurns();
	forgetBacklogReaders();
}
