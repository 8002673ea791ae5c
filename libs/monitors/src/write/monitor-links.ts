import { Injectable } from '@nestjs/common';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { MonitorConfig } from '../domain/monitor-config';

/** Checks the alerting parts of a monitor's configuration; registered by the alerting context. */
export type MonitorLinkValidator = (accountId: string, config: Pick<MonitorConfig, 'alertSettings' | 'alertChannelSubscriptions'>) => Promise<ViolationDetail[]>;

/** Lets alerting validate `alertSettings` and `alertChannelSubscriptions` of monitors without monitors depending on it. */
@Injectable()
export class MonitorLinks {
  private readonly validators: MonitorLinkValidator[] = [];

  register(validator: MonitorLinkValidator): void {
    this.validators.push(validator);
  }

  async validate(accountId: string, config: MonitorConfig): Promise<void> {
    const details: ViolationDetail[] = [];
    for (const validator of this.validators) details.push(...(await validator(accountId, config)));
    if (details.length > 0) throw ValidationError.of(details);
  }
}
