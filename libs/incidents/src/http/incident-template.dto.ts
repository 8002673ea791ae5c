import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, ValidateNested } from 'class-validator';
import { EachObject } from '../../../http/src/dto-helpers';
import { RequiredText } from '../../../http/src/required-fields';
import { TemplateContent } from '../domain/incident-template.decider';
import { INITIAL_STATUS, SEVERITIES, Severity, UPDATE_STATUSES, UpdateStatus } from '../domain/incident-timeline';
import { IncidentServiceDto, MAX_DESCRIPTION, MAX_NAME, MAX_SERVICES, RequiredSeverity, ServiceRefDto } from './incident.dto';

// As in incident.dto.ts, a property's decorators run bottom-up and stop at the first failure: the most basic check is last.

/** An incident template: its own name, and the name, severity, services and first update of the incidents declared from it. */
export class IncidentTemplateBodyDto {
  @RequiredText(MAX_NAME, { example: 'Database failover', description: "The template's own name" })
  name!: string;

  @RequiredText(MAX_NAME, { example: 'Degraded database performance', description: "The incident's name" })
  title!: string;

  @RequiredSeverity()
  severity!: Severity;

  @ApiPropertyOptional({ enum: UPDATE_STATUSES, nullable: true, default: INITIAL_STATUS, description: 'Status of the first update' })
  @IsOptional()
  @IsIn(UPDATE_STATUSES)
  status?: UpdateStatus | null;

  @RequiredText(MAX_DESCRIPTION, { example: 'We are failing over to the standby database.', description: 'Text of the first update (Markdown)' })
  body!: string;

  @ApiPropertyOptional({ type: [ServiceRefDto], nullable: true, maxItems: MAX_SERVICES, default: [], description: 'Affected services (0–50), each a service of this account, once' })
  @ValidateNested({ each: true })
  @Type(() => ServiceRefDto)
  @EachObject('{id}')
  @ArrayMaxSize(MAX_SERVICES)
  @IsArray()
  @IsOptional()
  services?: ServiceRefDto[] | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false, description: 'Whether the first update notifies subscribers, unless the declarer changes it' })
  @IsOptional()
  @IsBoolean()
  notifySubscribers?: boolean | null;
}

/** A valid body as the template's content: defaults applied, service ids lower-case. */
export function toTemplateContent(body: IncidentTemplateBodyDto): TemplateContent {
  return {
    name: body.name,
    title: body.title,
    severity: body.severity,
    status: body.status ?? INITIAL_STATUS,
    body: body.body,
    serviceIds: (body.services ?? []).map((s) => s.id.toLowerCase()),
    notifySubscribers: body.notifySubscribers ?? false,
  };
}

// ---- responses (for the OpenAPI document) ----

export class IncidentTemplateDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ maxLength: MAX_NAME }) name!: string;
  @ApiProperty({ maxLength: MAX_NAME }) title!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: Severity;
  @ApiProperty({ enum: UPDATE_STATUSES }) status!: UpdateStatus;
  @ApiProperty({ maxLength: MAX_DESCRIPTION }) body!: string;
  @ApiProperty({ type: [IncidentServiceDto], description: 'In the order saved; a service deleted since is left out' }) services!: IncidentServiceDto[];
  @ApiProperty() notifySubscribers!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class IncidentTemplatePageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [IncidentTemplateDto] }) entries!: IncidentTemplateDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}
