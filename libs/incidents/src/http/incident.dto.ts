import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { EachObject, Trim } from '../../../http/src/dto-helpers';
import { IsIsoDateTime, Required, RequiredText } from '../../../http/src/required-fields';
import { SEVERITIES, Severity, UPDATE_STATUSES, UpdateStatus } from '../domain/incident-timeline';

export const MAX_NAME = 255;
export const MAX_DESCRIPTION = 10_000;
export const MAX_SERVICES = 50;
const MAX_CREATE_UPDATES = 20;

/** One of SEVERITIES, required. Listed bottom-up, as stacked decorators apply. */
export const RequiredSeverity = () => applyDecorators(Required(), IsIn(SEVERITIES), ApiProperty({ enum: SEVERITIES }));

/** Only set when the field is present: a PATCH may leave it out, but null is not a value. */
const IfPresent = () => ValidateIf((_, value) => value !== undefined);

/** 1 to `max` objects of `type`; a bad entry's message names the fields it should have. Listed bottom-up, as stacked decorators apply. */
const ObjectList = (type: () => new () => object, fields: string, max: number) =>
  applyDecorators(IsArray(), ArrayMinSize(1), ArrayMaxSize(max), EachObject(fields), Type(type), ValidateNested({ each: true }));

// class-validator runs a property's decorators bottom-up and stops at the first failure (see
// IncidentBodies), so the most basic check of each field is written last.

export class ServiceRefDto {
  @ApiProperty({ format: 'uuid', description: 'A service of this account' })
  @IsString()
  @Required()
  id!: string;
}

export class IncidentUpdateBodyDto {
  @RequiredText(MAX_DESCRIPTION, { example: 'We are looking into elevated error rates.' })
  description!: string;

  @ApiPropertyOptional({ enum: UPDATE_STATUSES, nullable: true, description: "Default: the incident's current lastUpdateStatus (INVESTIGATING for the first update)" })
  @IsOptional()
  @IsIn(UPDATE_STATUSES)
  status?: UpdateStatus | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'Default: the time of the request; at most 5 minutes in the future' })
  @IsOptional()
  @IsIsoDateTime()
  publicIncidentUpdateDate?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false, description: 'Tell subscribers when the update is first stored (never on edits)' })
  @IsOptional()
  @IsBoolean()
  notifySubscribers?: boolean | null;
}

export class ReplaceIncidentDto {
  @RequiredText(MAX_NAME, { example: 'Elevated API error rates' })
  name!: string;

  @RequiredSeverity()
  severity!: Severity;

  @ApiProperty({ type: [ServiceRefDto], minItems: 1, maxItems: MAX_SERVICES })
  @ObjectList(() => ServiceRefDto, '{id}', MAX_SERVICES)
  @Required()
  services!: ServiceRefDto[];
}

export class CreateIncidentDto extends ReplaceIncidentDto {
  @ApiProperty({ type: [IncidentUpdateBodyDto], minItems: 1, maxItems: MAX_CREATE_UPDATES })
  @ObjectList(() => IncidentUpdateBodyDto, '{description}', MAX_CREATE_UPDATES)
  @Required()
  incidentUpdates!: IncidentUpdateBodyDto[];
}

export class PatchIncidentDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_NAME })
  @IfPresent()
  @Trim()
  @MaxLength(MAX_NAME)
  @IsNotEmpty()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ enum: SEVERITIES })
  @IfPresent()
  @IsIn(SEVERITIES)
  severity?: Severity;

  @ApiPropertyOptional({ type: [ServiceRefDto], minItems: 1, maxItems: MAX_SERVICES })
  @IfPresent()
  @ObjectList(() => ServiceRefDto, '{id}', MAX_SERVICES)
  services?: ServiceRefDto[];
}

// ---- responses (for the OpenAPI document) ----

class IncidentCheckRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

/** A service inside an incident: the full Service object. */
export class IncidentServiceDto {
  @ApiProperty() id!: string;
  @ApiProperty() accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: [IncidentCheckRefDto] }) checks!: IncidentCheckRefDto[];
}

export class IncidentUpdateDto {
  @ApiProperty() id!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: UPDATE_STATUSES }) status!: UpdateStatus;
  @ApiProperty({ format: 'date-time' }) publicIncidentUpdateDate!: string;
  @ApiProperty() notifySubscribers!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class IncidentDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: Severity;
  @ApiProperty({ enum: UPDATE_STATUSES }) lastUpdateStatus!: UpdateStatus;
  @ApiProperty({ type: [IncidentServiceDto], description: 'In request order' }) services!: IncidentServiceDto[];
  @ApiProperty({ type: [IncidentUpdateDto], description: 'Chronological by publicIncidentUpdateDate, ties by creation order' })
  incidentUpdates!: IncidentUpdateDto[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'Time of the latest change to the incident or any of its updates' })
  updated_at!: string;
}

export class IncidentPageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [IncidentDto] }) entries!: IncidentDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}

class HistoryActorDto {
  @ApiProperty({ type: String, nullable: true }) keyId!: string | null;
  @ApiProperty({ type: String, nullable: true }) keyName!: string | null;
}

class HistoryEntryDto {
  @ApiProperty() revision!: number;
  @ApiProperty({ example: 'IncidentUpdatePosted' }) type!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ type: HistoryActorDto }) actor!: HistoryActorDto;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
}

export class IncidentHistoryDto {
  @ApiProperty({ type: [HistoryEntryDto] }) entries!: HistoryEntryDto[];
}
