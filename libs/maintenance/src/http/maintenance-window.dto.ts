import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RequiredName } from '../../../http/src/dto-helpers';
import { IsIsoDateTime } from '../../../http/src/required-fields';
import { MAX_REPEAT_INTERVAL, MAX_SERVICES, MAX_TAGS, REPEAT_UNITS, RepeatUnit } from '../domain/maintenance-window.decider';

/** Checkly's units are upper case; lower case is taken too. */
const UpperCase = () => Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value));

export class MaintenanceWindowBodyDto {
  @RequiredName('Database upgrade')
  name!: string;

  @ApiPropertyOptional({ type: [String], default: [], description: 'checks carrying one of these tags are in maintenance' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiProperty({ format: 'date-time', example: '2026-12-01T01:00:00.000Z' })
  @IsIsoDateTime()
  startsAt!: string;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T03:00:00.000Z', description: 'after startsAt' })
  @IsIsoDateTime()
  endsAt!: string;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_REPEAT_INTERVAL, description: 'with repeatUnit' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_REPEAT_INTERVAL)
  repeatInterval?: number | null;

  @ApiPropertyOptional({ enum: REPEAT_UNITS, nullable: true, description: 'with repeatInterval' })
  @UpperCase()
  @IsOptional()
  @IsIn(REPEAT_UNITS)
  repeatUnit?: RepeatUnit | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'no occurrence starts after it' })
  @IsOptional()
  @IsIsoDateTime()
  repeatEndsAt?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, default: 'UTC', example: 'Europe/Berlin', description: 'IANA zone whose wall clock repeats keep' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string | null;

  @ApiPropertyOptional({ type: [String], default: [], description: 'services shown as under maintenance on public pages' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SERVICES)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'serviceIds must not repeat a service' })
  @IsString({ each: true })
  serviceIds?: string[];
}

export class MaintenanceWindowDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ format: 'date-time' }) startsAt!: string;
  @ApiProperty({ format: 'date-time' }) endsAt!: string;
  @ApiProperty({ type: Number, nullable: true }) repeatInterval!: number | null;
  @ApiProperty({ enum: REPEAT_UNITS, nullable: true }) repeatUnit!: RepeatUnit | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) repeatEndsAt!: string | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: [String] }) serviceIds!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class MaintenanceWindowPageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [MaintenanceWindowDto] }) entries!: MaintenanceWindowDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}
