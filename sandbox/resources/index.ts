/**
 * Every resource of the sandbox, one folder each, named like the node's resource tables (nodes/Lofty/resources/).
 * The order is the order of registration and seeding: keep it (seeds draw identifiers from shared counters, and
 * routes of equal specificity match in this order).
 */
import type { SandboxModule } from '../core/module';
import { agentModule } from './agent';
import { aiModule } from './ai';
import { appointmentModule } from './appointment';
import { calendarModule } from './calendar';
import { callModule } from './call';
import { communicationModule } from './communication';
import { customFieldModule } from './customField';
import { leadModule } from './lead';
import { leadPipelineModule } from './leadPipeline';
import { leadPondModule } from './leadPond';
import { listingModule } from './listing';
import { manualLogModule } from './manualLog';
import { memberModule } from './member';
import { noteModule } from './note';
import { notificationModule } from './notification';
import { opportunityModule } from './opportunity';
import { organizationModule } from './organization';
import { routingModule } from './routing';
import { salesAgentModule } from './salesAgent';
import { systemLogModule } from './systemLog';
import { tagModule } from './tag';
import { taskModule } from './task';
import { transactionModule } from './transaction';
import { vendorModule } from './vendor';
import { webhookModule } from './webhook';

export const RESOURCES: SandboxModule[] = [
	memberModule,
	leadModule,
	systemLogModule,
	agentModule,
	aiModule,
	appointmentModule,
	calendarModule,
	callModule,
	communicationModule,
	customFieldModule,
	leadPipelineModule,
	leadPondModule,
	listingModule,
	manualLogModule,
	noteModule,
	notificationModule,
	opportunityModule,
	organizationModule,
	routingModule,
	salesAgentModule,
	tagModule,
	taskModule,
	transactionModule,
	vendorModule,
	webhookModule,
];
