import { withTimesIn } from '../model/agentZone';
import type { OperationDef, ResourceDef } from '../model/types';
import { agent } from './agent';
import { ai } from './ai';
import { appointment } from './appointment';
import { calendar } from './calendar';
import { call } from './call';
import { communication } from './communication';
import { customField } from './customField';
import { leadPipeline } from './leadPipeline';
import { leadPond } from './leadPond';
import { listing } from './listing';
import { manualLog } from './manualLog';
import { member } from './member';
import { note } from './note';
import { notification } from './notification';
import { opportunity } from './opportunity';
import { organization } from './organization';
import { routing } from './routing';
import { salesAgent } from './salesAgent';
import { tag } from './tag';
import { task } from './task';
import { transaction } from './transaction';
import { vendor } from './vendor';
import { webhook } from './webhook';
import { lead } from './lead';
import { systemLog } from './systemLog';

/** Every resource the Lofty node offers; the node's fields and its execution both come from here. */
export const RESOURCES: ResourceDef[] = [lead, systemLog, agent, ai, appointment, calendar, call, communication, customField, leadPipeline, leadPond, listing, manualLog, member, note, notification, opportunity, organization, routing, salesAgent, tag, task, transaction, vendor, webhook];

// Operations with times for an agent offer where a time without offset is read (model/agentZone.ts).
for (const resource of RESOURCES) for (const op of resource.operations) withTimesIn(op);

export function findOperation(resource: string, operation: string): { resource: ResourceDef; op: OperationDef } | undefined {
	const found = RESOURCES.find((r) => r.value === resource);
	const op = found?.operations.find((o) => o.value === operation);
	return found && op ? { resource: found, op } : undefined;
}
