import { Injectable } from '@nestjs/common';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { CheckConfig } from '../domain/heartbeat-check.decider';

/** Checks the alerting parts of a check's configuration; registered by the alerting context. */
export type CheckAlertValidator = (accountId: string, config: Pick<CheckConfig, 'alertSettings' | 'alertChannelSubscriptions'>) => Promise<ViolationDetail[]>;

/** Lets the alerting context validate `alertSettings` and `alertChannelSubscriptions` without heartbeats depending on it. */
@Injectable()
export class CheckAlertLinks {
  private readonly validators: CheckAlertValidator[] = [];

  register(validator: CheckAlertValidator): void {
    this.validators.push(validator);
  }

  async validate(accountId: string, config: Pick<CheckConfig, 'alertSettings' | 'alertChannelSubscriptions'>): Promise<void> {
    const details: ViolationDetail[] = [];
    for (const validator of this.validators) details.push(...(await validator(accountId, config)));
    if (details.length > 0) throw ValidationError.of(details);
  }
}
