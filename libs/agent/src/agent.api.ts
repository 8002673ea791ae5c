/** What apps may use of the agent: its module (the agent serves HTTP only, nothing else uses it). */
export { AgentModule } from './agent.module';
