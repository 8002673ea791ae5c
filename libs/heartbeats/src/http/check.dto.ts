import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { RequiredName } from '../../../http/src/dto-helpers';
import { SEVERITIES, Severity, SLUG_PATTERN, TIME_UNITS, TimeUnit } from '../domain/heartbeat-check.decider';
import { MAX_SCHEDULE_LENGTH } from '../domain/schedule';
import { CHECK_STATES } from '../read/check-state';

/** "" and null mean "no token given" (existing clients send `"pingToken": ""`). */
const EmptyAsNull = () => Transform(({ value }) => (value === '' ? null : value));
/** Stacks listed bottom-up, as stacked decorators apply. */
const OptionalBoolean = (defaultValue: boolean) => applyDecorators(IsBoolean(), IsOptional(), ApiPropertyOptional({ default: defaultValue }));
const OptionalText = (maxLength: number) => applyDecorators(MaxLength(maxLength), IsString(), IsOptional());
const NestedObject = (type: () => Function) => applyDecorators(Type(type), ValidateNested(), IsObject());

export class AlertChannelSubscriptionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  alertChannelId!: string;

  @OptionalBoolean(true)
  activated?: boolean;
}

export class HeartbeatSettingsDto {
  @ApiPropertyOptional({ type: Number, nullable: true, example: 5, description: 'whole number of periodUnit; 30 s to 365 days; or give schedule' })
  @IsOptional()
  @IsInt()
  @Min(1)
  period?: number | null;

  @ApiPropertyOptional({ enum: TIME_UNITS, nullable: true, example: 'minutes' })
  @IsOptional()
  @IsIn(TIME_UNITS)
  periodUnit?: TimeUnit | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '30 2 * * *', description: '5-field cron or @hourly|@daily|@weekly|@monthly|@yearly; instead of period' })
  @OptionalText(MAX_SCHEDULE_LENGTH)
  schedule?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Europe/Berlin', description: 'IANA zone of schedule; default UTC' })
  @OptionalText(64)
  timezone?: string | null;

  @ApiProperty({ example: 1, description: 'whole number of graceUnit; 0 to 365 days' })
  @IsInt()
  @Min(0)
  grace!: number;

  @ApiProperty({ enum: TIME_UNITS, example: 'minutes' })
  @IsIn(TIME_UNITS)
  graceUnit!: TimeUnit;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid', description: 'generated when absent, null or ""' })
  @EmptyAsNull()
  @IsOptional()
  @IsUUID()
  pingToken?: string | null;
}

export class TriggerIncidentDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  serviceId!: string;

  @ApiProperty({ enum: SEVERITIES })
  @IsIn(SEVERITIES)
  severity!: Severity;

  @RequiredName('Backups missed')
  name!: string;

  @ApiPropertyOptional({ maxLength: 10_000, default: '' })
  @OptionalText(10_000)
  description?: string;

  @OptionalBoolean(false)
  notifySubscribers?: boolean;
}

export class CheckBodyDto {
  @RequiredName('Nightly backup')
  name!: string;

  @OptionalBoolean(true)
  activated?: boolean;

  @OptionalBoolean(false)
  muted?: boolean;

  @ApiPropertyOptional({ type: [String], default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @OptionalText(500)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: SLUG_PATTERN.source, description: 'for /ping/{pingKey}/{slug}; unique per account' })
  @EmptyAsNull()
  @IsOptional()
  @IsString()
  @Matches(SLUG_PATTERN, { message: 'slug must be 1–100 lowercase letters, digits, hyphens or underscores' })
  slug?: string | null;

  @ApiProperty({ type: HeartbeatSettingsDto })
  @NestedObject(() => HeartbeatSettingsDto)
  heartbeat!: HeartbeatSettingsDto;

  @ApiPropertyOptional({ type: TriggerIncidentDto, nullable: true })
  @IsOptional()
  @NestedObject(() => TriggerIncidentDto)
  triggerIncident?: TriggerIncidentDto | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: 'stored as sent' })
  @IsOptional()
  @IsObject()
  alertSettings?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: () => [AlertChannelSubscriptionDto], description: 'the same data as each channel\'s `subscriptions`' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AlertChannelSubscriptionDto)
  alertChannelSubscriptions?: AlertChannelSubscriptionDto[];
}

export class HeartbeatViewDto extends HeartbeatSettingsDto {
  @ApiProperty() declare pingToken: string;
  @ApiProperty() pingUrl!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'when the next ping is expected; null before the first ping of a period check or when deactivated' })
  nextDueAt!: string | null;
}

export class CheckDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['HEARTBEAT'] }) checkType!: string;
  @ApiProperty() name!: string;
  @ApiProperty() activated!: boolean;
  @ApiProperty() muted!: boolean;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: String, nullable: true }) slug!: string | null;
  @ApiProperty({ type: HeartbeatViewDto }) heartbeat!: HeartbeatViewDto;
  @ApiProperty({ type: TriggerIncidentDto, nullable: true }) triggerIncident!: TriggerIncidentDto | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) alertSettings!: Record<string, unknown> | null;
  @ApiProperty({ type: [AlertChannelSubscriptionDto] }) alertChannelSubscriptions!: AlertChannelSubscriptionDto[];
  @ApiProperty({
    enum: CHECK_STATES,
    description:
      'NEW: never pinged. UP: pinged on time. LATE: past its expected time, within its grace. FAILING: its deadline passed, or the job reported a failure. PAUSED: paused until its next ping, or deactivated.',
  })
  state!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the last ping (a reported failure counts)' }) lastPingAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the last missed deadline or reported failure' }) lastFailedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** Checkly's check status; a heartbeat has no runs, run locations or certificate, so those are null. */
export class CheckStatusDto {
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid' }) checkId!: string;
  @ApiProperty({ description: 'the check is FAILING' }) hasFailures!: boolean;
  @ApiProperty({ description: 'always false for heartbeats' }) hasErrors!: boolean;
  @ApiProperty({ description: 'the check is LATE: past its expected time, within its grace' }) isDegraded!: boolean;
  @ApiProperty({ type: Number, nullable: true }) longestRun!: number | null;
  @ApiProperty({ type: Number, nullable: true }) shortestRun!: number | null;
  @ApiProperty({ type: String, nullable: true }) lastRunLocation!: string | null;
  @ApiProperty({ type: String, nullable: true }) lastCheckRunId!: string | null;
  @ApiProperty({ type: Number, nullable: true }) sslDaysRemaining!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the last ping or failure' }) updated_at!: string | null;
}

export class CheckPageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [CheckDto] }) entries!: CheckDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}

export class HeartbeatEventDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['EARLY', 'RECEIVED', 'GRACE', 'LATE', 'FAILING', 'STARTED', 'LOG'] }) state!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: String, nullable: true }) source!: string | null;
  @ApiProperty({ type: String, nullable: true }) userAgent!: string | null;
  @ApiPropertyOptional({ format: 'uuid', description: 'the run id (?rid=) of a run signal' }) rid?: string;
  @ApiPropertyOptional({ description: 'ms from the paired start to this finish' }) duration?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 255, description: 'exit code of /ping/{token}/{exitCode}' }) exitCode?: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'single-event endpoint only: the first 10,000 bytes of the POST body' }) body?: string | null;
  @ApiPropertyOptional({ description: 'single-event endpoint only: the body was longer than 10,000 bytes' }) truncated?: boolean;
}

export class SuccessRatioDto {
  @ApiPropertyOptional({ description: 'fraction 0–1, 4 decimals; absent when the previous window has no events' }) previousPeriod?: number;
  @ApiPropertyOptional({ description: 'fraction 0–1, 4 decimals; absent when the window has no events' }) currentPeriod?: number;
}

export class AvailabilityDto {
  @ApiProperty({ type: SuccessRatioDto }) successRatio!: SuccessRatioDto;
  @ApiProperty() totalEntitiesCurrentPeriod!: number;
}

export class HeartbeatStatsDto {
  @ApiProperty({ type: AvailabilityDto }) last24Hours!: AvailabilityDto;
  @ApiProperty({ type: AvailabilityDto }) last7Days!: AvailabilityDto;
}

export class HeartbeatEventsDto {
  @ApiProperty({ type: [HeartbeatEventDto] }) events!: HeartbeatEventDto[];
  @ApiProperty({ type: HeartbeatStatsDto }) stats!: HeartbeatStatsDto;
}

export class HeartbeatEventDetailDto {
  @ApiProperty({ type: HeartbeatEventDto }) event!: HeartbeatEventDto;
  @ApiProperty({ type: HeartbeatStatsDto }) stats!: HeartbeatStatsDto;
}
